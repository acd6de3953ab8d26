"""The layout as lookups: panels per cell, where a card may go, and dragon groups.

A ``Board`` is derived from a state's layout and the Silver Dragon's colour, and
is never stored in the state. Boards are kept in a small module cache keyed by
the identity of the (immutable) layout tuple, holding a reference to it so the
key cannot be reused; a board for a layout one placement away from a cached one
is derived incrementally, and that step is remembered, so that folding the same
events again (``decide`` folds them, then its caller does) reuses the derived
board instead of deriving it twice. Every answer is a function of the layout's
contents only, so results never depend on what happens to be cached, and a
board may serve two equal layouts. Threads may share boards: their lazily
filled lookups only ever receive the one right answer, by atomic ``dict``
stores, and a race costs at most computing it twice.

The empty cells next to the layout keep their *reach* packed in one int, 5 bits
(one per colour) per own panel, TL lowest (``pack``): a card fits there, one
matching panel being enough, when its packed panels ``&`` the reach is not 0.

Geometry (``seven-dragons-deck.md``): a card in cell ``(x, y)`` has panels TL,
TR, BL, BR (indices 0 to 3); ``x`` grows to the right, ``y`` downwards. Across
the right edge its TR touches the neighbour's TL and its BR the neighbour's BL;
across the bottom edge its BL touches the TL below and its BR the TR below.
Corners touch nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from itertools import compress, filterfalse

from domain.seven_dragons import groups as dragon_groups
from domain.seven_dragons.cards import COLOURS, SILVER, WILD, oriented
from domain.seven_dragons.lanes import lanes, matching
from domain.seven_dragons.state import Placed

Cell = tuple[int, int]
Masks = tuple[int, int, int, int]
Destinations = tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[tuple[Cell, int], ...]]
"""Where a card may be moved: cells upright, cells turned, then (cell, orientation) pairs."""

SIDES = dragon_groups.SIDES
"""The four sides a card touches its neighbours across (defined with the groups that cross them)."""

TABLE = 12
"""Designed (``rulebook.TABLE``): cards go within this many cells of the origin (where the Silver
Dragon starts) on both axes; a layout a table could not hold is never offered nor taken."""

BITS: tuple[int, ...] = tuple(1 << i for i in range(len(COLOURS)))
PANEL = len(COLOURS)
"""Bits per panel in a packed reach."""


def pack(own: Masks) -> int:
    """Four panel masks in one int, TL lowest, to be matched against a packed reach with one ``&``."""
    return own[0] | own[1] << PANEL | own[2] << 2 * PANEL | own[3] << 3 * PANEL


def on_table(cell: Cell) -> bool:
    """Whether ``cell`` lies within ``TABLE`` cells of the origin on both axes."""
    return abs(cell[0]) <= TABLE and abs(cell[1]) <= TABLE


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


class Board:
    """Lookups over one layout with the Silver Dragon in one colour."""

    __slots__ = ("_components", "_destinations", "_fits", "_front", "_sizes", "masks", "reach", "where")

    def __init__(
        self,
        masks: dict[Cell, Masks],
        where: dict[int, tuple[Cell, int]],
        reach: dict[Cell, int],
        sizes: dict[int, int] | None = None,
    ) -> None:
        self.masks = masks
        """The panel masks of the card in each occupied cell."""
        self.where = where
        """Each layout card's cell and orientation."""
        self.reach = reach
        """Each empty cell next to a card: per own panel, the OR of the neighbour panels it would touch (packed)."""
        self._sizes: dict[int, int] = sizes or {}
        """The largest group of each colour bit known so far; the others are computed when asked.
        Another thread may be adding to it: derivations read a copy (``dict.copy`` is atomic)."""
        self._front: tuple[tuple[Cell, ...], int] | None = None
        """The frontier cells, sorted, and their reaches side by side (``lanes``)."""
        self._fits: dict[tuple[Masks, bool], tuple[Cell, ...]] = {}
        self._destinations: dict[tuple[int, bool], Destinations] = {}
        self._components: dict[int, dragon_groups.Numbering] = {}
        """Per colour bit, its groups numbered (``groups.numbered``), found when first asked."""

    @property
    def at(self) -> dict[Cell, int]:
        """The card in each occupied cell."""
        return {cell: card for card, (cell, _) in self.where.items()}

    # ------------------------------------------------------------ derivation

    @classmethod
    def build(cls, layout: Iterable[Placed], silver: int) -> Board:
        masks: dict[Cell, Masks] = {}
        where: dict[int, tuple[Cell, int]] = {}
        for p in layout:
            cell = (p.x, p.y)
            masks[cell] = (silver,) * 4 if p.card == SILVER else oriented(p.card, p.orientation)
            where[p.card] = (cell, p.orientation)
        reach: dict[Cell, int] = {}
        for cell in masks:
            for n in neighbours(cell):
                if n not in masks and n not in reach:
                    reach[n] = _reach(masks, n)
        return cls(masks, where, reach)

    def placed(self, p: Placed, silver: int) -> Board:
        """The board after ``p`` is added to an empty cell (placement or the end of a move)."""
        cell = (p.x, p.y)
        own = (silver,) * 4 if p.card == SILVER else oriented(p.card, p.orientation)
        masks = {**self.masks, cell: own}
        where = {**self.where, p.card: (cell, p.orientation)}
        reach = dict(self.reach)
        reach.pop(cell, None)
        for n in neighbours(cell):
            if n not in masks:
                reach[n] = _reach(masks, n)
        board = Board(masks, where, reach)
        colours = own[0] | own[1] | own[2] | own[3]
        board._sizes = {  # a new card only grows the groups it joins
            bit: max(old, board.component(cell, bit)) if colours & bit else old
            for bit, old in self._sizes.copy().items()
        }
        return board

    def largest_if_placed(self, p: Placed, silver: int) -> tuple[int, ...]:
        """``placed(p, silver).largest()`` without deriving that board (which copies the layout's
        lookups): a bot asks it of every placement it weighs."""
        cell = (p.x, p.y)
        own = (silver,) * 4 if p.card == SILVER else oriented(p.card, p.orientation)
        colours = own[0] | own[1] | own[2] | own[3]
        return tuple(
            max(old, dragon_groups.joined(self.masks, self._numbered(bit), cell, own, bit)) if colours & bit else old
            for bit, old in zip(BITS, self.largest(), strict=True)
        )

    def _numbered(self, bit: int) -> dragon_groups.Numbering:
        if (found := self._components.get(bit)) is None:
            found = self._components[bit] = dragon_groups.numbered(self.masks, bit)
        return found

    def without(self, card: int) -> Board:
        """The board after ``card`` leaves the layout (zapped, or lifted to be moved)."""
        cell = self.where[card][0]
        masks = dict(self.masks)
        del masks[cell]
        where = dict(self.where)
        del where[card]
        reach = dict(self.reach)
        for c in (cell, *neighbours(cell)):
            if c in masks:
                continue
            r = _reach(masks, c)
            if r:
                reach[c] = r
            else:
                reach.pop(c, None)
        colours = self.masks[cell]
        gone = colours[0] | colours[1] | colours[2] | colours[3]
        return Board(masks, where, reach, {b: n for b, n in self._sizes.copy().items() if not b & gone})

    def resilvered(self, silver: int) -> Board:
        """The same layout with the Silver Dragon in another colour."""
        cell = self.where[SILVER][0]
        changed = self.masks[cell][0] ^ silver
        masks = {**self.masks, cell: (silver,) * 4}
        reach = dict(self.reach)
        for n in neighbours(cell):
            if n not in masks:
                reach[n] = _reach(masks, n)
        sizes = self._sizes.copy()
        kept = {b: n for b, n in sizes.items() if not b & changed}  # colours the Silver neither joins nor leaves
        board = Board(masks, self.where, reach, kept)
        for b, size in sizes.items():  # a colour it joins only merges the groups through it; one it leaves may split
            if b & changed & silver:
                board._sizes[b] = max(size, board.component(cell, b))
        return board

    # ------------------------------------------------------------ placing

    def frontier(self) -> tuple[Cell, ...]:
        """The empty cells on the table next to at least one card, sorted."""
        return self._frontier()[0]

    def _frontier(self) -> tuple[tuple[Cell, ...], int]:
        front = self._front
        if front is None:
            cells = tuple(sorted(filter(on_table, self.reach)))
            front = self._front = (cells, lanes(list(map(self.reach.__getitem__, cells))))
        return front

    def contacts(self, cell: Cell, skip: Cell | None = None) -> list[tuple[int, int]]:
        """(own panel, neighbour panel mask) for every panel touching a card across an edge of ``cell``."""
        x, y = cell
        out: list[tuple[int, int]] = []
        for dx, dy, pairs in SIDES:
            n = (x + dx, y + dy)
            if n == skip:
                continue
            q = self.masks.get(n)
            if q is not None:
                out.extend((own, q[theirs]) for own, theirs in pairs)
        return out

    def accepts(self, own: Masks, cell: Cell, strict: bool, skip: Cell | None = None) -> bool:
        """Whether a card with panels ``own`` may go into the empty ``cell`` (ignoring the card in ``skip``).

        At least one panel must touch a same-coloured panel across an edge;
        with ``strict``, every touching panel must match.
        """
        contacts = self.contacts(cell, skip)
        if not contacts:
            return False
        if strict:
            return all(own[i] & m for i, m in contacts)
        return any(own[i] & m for i, m in contacts)

    def fits(self, own: Masks, strict: bool) -> tuple[Cell, ...]:
        """The frontier cells where a card with panels ``own`` may be placed, in frontier order."""
        key = (own, strict)
        hit = self._fits.get(key)
        if hit is not None:
            return hit
        cells, packed = self._frontier()
        if strict:
            out = tuple(cell for cell in cells if self.accepts(own, cell, True))
        else:  # the cells whose reach shares a bit with the packed panels
            out = tuple(compress(cells, matching(packed, len(cells), pack(own))))
        self._fits[key] = out
        return out

    def destinations(self, card: int, strict: bool) -> Destinations:
        """Where Move a Card may put ``card``, in this order: the cells away from it where it fits
        upright, the same turned, then (cell, orientation) next to it or in its own cell, turned.

        The card is lifted first, so it must connect to another card; cells not
        next to it keep their frontier answers, the few next to it are rechecked.
        """
        key = (card, strict)
        hit = self._destinations.get(key)
        if hit is not None:
            return hit
        home, turned = self.where[card]
        near = set(neighbours(home))
        upright, flipped = (
            tuple(filterfalse(near.__contains__, self.fits(oriented(card, orientation), strict)))
            for orientation in (0, 180)
        )
        out: list[tuple[Cell, int]] = []
        for c in sorted((home, *near)):
            if (c != home and c in self.masks) or not on_table(c):
                continue
            reach = 0 if strict else _reach(self.masks, c, skip=home)
            for orientation in (0, 180):
                if c == home and orientation == turned:
                    continue
                own = oriented(card, orientation)
                if self.accepts(own, c, True, skip=home) if strict else reach & pack(own):
                    out.append((c, orientation))
        answer = self._destinations[key] = (upright, flipped, tuple(out))
        return answer

    def bonus(self, own: Masks, cell: Cell) -> int:
        """How many distinct colours a card placed in ``cell`` connects, wild panels not counting."""
        colours = 0
        x, y = cell
        for dx, dy, pairs in SIDES:  # ``contacts`` without its list: bots ask this of every placement
            if (q := self.masks.get((x + dx, y + dy))) is not None:
                for i, theirs in pairs:
                    if own[i] == q[theirs] != WILD:
                        colours |= q[theirs]
        return colours.bit_count()

    # ------------------------------------------------------------ groups

    def component(self, start: Cell, bit: int) -> int:
        """The number of dragons (cards) in the ``bit``-coloured group through ``start``."""
        return len(dragon_groups.group(self.masks, start, bit))

    def largest(self) -> tuple[int, ...]:
        """The largest group of each colour, in ``COLOURS`` order; a card's region counts once."""
        sizes = self._sizes
        if len(sizes) < len(BITS):
            for bit in BITS:
                if bit not in sizes:
                    sizes[bit] = dragon_groups.largest(self.masks, bit)
        return tuple(sizes[bit] for bit in BITS)

    def groups(self, bit: int) -> list[set[Cell]]:
        """Every group of colour ``bit``, largest first (ties by smallest cell)."""
        return dragon_groups.groups(self.masks, bit)


