"""The layout as lookups: panels per cell, where a card may go, and dragon groups.

A ``Board`` is derived from a state's layout and the Silver Dragon's colour, and
is never stored in the state. Boards are kept in a small module cache keyed by
the identity of the (immutable) layout tuple, holding a reference to it so the
key cannot be reused; a board for a layout one placement away from a cached one
is derived incrementally. Every answer is a function of the layout's contents
only, so results never depend on what happens to be cached.

Geometry (``seven-dragons-deck.md``): a card in cell ``(x, y)`` has panels TL,
TR, BL, BR (indices 0 to 3); ``x`` grows to the right, ``y`` downwards. Across
the right edge its TR touches the neighbour's TL and its BR the neighbour's BL;
across the bottom edge its BL touches the TL below and its BR the TR below.
Corners touch nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.seven_dragons.cards import COLOURS, SILVER, WILD, oriented
from domain.seven_dragons.state import Placed

Cell = tuple[int, int]
Masks = tuple[int, int, int, int]

SIDES: tuple[tuple[int, int, tuple[tuple[int, int], tuple[int, int]]], ...] = (
    (1, 0, ((1, 0), (3, 2))),
    (-1, 0, ((0, 1), (2, 3))),
    (0, 1, ((2, 0), (3, 1))),
    (0, -1, ((0, 2), (1, 3))),
)
"""Per side: the neighbour's offset and the (own panel, neighbour panel) pairs touching across it."""

BITS: tuple[int, ...] = tuple(1 << i for i in range(len(COLOURS)))


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


