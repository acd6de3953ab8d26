"""How a game's clock moves at its events, and what it makes due: one home for the read models that follow it.

Two read models follow a game's clock, each in its own memory: the game list, whose summary shows
the awaited seats, turn starts and banks (``projections.games``), and the deadline index, which
finds the games whose deadline or reminder comes near (``projections.deadline_projection``). Both
fold the clock with these functions, as the aggregate does (``services.deadlines.clocks``, where
the arithmetic is). A clock is ``{"turns": {seat: start}, "banks": {seat: seconds}, "awaiting":
[seat]}``, seats as strings in ``turns`` and ``banks``, as stored.

Deadlines here leave vacation days out (they only ever push a deadline later); the timers count them.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from projections.event_keys import stamp_of
from services.deadlines import clocks
from services.deadlines.timers import clocks_key

Clock = dict[str, Any]
NO_TIMING: dict[str, Any] = {"next_deadline": None, "next_reminder": None, "bots_awaited": 0}
"""The deadline columns of a game with nothing due: ended, or not timed."""


def new_clock() -> Clock:
    return {"turns": {}, "banks": {}, "awaiting": []}


def clock_of(held: Mapping[str, Any] | None, awaiting: Iterable[int]) -> Clock:
    """A clock read back from a row: its ``clock`` column (turns and banks) and its awaited seats."""
    held = held or {}
    return {"turns": dict(held.get("turns", {})), "banks": dict(held.get("banks", {})), "awaiting": list(awaiting)}


def started(held: Clock, tc: Mapping[str, Any], seats: Iterable[Mapping[str, Any]]) -> None:
    """A game started: a bank game gives every seat its initial bank."""
    bank = clocks.initial_bank(tc)
    if bank is not None:
        held["banks"] = {str(s["seat"]): bank for s in seats}


def joined(held: Clock, tc: Mapping[str, Any], seat: int) -> None:
    """A seat joined a running game: in a bank game, with the initial bank."""
    bank = clocks.initial_bank(tc)
    if bank is not None:
        held["banks"][str(seat)] = bank


def forked(held: Clock, awaiting: Iterable[int], at: str) -> None:
    """A game forked from another's position: its awaited seats start their turns at ``at``."""
    awaiting = list(awaiting)
    held["turns"], _ended = clocks.turns_after(held["turns"], awaiting, at)
    held["awaiting"] = awaiting


def decided(held: Clock, e: Any) -> bool:
    """At the rule event that closes its decision, moves the awaited seats and their turns;
    whether it did."""
    if not clocks.closes_decision(e):
        return False
    held["turns"], _ended = clocks.turns_after(held["turns"], e.awaiting, stamp_of(e))
    held["awaiting"] = list(e.awaiting)
    return True


def settled(held: Clock, banks: Mapping[str, float]) -> None:
    """A turn's time taken from the banks (``Game.ClockSettled``)."""
    held["banks"] = {**held["banks"], **banks}


def clock_json(held: Clock) -> str:
    """The ``clock`` column: turn starts and banks."""
    return json.dumps({"turns": held["turns"], "banks": held["banks"]})


def timing(tc: Mapping[str, Any], held: Clock, bot_seats: Collection[int]) -> dict[str, Any]:
    """The deadline columns: the next deadline and reminder of the awaited seats' turns, and
    whether a server bot (one of ``bot_seats``) is awaited."""
    turns, banks = held["turns"].items(), held["banks"]
    deadlines = [d for seat, since in turns if (d := clocks.deadline(tc, since, banks.get(seat))) is not None]
    reminders = [r for seat, since in turns if (r := clocks.reminder(tc, since, banks.get(seat))) is not None]
    return {
        "next_deadline": clocks_key(min(deadlines)) if deadlines else None,
        "next_reminder": clocks_key(min(reminders)) if reminders else None,
        "bots_awaited": 1 if any(s in bot_seats for s in held["awaiting"]) else 0,
    }


def starts(starts_at: str | None) -> dict[str, Any]:
    """The deadline columns of a game just created: a scheduled game is due at its start."""
    return {**NO_TIMING, "next_deadline": clocks_key(clocks.parse(starts_at)) if starts_at else None}