def _reach(masks: dict[Cell, Masks], cell: Cell, skip: Cell | None = None) -> int:
    """The packed reach of ``cell``, ignoring the card in ``skip``: 0 when no card is next to it."""
    x, y = cell
    r0 = r1 = r2 = r3 = 0
    n = (x + 1, y)
    if (q := masks.get(n)) is not None and n != skip:
        r1 |= q[0]
        r3 |= q[2]
    n = (x - 1, y)
    if (q := masks.get(n)) is not None and n != skip:
        r0 |= q[1]
        r2 |= q[3]
    n = (x, y + 1)
    if (q := masks.get(n)) is not None and n != skip:
        r2 |= q[0]
        r3 |= q[1]
    n = (x, y - 1)
    if (q := masks.get(n)) is not None and n != skip:
        r0 |= q[2]
        r1 |= q[3]
    return r0 | r1 << PANEL | r2 << 2 * PANEL | r3 << 3 * PANEL


# ------------------------------------------------------------------ the cache

_LIMIT = 512
Step = tuple[Hashable, Board]
"""A change made to a cached board, and the board it gave."""
_CACHE: dict[tuple[int, int], tuple[tuple[Placed, ...], Board, Step | None]] = {}
_SILVERS = (WILD, *BITS, 0)


def board_of(layout: tuple[Placed, ...], silver: int) -> Board:
    """The board of ``layout`` with the Silver Dragon's mask ``silver`` (0 without a Silver Dragon)."""
    hit = _CACHE.get((id(layout), silver))
    if hit is not None and hit[0] is layout:
        return hit[1]
    for other in _SILVERS:
        hit = _CACHE.get((id(layout), other))
        if hit is not None and hit[0] is layout and other != silver and SILVER in hit[1].where:
            board = hit[1].resilvered(silver)
            break
    else:
        board = Board.build(layout, silver)
    _remember(layout, silver, board)
    return board


