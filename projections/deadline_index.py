"""The deadline index: each timed game's awaited seats, clock, next deadline and next reminder.

The sweep (``services.deadlines.timers``) finds the games whose deadline or reminder came near in the
``next_deadline`` and ``next_reminder`` columns of ``dh_games``, and the games awaiting a server
bot in ``bots_awaited``. They are written once per game per batch, as the clock stands after the
batch's last event: a move's several rule events cost one computation, not one each. Deadlines
here leave vacation days out (they only ever push a deadline later); the timers count them.
"""

from __future__ import annotations

import json
from typing import Any

from projections.batch import Batch, blame
from projections.game_memory import GameMemory
from services.deadlines import clocks
from services.deadlines.timers import clocks_key

NO_TIMING = {"next_deadline": None, "next_reminder": None, "bots_awaited": 0}
"""The columns of a game with nothing due: ended, or not timed."""


def settle(memory: GameMemory, batch: Batch) -> None:
    """Writes each timed game's awaited seats and clock columns as they stand after the batch."""
    for gid in batch.timed:
        with blame(gid):
            columns = {"awaiting": json.dumps(memory.clock_of(gid)["awaiting"]), **_timing(memory, gid)}
        if gid in batch.ended:  # the clock as it stopped; nothing awaited, nothing due
            columns.update(awaiting="[]", **NO_TIMING)
        batch.updates[gid].update(columns)


def _timing(memory: GameMemory, gid: str) -> dict[str, Any]:
    """The clock columns: turn starts and banks, and the next deadline and reminder."""
    held = memory.clock_of(gid)
    tc = memory.game_meta(gid)["tc"]
    turns, banks = held["turns"].items(), held["banks"]
    deadlines = [d for seat, since in turns if (d := clocks.deadline(tc, since, banks.get(seat))) is not None]
    reminders = [r for seat, since in turns if (r := clocks.reminder(tc, since, banks.get(seat))) is not None]
    seats = {s["seat"]: s for s in memory.seats_of(gid)}
    bots = any(seats.get(s, {}).get("bot") for s in held["awaiting"])
    return {
        "clock": json.dumps({"turns": held["turns"], "banks": held["banks"]}),
        "next_deadline": clocks_key(min(deadlines)) if deadlines else None,
        "next_reminder": clocks_key(min(reminders)) if reminders else None,
        "bots_awaited": 1 if bots else 0,
    }
