"""Time-control arithmetic: turns, banks, deadlines and vacation days. Pure functions.

A seat's *turn* is the span during which it stays awaited, measured at decision
boundaries (after all the events of one decision, never between two of them); its
clock runs for the whole turn, however many decisions the turn holds, and each
seat of a simultaneous phase runs its own. The aggregate, the game projection and
the offline verifier all follow turns with ``turns_after`` at the rule events that
``closes_decision``. A time control is:

* ``none``: no clock;
* ``per_move``: every turn gets ``seconds``;
* ``bank``: a turn may use the seat's bank; when it ends, the time used is taken
  from the bank, then ``increment`` is added, up to ``cap``.

A player's vacation days (whole UTC days) do not count: the clock stands still on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from typing import Any

REMINDER_AT = 0.8
"""A reminder goes out when this share of a turn's time has gone."""


def is_timed(tc: Mapping[str, Any]) -> bool:
    return bool(tc.get("kind", "none") != "none")


def initial_bank(tc: Mapping[str, Any]) -> float | None:
    return float(tc["initial"]) if tc.get("kind") == "bank" else None


def budget(tc: Mapping[str, Any], bank: float | None) -> float | None:
    """Seconds a turn may take, before vacation days."""
    kind = tc.get("kind", "none")
    if kind == "per_move":
        return float(tc["seconds"])
    if kind == "bank":
        return max(0.0, float(bank if bank is not None else tc["initial"]))
    return None


def settle(tc: Mapping[str, Any], bank: float, used: float) -> float:
    """The bank after a turn that used ``used`` seconds: minus use, plus increment, capped."""
    return min(float(tc["cap"]), max(0.0, bank - used) + float(tc["increment"]))


def turns_after(turns: Mapping[str, str], awaiting: Iterable[int], at: str) -> tuple[dict[str, str], dict[str, str]]:
    """Turn starts after a decision that leaves ``awaiting`` awaited, at time ``at``:
    ``(running, ended)``. A seat still awaited keeps its turn's start; a newly awaited
    seat starts its turn at ``at``; ``ended`` maps each seat whose turn just ended to
    its start. Call it at decision boundaries only (``closes_decision``): a seat left
    unawaited between two events of one decision has not ended its turn."""
    now = [str(seat) for seat in awaiting]
    running = {s: t for s, t in turns.items() if s in now}
    ended = {s: t for s, t in turns.items() if s not in running}
    for seat in now:
        running.setdefault(seat, at)
    return running, ended


def closes_decision(event: Any) -> bool:
    """Whether a rule event is the last of its decision, where turns start and end.

    Rule events carry ``closes``; those stored before it existed read as closing,
    so games recorded then fold as they did (their turns moved at every event).
    Stored events have the flag as an attribute, exported ones as a key."""
    if isinstance(event, dict):
        return bool(event.get("closes", True))
    return bool(getattr(event, "closes", True))


def deadline(
    tc: Mapping[str, Any], since: str | None, bank: float | None, vacation: frozenset[date] = frozenset()
) -> datetime | None:
    """When a turn started at ``since`` times out: its ``budget`` of clock time from its start,
    vacation days not counted (None for a seat with no running turn, or an untimed game).
    Without ``vacation`` it is the earliest the turn can time out: vacation days only push it later."""
    return _after_share(tc, since, bank, 1.0, vacation)


def reminder(
    tc: Mapping[str, Any], since: str | None, bank: float | None, vacation: frozenset[date] = frozenset()
) -> datetime | None:
    """When the seat of a turn started at ``since`` is reminded: once ``REMINDER_AT`` of its budget has run."""
    return _after_share(tc, since, bank, REMINDER_AT, vacation)


def _after_share(
    tc: Mapping[str, Any], since: str | None, bank: float | None, share: float, vacation: frozenset[date]
) -> datetime | None:
    seconds = budget(tc, bank)
    if since is None or seconds is None:
        return None
    return advance(parse(since), share * seconds, vacation)


def advance(start: datetime, seconds: float, vacation: frozenset[date] = frozenset()) -> datetime:
    """The instant at which ``seconds`` of clock time have run from ``start``, the clock
    standing still on vacation days."""
    if not vacation:
        return start + timedelta(seconds=seconds)
    t, left = start, seconds
    for _ in range(10_000):
        midnight = datetime.combine(t.date() + timedelta(days=1), datetime.min.time(), tzinfo=t.tzinfo)
        if t.date() in vacation:
            t = midnight
            continue
        span = (midnight - t).total_seconds()
        if left <= span:
            return t + timedelta(seconds=left)
        left -= span
        t = midnight
    return t + timedelta(seconds=left)


def elapsed(start: datetime, end: datetime, vacation: frozenset[date] = frozenset()) -> float:
    """Clock seconds between ``start`` and ``end``, not counting vacation days."""
    total = max(0.0, (end - start).total_seconds())
    if not vacation or total == 0:
        return total
    day, off = start.date(), 0.0
    while day <= end.date():
        if day in vacation:
            lo = max(start, datetime.combine(day, datetime.min.time(), tzinfo=start.tzinfo))
            hi = min(end, datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=start.tzinfo))
            off += max(0.0, (hi - lo).total_seconds())
        day += timedelta(days=1)
    return max(0.0, total - off)


def parse(ts: str) -> datetime:
    return datetime.fromisoformat(ts)
