"""The time as the services see it. Tests replace it with a clock they control.

Event timestamps come from here too, so turn starts, deadlines and reminders can
be tested without sleeping.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock(Clock):
    """A clock that moves only when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when


_clock: Clock = Clock()


def now() -> datetime:
    return _clock.now()


def use(clock: Clock) -> Clock:
    """Installs ``clock`` for this process and returns the previous one."""
    global _clock
    previous, _clock = _clock, clock
    return previous
