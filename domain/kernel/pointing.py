"""Playing on the board: which elements of a board picture a legal move refers to.

A board picture marks each element a person may click with a stable ``data-ref`` name
("tile:red-volcano", "cell:2,-1", "hand:place-stone"). A game says, for each of its legal
moves, the refs a person clicks to make it, in order (``Pointing.ways``: usually one way,
more where the order of two clicks does not matter, such as the two ends of a plank). The
page highlights the refs that begin some legal move, narrows the candidates with each click
and plays the move when one remains; it knows no rule.

A move may also carry a *pose*: where a piece it places would lie (``ghost`` drawn over
``at``, turned ``turn`` degrees), so the page can show the piece there before it is played;
and a *path*: a polyline in the board's units the move would draw (a flight), with where it
ends (``ends``: ``"ok"``, ``"crash"``, ``"wall"``...). Refs, poses and paths are computed from
the seat's own legal moves and what its view shows, so they reveal nothing the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Ref = str
"""A ``data-ref`` name: no space in it (a client sends the refs chosen so far as one line)."""


@dataclass(frozen=True, slots=True)
class Pointing:
    """How a person makes one move on the board."""

    ways: tuple[tuple[Ref, ...], ...]
    """The sequences of refs that make the move, each in click order."""
    ghost: Ref | None = None
    """The element a pose draws again (the card placed), or None."""
    at: Ref | None = None
    """Where the ghost is drawn."""
    turn: int = 0
    """How far the ghost is turned, in degrees."""
    path: tuple[tuple[float, float], ...] = field(default=())
    """A polyline to draw while the move is considered, in the picture's user units."""
    ends: str = ""
    """How the path ends, in a word the page shows as a class (``ok``, ``crash``, ``wall``)."""
    frame: str = ""
    """The ``data-frame`` of the picture's group whose units the path is in ("" for the root's)."""
    mark: tuple[float, float, float] | None = None
    """For a move whose only ref is a free point of the board (a stone dropped anywhere on the
    river): the page draws that ref as a clickable disc, ``(x, y, radius)`` in ``frame``'s units."""
    labels: tuple[tuple[Ref, str], ...] = ()
    """Words for refs the picture does not draw (a choice with no place on the board: a speed, a
    turn's angle): the page shows them as the board's own buttons beside it."""
    confirm: bool = False
    """The move is made by its last click too, never played for the first ones because it is the
    only move left that begins so: a move a person may not mean (a card thrown away unplayed)."""

    def pose(self) -> dict[str, Any] | None:
        """The move's pose for the page (JSON), or None when it has none."""
        out: dict[str, Any] = {}
        if self.ghost is not None and self.at is not None:
            out.update(ghost=self.ghost, at=self.at, turn=self.turn)
        if self.path:
            out.update(path=[[round(x, 1), round(y, 1)] for x, y in self.path], ends=self.ends, frame=self.frame)
        if self.mark is not None:
            out.update(mark=[round(v, 1) for v in self.mark], frame=self.frame)
        if self.labels:
            out["labels"] = dict(self.labels)
        if self.confirm:
            out["confirm"] = True
        return out or None


def point(*refs: Ref) -> Pointing:
    """A move made by clicking ``refs`` in this order."""
    return Pointing((tuple(refs),))


def either(*ways: Sequence[Ref]) -> Pointing:
    """A move made by any of ``ways``."""
    return Pointing(tuple(tuple(w) for w in ways))


NOWHERE = Pointing(())
"""A move the board cannot make (the keyboard's controls can)."""


@dataclass(frozen=True, slots=True)
class Narrowing:
    """A seat's legal moves narrowed by the refs a person has clicked so far (``chosen``): those
    one of whose ways begins with them, and each ref that may be clicked next with one move it
    begins. A game whose listing runs to tens of thousands of moves (a Mékong programme) is
    chosen step by step this way, each step's choices read from the server, rather than listed
    whole to the page."""

    moves: Sequence[Any]
    """The legal moves one of whose ways begins with the refs chosen (lazy where the game can)."""
    next: tuple[tuple[Ref, Any], ...]
    """Each ref that may come next, in the game's order, with one move whose way it continues."""


def narrowed(pointed: Iterable[tuple[Any, Sequence[Sequence[Ref]]]], chosen: Sequence[Ref]) -> Narrowing:
    """The moves of ``pointed`` (each with its ways, ``Pointing.ways``) narrowed by ``chosen``: the
    generic way, which needs every move's ways (a game with a large listing narrows its own,
    ``Ruleset.narrow``)."""
    chosen = tuple(chosen)
    depth = len(chosen)
    kept: list[Any] = []
    following: dict[Ref, Any] = {}
    for move, ways in pointed:
        begun = [way for way in ways if tuple(way[:depth]) == chosen]
        if begun:
            kept.append(move)
        for way in begun:
            if len(way) > depth:
                following.setdefault(way[depth], move)
    return Narrowing(kept, tuple(following.items()))
