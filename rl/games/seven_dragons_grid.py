"""The leaves of Seven Dragons' grid, kept from one layout to the next.

The observed grid lists the layout's cards in row-major order, each at its cell
(``rl.games.seven_dragons``). Most moves place one card: the next layout is the last one
and that card (``(*layout, placed)``, as ``evolve`` builds it). Its leaves are then the
last layout's with the new card's spliced in at its place in the order: two array slices
and a concatenation, not a pass over every card. Other changes (a card moved or zapped,
the Silver Dragon's colour changed) rebuild the grid card by card, each card's leaves
kept by its identity.
"""

from __future__ import annotations

from array import array
from bisect import bisect
from collections.abc import Callable

from domain.seven_dragons.cards import SILVER
from domain.seven_dragons.state import Placed
from rl.features import Leaves

Chunk = tuple["array[int]", "array[float]"]
AddCard = Callable[[Placed, "str | None", Leaves], None]
"""``(card, Silver Dragon's colour or None, leaves)``: adds one placed card's leaves at its cell."""

KEPT = 16
"""Grids kept (by layout): the environments step one game on; a search that explores a few
children of one position still finds their parent."""


class Grid:
    """One layout's grid: its cards' places in the order, each card's leaf count, the leaves."""

    __slots__ = ("buckets", "layout", "order", "silver", "sizes", "weights")

    def __init__(self, layout: tuple[Placed, ...], silver: str | None) -> None:
        self.layout, self.silver = layout, silver
        self.order: list[tuple[int, int]] = []
        self.sizes: list[int] = []
        self.buckets: array[int] = array("I")
        self.weights: array[float] = array("d")


class Grids:
    """The grids of recent layouts, found by the layout's identity or built from their parent's."""

    def __init__(self, add_card: AddCard) -> None:
        self._add_card = add_card
        self._grids: dict[int, Grid] = {}
        self._cards: dict[tuple[int, str | None], tuple[Placed, Chunk]] = {}

    def leaves(self, layout: tuple[Placed, ...], silver: str | None) -> Grid:
        grid = self._grids.get(id(layout))
        if grid is None or grid.layout is not layout or grid.silver != silver:
            parent = self._parent(layout, silver)
            grid = self._grown(parent, layout) if parent is not None else self._built(layout, silver)
            if len(self._grids) >= KEPT:
                del self._grids[next(iter(self._grids))]
            self._grids[id(layout)] = grid
        return grid

    def _parent(self, layout: tuple[Placed, ...], silver: str | None) -> Grid | None:
        """A kept grid of ``layout`` less its last card, with the same Silver Dragon colour."""
        if len(layout) < 2:
            return None
        before = layout[:-1]
        for grid in reversed(self._grids.values()):
            if grid.silver == silver and len(grid.layout) == len(before) and grid.layout == before:
                return grid
        return None

    def _grown(self, parent: Grid, layout: tuple[Placed, ...]) -> Grid:
        """``parent`` with ``layout``'s last card spliced in at its place in the row-major order."""
        card = layout[-1]
        key = (card.y, card.x)
        i = bisect(parent.order, key)
        at = sum(parent.sizes[:i])
        buckets, weights = self._card(card, parent.silver)
        grid = Grid(layout, parent.silver)
        grid.order = [*parent.order[:i], key, *parent.order[i:]]
        grid.sizes = [*parent.sizes[:i], len(buckets), *parent.sizes[i:]]
        grid.buckets = parent.buckets[:at] + buckets + parent.buckets[at:]
        grid.weights = parent.weights[:at] + weights + parent.weights[at:]
        return grid

    def _built(self, layout: tuple[Placed, ...], silver: str | None) -> Grid:
        grid = Grid(layout, silver)
        for card in sorted(layout, key=_row_major):
            buckets, weights = self._card(card, silver)
            grid.order.append((card.y, card.x))
            grid.sizes.append(len(buckets))
            grid.buckets.extend(buckets)
            grid.weights.extend(weights)
        return grid

    def _card(self, card: Placed, silver: str | None) -> Chunk:
        """One placed card's leaves, kept by its identity (the Silver Dragon's also by its colour)."""
        colour = silver if card.card == SILVER else None
        found = self._cards.get((id(card), colour))
        if found is None or found[0] is not card:
            part = Leaves.empty()
            self._add_card(card, colour, part)
            if len(self._cards) >= 4096:
                self._cards.clear()
            found = self._cards[(id(card), colour)] = (card, (part.buckets, part.weights))
        return found[1]


def _row_major(p: Placed) -> tuple[int, int]:
    return (p.y, p.x)
