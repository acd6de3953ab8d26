"""What the game projection remembers of each game between events.

Every handler needs a little of a game besides its event: which game and variant it is, its
seats, its clock. Each is kept in memory from the game's own events and, for a game not in
memory (after a restart), read back from its summary row, which the projection wrote up to the
event before. The game list folds no board: the boards are a read model of their own
(``projections.board_projection``, with its memory in ``projections.board_memory``).
"""

from __future__ import annotations

from typing import Any

from projections.views import GameViewsSQL


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
