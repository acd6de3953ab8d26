"""What the game projection remembers of each game between events.

Every handler needs a little of a game besides its event: which game and variant it is, its
seats, its clock. Each is kept in memory from the game's own events and, for a game not in
memory (after a restart), read back from its summary row, which the projection wrote up to the
event before. The game list folds no board: the boards are a read model of their own
(``projections.board_projection``, with its memory in ``projections.board_memory``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.views import GameViewsSQL

KEPT = 10_000
"""Games remembered at most between batches: a game that ended is forgotten at once, and past
this many running ones the longest remembered go (each comes back from its row when it moves)."""


class GameMemory:
    """Each game's facts and clock as the events so far left them."""

    def __init__(self, view: GameViewsSQL) -> None:
        self.view = view
        self.meta: dict[str, dict[str, Any]] = {}
        self.seats: dict[str, list[dict[str, Any]]] = {}
        self.clocks: dict[str, dict[str, Any]] = {}

    def forget(self, gid: str) -> None:
        self.meta.pop(gid, None)
        self.seats.pop(gid, None)
        self.clocks.pop(gid, None)

    def settle(self, ended: Iterable[str], kept: int = KEPT) -> None:
        """Forgets the games that ended, and the longest remembered past ``kept``: called between
        batches, once a batch's rows are written, since a game forgotten within a batch would be
        read back from a row that does not yet hold the batch's changes. Without it the memory
        grew with every game ever played, a few KB a game (some 5,500 games in 10 minutes of a
        saturated ``bench/http_load.py``)."""
        for gid in ended:
            self.forget(gid)
        for table in (self.meta, self.seats, self.clocks):
            while len(table) > kept:
                del table[next(iter(table))]

    def game_meta(self, gid: str) -> dict[str, Any]:
        meta = self.meta.get(gid)
        if meta is None:
            row = self.view.game_summary(gid)
            if row is None:
                raise LookupError(f"no summary row for game {gid}")
            meta = self.meta[gid] = {
                "game": row["game"],
                "variant": row["variant"],
                "options": row["options"],
                "tc": row["time_control"],
                "sandbox": bool(row["sandbox"]),
            }
        return meta

    def seats_of(self, gid: str) -> list[dict[str, Any]]:
        if gid not in self.seats:
            row = self.view.game_summary(gid)
            self.seats[gid] = list(row["seats"]) if row else []
        return self.seats[gid]

    def clock_of(self, gid: str) -> dict[str, Any]:
        """The game's turn starts, banks and awaited seats."""
        if gid not in self.clocks:
            row = self.view.game_summary(gid)
            held = (row or {}).get("clock") or {}
            self.clocks[gid] = {
                "turns": dict(held.get("turns", {})),
                "banks": dict(held.get("banks", {})),
                "awaiting": list((row or {}).get("awaiting", [])),
            }
        return self.clocks[gid]
