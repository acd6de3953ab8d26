"""Who sees what: the platform's one viewer rule.

While a game runs, a caller sees it as the seat they hold (the one they name,
else their first), or as a spectator if they hold none. Once the game has
ended everything is revealed to everyone. A sandbox forked from another game
reveals everything only once it has ended *and* the game it was forked from has
ended: what its starting position holds belongs to that game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel import Viewer

ENDED = frozenset({"finished", "abandoned"})
"""Statuses of a game that accepts no more decisions: the one list of them (``cancelled`` is a
tournament's status, never a game's). The client library keeps a copy of its own
(``dragonhall.streams.ENDED``), held to this one by a test."""


def has_ended(status: str) -> bool:
    return status in ENDED


def revealed(status: str, origin_ended: bool = True) -> bool:
    """Whether everything about a game is open to everyone: it has ended and, for a sandbox,
    ``origin_ended`` (the game it was forked from has ended too; a game that is no sandbox
    passes True, and a caller that cannot tell passes False)."""
    return has_ended(status) and origin_ended


def seats_held(seats: Sequence[Mapping[str, Any]], player_id: str | None) -> list[int]:
    """The seats ``player_id`` holds, in seat order (none for an anonymous caller)."""
    if not player_id:
        return []
    return [int(s["seat"]) for s in seats if s["player_id"] == player_id]


def viewer(
    revealed: bool, seats: Sequence[Mapping[str, Any]], player_id: str | None, seat: int | None = None
) -> Viewer:
    """The viewer a caller is: everyone once ``revealed``, else the seat they name (if theirs)
    or their first seat, else a spectator."""
    if revealed:
        return Viewer.everyone()
    mine = seats_held(seats, player_id)
    if seat is not None and seat in mine:
        return Viewer.of(seat)
    return Viewer.of(mine[0]) if mine else Viewer.spectator()


def chosen_seat(held: Sequence[int], awaiting: Sequence[int]) -> int:
    """The seat a caller who names none acts or reads for: the first of ``held`` that is
    awaited, else the first (``held`` is not empty)."""
    return next((s for s in held if s in awaiting), held[0])