class Board:
    """Lookups over one layout with the Silver Dragon in one colour."""

    __slots__ = ("_destinations", "_fits", "_frontier", "_sizes", "at", "masks", "reach", "where")

    def __init__(
        self,
        masks: dict[Cell, Masks],
        at: dict[Cell, int],
        where: dict[int, tuple[Cell, int]],
        reach: dict[Cell, Masks],
        sizes: dict[int, int] | None = None,
    ) -> None:
        self.masks = masks
        """The panel masks of the card in each occupied cell."""
        self.at = at
        """The card in each occupied cell."""
        self.where = where
        """Each layout card's cell and orientation."""
        self.reach = reach
        """Each empty cell next to a card: per own panel, the OR of the neighbour panels it would touch."""
        self._sizes: dict[int, int] = sizes or {}
        """The largest group of each colour bit known so far; the others are computed when asked."""
        self._frontier: tuple[Cell, ...] | None = None
        self._fits: dict[tuple[Masks, bool], tuple[Cell, ...]] = {}
        self._destinations: dict[tuple[int, bool], list[tuple[Cell, int]]] = {}

    # ------------------------------------------------------------ derivation

    @classmethod
    def build(cls, layout: Iterable[Placed], silver: int) -> Board:
        masks: dict[Cell, Masks] = {}
        at: dict[Cell, int] = {}
        where: dict[int, tuple[Cell, int]] = {}
        for p in layout:
            cell = (p.x, p.y)
            masks[cell] = (silver,) * 4 if p.card == SILVER else oriented(p.card, p.orientation)  # type: ignore[assignment]
            at[cell] = p.card
            where[p.card] = (cell, p.orientation)
        reach: dict[Cell, Masks] = {}
        for cell in masks:
            for n in neighbours(cell):
                if n not in masks and n not in reach:
                    reach[n] = _reach(masks, n)
        return cls(masks, at, where, reach)

    def placed(self, p: Placed, silver: int) -> Board:
        """The board after ``p`` is added to an empty cell (placement or the end of a move)."""
        cell = (p.x, p.y)
        own = (silver,) * 4 if p.card == SILVER else oriented(p.card, p.orientation)
        masks = {**self.masks, cell: own}
        at = {**self.at, cell: p.card}
        where = {**self.where, p.card: (cell, p.orientation)}
        reach = dict(self.reach)
        reach.pop(cell, None)
        for n in neighbours(cell):
            if n not in masks:
                reach[n] = _reach(masks, n)
        board = Board(masks, at, where, reach)  # type: ignore[arg-type]
        colours = own[0] | own[1] | own[2] | own[3]
        board._sizes = {  # a new card only grows the groups it joins
            bit: max(old, board.component(cell, bit)) if colours & bit else old for bit, old in self._sizes.items()
        }
        return board

    def without(self, card: int) -> Board:
        """The board after ``card`` leaves the layout (zapped, or lifted to be moved)."""
        cell = self.where[card][0]
        masks = dict(self.masks)
        del masks[cell]
        at = dict(self.at)
        del at[cell]
        where = dict(self.where)
        del where[card]
        reach = dict(self.reach)
        for c in (cell, *neighbours(cell)):
            if c in masks:
                continue
            r = _reach(masks, c)
            if r[0] | r[1] | r[2] | r[3]:
                reach[c] = r
            else:
                reach.pop(c, None)
        colours = self.masks[cell]
        gone = colours[0] | colours[1] | colours[2] | colours[3]
        return Board(masks, at, where, reach, {b: n for b, n in self._sizes.items() if not b & gone})

    def resilvered(self, silver: int) -> Board:
        """The same layout with the Silver Dragon in another colour."""
        cell = self.where[SILVER][0]
        changed = self.masks[cell][0] ^ silver
        masks = {**self.masks, cell: (silver,) * 4}
        reach = dict(self.reach)
        for n in neighbours(cell):
            if n not in masks:
                reach[n] = _reach(masks, n)
        kept = {b: n for b, n in self._sizes.items() if not b & changed}  # colours the Silver neither joins nor leaves
        return Board(masks, dict(self.at), dict(self.where), reach, kept)  # type: ignore[arg-type]

    # ------------------------------------------------------------ placing

    def frontier(self) -> tuple[Cell, ...]:
        """The empty cells next to at least one card, sorted."""
        if self._frontier is None:
            self._frontier = tuple(sorted(self.reach))
        return self._frontier

    def contacts(self, cell: Cell, skip: Cell | None = None) -> list[tuple[int, int]]:
        """(own panel, neighbour panel mask) for every panel touching a card across an edge of ``cell``."""
        x, y = cell
        out = []
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
        a, b, c, d = own
        reach = self.reach
        if strict:
            out = tuple(cell for cell in self.frontier() if self.accepts(own, cell, True))
        else:
            out = tuple(
                cell for cell in self.frontier() if (r := reach[cell])[0] & a or r[1] & b or r[2] & c or r[3] & d
            )
        self._fits[key] = out
        return out

    def destinations(self, card: int, strict: bool) -> list[tuple[Cell, int]]:
        """Where Move a Card may put ``card``: (cell, orientation), its own cell turned included.

        The card is lifted first, so it must connect to another card; cells not
        next to it keep their frontier answers, the few next to it are rechecked.
        """
        key = (card, strict)
        hit = self._destinations.get(key)
        if hit is not None:
            return hit
        home, turned = self.where[card]
        near = set(neighbours(home))
        out = []
        for orientation in (0, 180):
            out.extend((c, orientation) for c in self.fits(oriented(card, orientation), strict) if c not in near)
        for c in sorted((home, *near)):
            if c != home and c in self.masks:
                continue
            for orientation in (0, 180):
                if (c != home or orientation != turned) and self.accepts(
                    oriented(card, orientation), c, strict, skip=home
                ):
                    out.append((c, orientation))
        self._destinations[key] = out
        return out

    def bonus(self, own: Masks, cell: Cell) -> int:
        """How many distinct colours a card placed in ``cell`` connects, wild panels not counting."""
        colours = 0
        for i, m in self.contacts(cell):
            if own[i] == m and m != WILD:
                colours |= m
        return colours.bit_count()

    # ------------------------------------------------------------ groups

    def component(self, start: Cell, bit: int) -> int:
        """The number of dragons (cards) in the ``bit``-coloured group through ``start``."""
        masks = self.masks
        seen = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            own = masks[(x, y)]
            for dx, dy, ((a, b), (c, d)) in SIDES:
                n = (x + dx, y + dy)
                if n in seen:
                    continue
                q = masks.get(n)
                if q is not None and (own[a] & q[b] & bit or own[c] & q[d] & bit):
                    seen.add(n)
                    stack.append(n)
        return len(seen)

    def largest(self) -> tuple[int, ...]:
        """The largest group of each colour, in ``COLOURS`` order; a card's region counts once."""
        sizes = self._sizes
        if len(sizes) < len(BITS):
            for bit in BITS:
                if bit not in sizes:
                    sizes[bit] = self._largest_of(bit)
        return tuple(sizes[bit] for bit in BITS)

    def _largest_of(self, bit: int) -> int:
        best = 0
        done: set[Cell] = set()
        for cell, own in self.masks.items():
            if cell in done or not (own[0] | own[1] | own[2] | own[3]) & bit:
                continue
            group = self._group(cell, bit)
            done |= group
            best = max(best, len(group))
        return best

    def _group(self, start: Cell, bit: int) -> set[Cell]:
        masks = self.masks
        seen = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            own = masks[(x, y)]
            for dx, dy, ((a, b), (c, d)) in SIDES:
                n = (x + dx, y + dy)
                if n not in seen and (q := masks.get(n)) is not None and (own[a] & q[b] & bit or own[c] & q[d] & bit):
                    seen.add(n)
                    stack.append(n)
        return seen

    def groups(self, bit: int) -> list[set[Cell]]:
        """Every group of colour ``bit``, largest first (ties by smallest cell)."""
        out: list[set[Cell]] = []
        done: set[Cell] = set()
        for cell in sorted(self.masks):
            own = self.masks[cell]
            if cell not in done and (own[0] | own[1] | own[2] | own[3]) & bit:
                group = self._group(cell, bit)
                done |= group
                out.append(group)
        out.sort(key=lambda g: (-len(g), min(g)))
        return out


