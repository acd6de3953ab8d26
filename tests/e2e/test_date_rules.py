"""Every date a request carries is in its documented range (``services.common.date_rules``): a date past
it is a 400 naming the field, nothing is written, and the OpenAPI document says the rule.

A year-10000 start (``9999-12-31T23:59:59-14:00``) was once accepted and stopped the read models.
The names and options a new game carries are bounded too."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from services.common import clock, date_rules

YEAR_10000 = "9999-12-31T23:59:59-14:00"


def _moments() -> dict[str, str]:
    now = clock.now()
    return {
        "past": (now - timedelta(seconds=1)).isoformat(),
        "year 10000 in UTC": YEAR_10000,
        "a day past the horizon": (now + date_rules.HORIZON + timedelta(days=1)).isoformat(),
        "no UTC offset": (now + timedelta(days=1)).replace(tzinfo=None).isoformat(),
        "far past": "0001-01-01T00:00:00+14:00",
    }


def _days() -> dict[str, str]:
    today = clock.now().date()
    return {
        "yesterday": (today - timedelta(days=1)).isoformat(),
        "9999-12-31": date.max.isoformat(),
        "a day past the horizon": (today + date_rules.HORIZON + timedelta(days=1)).isoformat(),
    }


def _tournament(starts_at: str) -> dict[str, Any]:
    return {
        "name": "dates",
        "game": "seven-dragons",
        "seats": 3,
        "format": "swiss",
        "rounds": 50,
        "capacity": 8,
        "time_control": {"kind": "per_move", "seconds": 14 * 86_400, "timeout_policy": "forfeit"},
        "starts_at": starts_at,
        "round_seconds": 14 * 86_400,
    }


def _refused(reply: Any, field: str) -> None:
    assert reply.status == 400, reply.body
    assert field in str(reply.body["error"]), reply.body


def _written(client: Any) -> tuple[int, int]:
    """Events saved, and tournaments: what a refused request must leave as it was."""
    return client.platform.head(), len(client.platform.tournaments.listing(None, 100, 0))


@pytest.mark.parametrize("case", sorted(_moments()))
def test_a_game_start_outside_its_range_is_refused_and_writes_nothing(client: Any, case: str) -> None:
    p = client.player()
    before = _written(client)
    reply = client.call(
        "POST", "/api/v1/games", {"game": "dice-race", "players": 2, "starts_at": _moments()[case]}, p["token"]
    )
    _refused(reply, "starts_at")
    assert _written(client) == before


@pytest.mark.parametrize("case", sorted(_moments()))
def test_a_tournament_start_outside_its_range_is_refused_and_writes_nothing(client: Any, case: str) -> None:
    p = client.player()
    before = _written(client)
    _refused(client.call("POST", "/api/v1/tournaments", _tournament(_moments()[case]), p["token"]), "starts_at")
    assert _written(client) == before


@pytest.mark.parametrize("case", sorted(_days()))
def test_a_vacation_outside_its_range_is_refused_and_writes_nothing(client: Any, case: str) -> None:
    p = client.player()
    reply = client.call("POST", "/api/v1/me/vacation", {"start": _days()[case], "days": 1}, p["token"])
    _refused(reply, "start")
    assert client.call("GET", "/api/v1/me/vacation", token=p["token"]).body["days"] == []


def test_the_last_dates_in_range_are_accepted_and_projected(client: Any) -> None:
    """At the horizon's edge, the longest time controls and tournaments still fit every read model."""
    p = client.player()
    edge = (clock.now() + date_rules.HORIZON - timedelta(minutes=1)).astimezone(UTC)
    late = edge.astimezone(datetime.strptime("-1400", "%z").tzinfo).isoformat()
    game = client.new_game(p["token"], starts_at=late, time_control={"kind": "per_move", "seconds": 14 * 86_400})
    assert client.call("POST", "/api/v1/tournaments", _tournament(late), p["token"]).status == 201
    day = (clock.now().date() + date_rules.HORIZON).isoformat()
    assert client.call("POST", "/api/v1/me/vacation", {"start": day, "days": 1}, p["token"]).status == 201
    client.platform.wait_for_projections()
    assert client.platform.views.game_summary(game["id"])["status"] == "scheduled"
    assert client.call("GET", "/healthz").body["status"] == "ok"


def test_the_services_keep_the_same_rules_for_every_caller(platform: Any) -> None:
    """The pages and forms reach the same services: the rule holds there, not only in the API's schemas."""
    from services.common.errors import InvalidRequest

    pid = platform.accounts.register("dates", "human")[0].id
    year_10000 = datetime.fromisoformat(YEAR_10000)
    with pytest.raises(InvalidRequest, match="starts_at"):
        platform.games.create_game(pid, "dice-race", None, None, 2, starts_at=year_10000)
    with pytest.raises(InvalidRequest, match="start"):
        platform.vacations.declare(pid, date.max, 1)


def test_the_openapi_document_says_each_rule(client: Any) -> None:
    spec = client.call("GET", "/api/v1/openapi.json").body["components"]["schemas"]
    assert date_rules.MOMENT in spec["GameCreate"]["properties"]["starts_at"]["description"]
    assert date_rules.MOMENT in spec["TournamentCreate"]["properties"]["starts_at"]["description"]
    assert date_rules.DAY in spec["VacationRequest"]["properties"]["start"]["description"]


@pytest.mark.parametrize(
    "extra",
    [
        {"game": "g" * 65},
        {"variant": "v" * 65},
        {"fill_bot": "b" * 65},
        {"options": {f"o{i}": 1 for i in range(33)}},
        {"options": {"o" * 65: 1}},
    ],
    ids=["game", "variant", "fill_bot", "options", "option name"],
)
def test_names_and_options_of_a_new_game_are_bounded(client: Any, extra: dict[str, Any]) -> None:
    p = client.player()
    before = _written(client)
    reply = client.call("POST", "/api/v1/games", {"game": "dice-race", "players": 2, **extra}, p["token"])
    _refused(reply, next(iter(extra)))
    assert _written(client) == before