def note_placed(
    before: tuple[Placed, ...], after: tuple[Placed, ...], p: Placed, silver: int, lifted: int | None = None
) -> None:
    """Derives the board of ``after`` from that of ``before`` if it is cached: ``p`` was
    added (after ``lifted`` was taken away, for a move)."""

    def derive(board: Board) -> Board:
        board = board if lifted is None else board.without(lifted)
        board.largest()  # computed once here, then carried from board to board
        return board.placed(p, silver)

    _derive(before, after, silver, (p.card, p.x, p.y, p.orientation, lifted), derive)


def note_removed(before: tuple[Placed, ...], after: tuple[Placed, ...], card: int, silver: int) -> None:
    """Derives the board of ``after`` (``before`` without ``card``) if that of ``before`` is cached."""
    _derive(before, after, silver, card, lambda board: board.without(card))


def _derive(
    before: tuple[Placed, ...], after: tuple[Placed, ...], silver: int, step: Hashable, make: Callable[[Board], Board]
) -> None:
    """Caches the board of ``after``, made from that of ``before`` by ``make`` (``step`` names the change),
    or taken from the last step from ``before`` if it was the same change."""
    key = (id(before), silver)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not before:
        return
    _, parent, last = hit
    if last is not None and last[0] == step:
        board = last[1]
    else:
        board = make(parent)
        _CACHE[key] = (before, parent, (step, board))
    _remember(after, silver, board)


def _remember(layout: tuple[Placed, ...], silver: int, board: Board) -> None:
    if len(_CACHE) >= _LIMIT:
        for key in list(_CACHE)[: _LIMIT // 4]:
            _CACHE.pop(key, None)
    _CACHE[(id(layout), silver)] = (layout, board, None)
