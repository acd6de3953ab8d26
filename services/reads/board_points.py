"""The refs of a seat's listed legal moves on its board (``domain.kernel.pointing``), for a
person playing by clicking the board: each move's ways of being clicked, and its pose.

A game's version fixes its state, so what was computed for a version is kept for the next reader
of it (a reload, a second tab, the page reading again after a refused move): a flight's path costs
the server milliseconds, and a seat may have hundreds of flights."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from services.play.aggregate import Game

KEPT = 64
"""Designed: the listings kept (a few per game being played at once)."""
_kept: OrderedDict[tuple[str, int, int, int, int, tuple[str, ...] | None], dict[str, Any]] = OrderedDict()
_lock = threading.Lock()


def board_points(
    game: Game, seat: int, offset: int, count: int, chosen: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """``refs`` (each move's ways, lists of refs) and ``poses`` (each move's pose, or None) of
    the listed moves ``offset`` to ``offset + count`` of ``seat``, in their order (of those the
    refs ``chosen`` narrow them to, when given: ``move_steps``)."""
    key = (str(game.id), game.version, seat, offset, count, chosen)
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    found = _computed(game, seat, offset, count, chosen)
    with _lock:
        _kept[key] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def _computed(game: Game, seat: int, offset: int, count: int, chosen: tuple[str, ...] | None) -> dict[str, Any]:
    listed: Sequence[Any] = ()
    if count and game.status == "active" and seat in game.awaiting and seat not in game.left:
        listed = (
            game.ruleset.legal_moves(game.state, seat)
            if chosen is None
            else game.ruleset.narrow(game.state, seat, chosen).moves
        )
    refs: list[list[list[str]]] = []
    poses: list[dict[str, Any] | None] = []
    for i in range(offset, min(len(listed), offset + count)):
        pointing = game.ruleset.point(game.state, seat, listed[i])
        refs.append([list(way) for way in pointing.ways])
        poses.append(pointing.pose())
    return {"refs": refs, "poses": poses}
