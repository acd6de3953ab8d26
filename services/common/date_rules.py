"""The dates a request may carry, one rule per field, in one place.

A date the read models cannot hold stopped them once: ``"starts_at": "9999-12-31T23:59:59-14:00"``
is year 10000 in UTC, and every deadline computed from it overflowed. So every date a request
carries must lie after now and at most ``HORIZON_YEARS`` ahead: far enough for any plan, and far
from every limit of ``datetime`` (year 9999) after the time controls (at most 14 days a move) and
tournament rounds (at most 50) are added to it.

``RULES`` names each field and its rule; the services check them (``check_moment``,
``check_day``), the API's schemas check them too (``api.schema_fields.ahead``) and say them in the
OpenAPI document, and ``docs/api.md`` lists them. A date outside its rule is ``invalid_request``
(400), and nothing is written.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from services.common.errors import InvalidRequest

HORIZON_YEARS = 10
HORIZON = timedelta(days=3653)
"""Ten years of days, leap days included."""

MOMENT = f"after now and at most {HORIZON_YEARS} years ({HORIZON.days} days) ahead, with its UTC offset"
DAY = f"today (UTC) or later, and at most {HORIZON_YEARS} years ({HORIZON.days} days) ahead"

RULES = {
    "POST /games starts_at": MOMENT,
    "POST /tournaments starts_at": MOMENT,
    "POST /me/vacation start": DAY,
}
"""Every date a request carries and its rule (``tests/unit/services/test_date_rules.py`` checks
that each is enforced)."""


def moment_error(at: datetime, now: datetime) -> str | None:
    """Why ``at`` breaks the rule of moments (``MOMENT``), or None."""
    if at.tzinfo is None or at.utcoffset() is None:
        return "must carry its UTC offset"
    if at <= now:
        return "must be in the future"
    if at - now > HORIZON:
        return f"must be at most {HORIZON_YEARS} years ahead"
    return None


def day_error(day: date, today: date) -> str | None:
    """Why ``day`` breaks the rule of days (``DAY``), or None."""
    if day < today:
        return "cannot be in the past"
    if day - today > HORIZON:
        return f"must be at most {HORIZON_YEARS} years ahead"
    return None


def check_moment(field: str, at: datetime, now: datetime) -> None:
    """``InvalidRequest`` naming ``field`` when ``at`` breaks the rule of moments."""
    error = moment_error(at, now)
    if error is not None:
        raise InvalidRequest(f"{field} {error}", field=field)


def check_day(field: str, day: date, today: date) -> None:
    """``InvalidRequest`` naming ``field`` when ``day`` breaks the rule of days."""
    error = day_error(day, today)
    if error is not None:
        raise InvalidRequest(f"{field} {error}", field=field)
