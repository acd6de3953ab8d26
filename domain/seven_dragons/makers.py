"""How a listing makes its commands: shared when they recur, built fast when they do not.

A listing can hold hundreds of commands (every cell for every dragon in hand,
every destination of every layout card for Move a Card), and clients receive all
of them. A frozen dataclass's ``__init__`` is slow, so commands are built with
``slots.builder``, and those that recur from turn to turn are *interned*: built
the first time they are listed and reused after, from one table per fixed part
of the command: ``PlaceDragon`` per (card, orientation) keyed by cell, ``ZapCard``
per (card, discard) keyed by target.

``MoveCard`` is not interned: a listing with Move a Card holds thousands of them
(layout card x destination x discard) and the next layout brings as many new
ones, so a table would mostly grow, and keep the garbage collector busy, rather
than serve.

Why interning is safe:

* Commands are frozen value objects; a shared one is equal to a fresh one, and
  nothing in the platform tells them apart (no identity checks, no mutation).
* A table's answer is a function of its key only, so what happens to be cached
  never changes a listing, its order, or an event.
* Threads: ``dict`` lookups, stores, ``setdefault`` and ``clear`` are atomic
  under the GIL. Two threads missing the same key both build an equal command
  and the last store wins; either answer is right.
* Memory is bounded: a fixed number of tables (cards x orientations, cards x
  discards), each cleared when it reaches ``LIMIT`` entries.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

from domain.kernel import Command
from domain.kernel.slots import builder
from domain.seven_dragons.commands import Discard, MoveCard, PlaceDragon, ZapCard

Cell = tuple[int, int]

LIMIT = 1024
"""Entries per table before it starts afresh: more cells than a layout ever borders."""

_PLACE = builder(PlaceDragon)
_MOVE = builder(MoveCard)
_ZAP = builder(ZapCard)
_X, _Y = itemgetter(0), itemgetter(1)


class Interned(dict[Any, Command]):
    """One table: key -> command, built by ``make`` on first use."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[Any], Command]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> Command:
        if len(self) >= LIMIT:
            self.clear()
        command = self._make(key)
        self[key] = command
        return command


_TABLES: dict[Hashable, Interned] = {}


def _interned(key: Hashable, make: Callable[[Any], Command]) -> Callable[[Any], Command]:
    """The lookup of table ``key``, made on first use (``make`` builds its commands)."""
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES.setdefault(key, Interned(make))
    return table.__getitem__


def placer(card: int, orientation: int) -> Callable[[Cell], Command]:
    """cell -> ``PlaceDragon(card, x, y, orientation)``, interned."""
    return _interned((PlaceDragon, card, orientation), lambda cell: _PLACE(card, cell[0], cell[1], orientation))


def zapper(card: int, discard: Discard) -> Callable[[int], Command]:
    """target -> ``ZapCard(card, target, discard)``, interned."""
    return _interned((ZapCard, card, discard), lambda target: _ZAP(card, target, discard))


def mover(card: int, target: int, discard: Discard) -> Callable[[tuple[Cell, int]], Command]:
    """(cell, orientation) -> ``MoveCard(card, target, x, y, orientation, discard)``, built afresh (see above)."""
    return lambda d: _MOVE(card, target, d[0][0], d[0][1], d[1], discard)


class MoverTo:
    """cell -> ``MoveCard(card, target, x, y, orientation, discard)``, built afresh (see above).

    ``many(cells)`` makes them all with the builder called straight from ``map``:
    no Python frame per command but the builder's own.
    """

    __slots__ = ("_fixed",)

    def __init__(self, card: int, target: int, discard: Discard, orientation: int) -> None:
        self._fixed = (card, target, orientation, discard)

    def __call__(self, cell: Cell) -> Command:
        card, target, orientation, discard = self._fixed
        return _MOVE(card, target, cell[0], cell[1], orientation, discard)

    def many(self, cells: Sequence[Cell]) -> Iterator[Command]:
        card, target, orientation, discard = self._fixed
        return map(
            _MOVE, repeat(card), repeat(target), map(_X, cells), map(_Y, cells), repeat(orientation), repeat(discard)
        )