def _reach(masks: dict[Cell, Masks], cell: Cell) -> Masks:
    x, y = cell
    r0 = r1 = r2 = r3 = 0
    q = masks.get((x + 1, y))
    if q is not None:
        r1 |= q[0]
        r3 |= q[2]
    q = masks.get((x - 1, y))
    if q is not None:
        r0 |= q[1]
        r2 |= q[3]
    q = masks.get((x, y + 1))
    if q is not None:
        r2 |= q[0]
        r3 |= q[1]
    q = masks.get((x, y - 1))
    if q is not None:
        r0 |= q[2]
        r1 |= q[3]
    return (r0, r1, r2, r3)


# ------------------------------------------------------------------ the cache

_LIMIT = 512
_CACHE: dict[tuple[int, int], tuple[tuple[Placed, ...], Board]] = {}
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
    hit = _CACHE.get((id(before), silver))
    if hit is not None and hit[0] is before:
        board = hit[1] if lifted is None else hit[1].without(lifted)
        board.largest()  # computed once here, then carried from board to board
        _remember(after, silver, board.placed(p, silver))


def note_removed(before: tuple[Placed, ...], after: tuple[Placed, ...], card: int, silver: int) -> None:
    """Derives the board of ``after`` (``before`` without ``card``) if that of ``before`` is cached."""
    hit = _CACHE.get((id(before), silver))
    if hit is not None and hit[0] is before:
        _remember(after, silver, hit[1].without(card))


def _remember(layout: tuple[Placed, ...], silver: int, board: Board) -> None:
    if len(_CACHE) >= _LIMIT:
        for key in list(_CACHE)[: _LIMIT // 4]:
            _CACHE.pop(key, None)
    _CACHE[(id(layout), silver)] = (layout, board)
