"""The refs of a seat's listed legal moves on its board (``domain.kernel.pointing``), for a
person playing by clicking the board: each move's ways of being clicked, and its pose."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.aggregate import Game


def board_points(game: Game, seat: int, offset: int, count: int) -> dict[str, Any]:
    """``refs`` (each move's ways, lists of refs) and ``poses`` (each move's pose, or None) of
    the listed moves ``offset`` to ``offset + count`` of ``seat``, in their order."""
    listed: Sequence[Any] = ()
    if count and game.status == "active" and seat in game.awaiting and seat not in game.left:
        listed = game.ruleset.legal_moves(game.state, seat)
    refs: list[list[list[str]]] = []
    poses: list[dict[str, Any] | None] = []
    for i in range(offset, min(len(listed), offset + count)):
        pointing = game.ruleset.point(game.state, seat, listed[i])
        refs.append([list(way) for way in pointing.ways])
        poses.append(pointing.pose())
    return {"refs": refs, "poses": poses}
