"""The greedy bot's judgement: what a tile is worth to a seat, and what dice are worth.

Values are in points. A tile is worth what it adds to a lair (its row's length
squared grows, and an open row may still grow), discounted by the risk of
losing it from the base before it is stored; a theft also denies the victim.
Dice are worth the best tiles they can take (a small knapsack per symbol),
and dice still in hand are valued by expectation, as if the player kept
rolling for one symbol (``commit_distribution``).

Every weight below is designed, none comes from the rulebook. Each was checked
in greedy-against-greedy matches (300 to 400 two-player games per change):
halving or doubling any of them did no better beyond noise, and a much larger
``POTENTIAL`` (0.7) lost clearly.
"""

from __future__ import annotations

from functools import cache
from math import comb

from domain.tarasque import lair
from domain.tarasque.queries import MIDDLE_NEED, pool, staying, targets
from domain.tarasque.state import Lair, TarasqueState
from domain.tarasque.tiles import DICE, LAIR_DICE, SIDES

EGG_VALUE = 1.5
"""Designed: an egg scores 1 at the end and can double a die or buy a lair move later."""
EXTRA_TURN_VALUE = 5.0
"""Designed: what a whole extra turn is worth (about one turn's harvest)."""
POTENTIAL = 0.35
"""Designed: worth of each tile still in play that could extend a row later."""
THEFT_ATTENTION = 0.4
"""Designed: how likely an opponent who could steal a tile goes for it."""
TYPICAL_VALID = 4
"""Designed: symbols usually valid when an opponent rolls, for the theft odds."""


@cache
def commit_distribution(dice: int, valid: int) -> tuple[float, ...]:
    """P(g more dice of one symbol X), g = 0..dice, when rolling ``dice`` dice for X.

    Each roll sets aside every X; without an X, one other valid die must be set
    aside (``valid`` symbols are valid, X among them); without any valid die,
    rolling ends.
    """
    out = [0.0] * (dice + 1)
    if dice == 0:
        out[0] = 1.0
        return tuple(out)
    p, q, r = 1 / 6, (valid - 1) / 6, (6 - valid) / 6
    for a in range(dice + 1):
        for b in range(dice - a + 1):
            chance = comb(dice, a) * comb(dice - a, b) * p**a * q**b * r ** (dice - a - b)
            if a:
                for g, x in enumerate(commit_distribution(dice - a, valid)):
                    out[g + a] += chance * x
            elif b:
                for g, x in enumerate(commit_distribution(dice - 1, valid)):
                    out[g] += chance * x
            else:
                out[0] += chance
    return tuple(out)


@cache
def theft_odds(dice_needed: int) -> float:
    """The chance one opponent's turn gathers ``dice_needed`` dice of one symbol.

    Designed: the opponent is assumed to hold an egg (worth one die) half of the time.
    """
    dist = commit_distribution(DICE, TYPICAL_VALID)
    return sum(dist[max(0, dice_needed - 1) :]) * 0.5 + sum(dist[dice_needed:]) * 0.5


class Valuation:
    """What tiles and dice are worth to ``seat`` in ``state`` (built once per decision)."""

    def __init__(self, state: TarasqueState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.deck = state.deck
        board = state.board
        live = [*board.pile, *board.middle, *(t for base in board.bases for side in base for t in side)]
        self.by_colour: dict[str, int] = {}
        self.by_mark: dict[str, int] = {}
        for t in live:
            c, m = self.deck.colour[t], self.deck.mark[t]
            self.by_colour[c] = self.by_colour.get(c, 0) + 1
            self.by_mark[m] = self.by_mark.get(m, 0) + 1
        self.opponents = [s for s in staying(state) if s != seat]
        self.valid = sorted(targets(state))
        self.lairs = [self._with_base(s) for s in range(state.seats)]
        self._candidates: dict[str, tuple[tuple[str, int, int | None], ...]] | None = None
        self._plans: dict[tuple[tuple[tuple[str, int, int | None], ...], int], float] = {}

    # ------------------------------------------------------------ lair rows

    def growth(self, row: tuple[str, ...], extra: str | None = None) -> int:
        """Tiles still in play that could extend ``row`` (not counting ``extra``)."""
        colour, mark = self.deck.colour, self.deck.mark
        head = row[0]
        by_colour = self.by_colour.get(colour[head], 0) - (extra is not None and colour[extra] == colour[head])
        by_mark = self.by_mark.get(mark[head], 0) - (extra is not None and mark[extra] == mark[head])
        if len(row) == 1:
            return max(by_colour, by_mark)
        return by_colour if colour[row[1]] == colour[head] else by_mark

    def row_value(self, row: tuple[str, ...], extra: str | None = None) -> float:
        return lair.ROW_POINTS[len(row)] + POTENTIAL * self.growth(row, extra)

    def placements(self, rows: Lair, tile: str) -> list[tuple[int | None, float]]:
        """Each row ``tile`` may join (None: a new row) with what it adds to the lair."""
        out: list[tuple[int | None, float]] = [(None, self.row_value((tile,), tile))]
        for i in lair.compatible_rows(rows, tile, self.deck):
            row = rows[i]
            out.append((i, self.row_value((*row, tile), tile) - self.row_value(row, tile)))
        return out

    def gain(self, seat: int, tile: str) -> float:
        """What ``tile`` adds to ``seat``'s lair, its (other) base tiles counted as stored."""
        rows = self.lairs[seat]
        if any(tile in side for side in self.state.board.bases[seat]):
            rows = self._with_base(seat, without=tile)
        return max(v for _, v in self.placements(rows, tile))

    def _with_base(self, seat: int, without: str | None = None) -> Lair:
        """``seat``'s lair once its base tiles are stored, each where it adds most."""
        rows = self.state.board.lairs[seat]
        for side in self.state.board.bases[seat]:
            for tile in side:
                if tile != without:
                    row, _ = max(self.placements(rows, tile), key=lambda p: p[1])
                    rows = lair.add(rows, tile, len(rows) if row is None else row)
        return rows

    # ------------------------------------------------------------ tiles taken

    def safety(self, side: int) -> float:
        """The chance a tile at our base side ``side`` survives the opponents' turns."""
        return (1 - THEFT_ATTENTION * theft_odds(side + 1)) ** len(self.opponents)

    def take_value(self, tile: str, dice: int, victim: int | None) -> float:
        """What taking ``tile`` with ``dice`` dice is worth to us."""
        worth = self.gain(self.seat, tile)
        if dice >= LAIR_DICE:
            value = worth + EXTRA_TURN_VALUE
        else:
            kept = self.safety(dice)
            value = kept * worth + (1 - kept) * 1.0
        if victim is not None:
            value += (self.gain(victim, tile) - 1.0) / max(1, len(self.opponents))
        return value

    def candidates(self, symbol: str) -> tuple[tuple[str, int, int | None], ...]:
        """Tiles of ``symbol`` we could take: (tile, dice needed, victim)."""
        if self._candidates is None:
            self._candidates = self._all_candidates()
        return self._candidates.get(symbol, ())

    def _all_candidates(self) -> dict[str, tuple[tuple[str, int, int | None], ...]]:
        sym = self.deck.symbol
        found: list[tuple[str, int, int | None]] = [(t, MIDDLE_NEED, None) for t in self.state.board.middle]
        for s, base in enumerate(self.state.board.bases):
            if s != self.seat:
                for side, tiles in zip(SIDES, base, strict=True):
                    found.extend((t, side + 1, s) for t in tiles)
        out: dict[str, tuple[tuple[str, int, int | None], ...]] = {}
        for c in found:
            out[sym[c[0]]] = (*out.get(sym[c[0]], ()), c)
        return out

    def plan(self, symbol: str, dice: int) -> float:
        """The most ``dice`` dice of ``symbol`` can take: the best split among its tiles."""
        return self.best(self.candidates(symbol), dice)

    def best(self, tiles: tuple[tuple[str, int, int | None], ...], dice: int) -> float:
        """The best total value of taking some of ``tiles`` with ``dice`` dice (a small knapsack)."""
        if not tiles or dice < MIDDLE_NEED:
            return 0.0
        key = (tiles, dice)
        found = self._plans.get(key)
        if found is None:
            (tile, needed, victim), rest = tiles[0], tiles[1:]
            found = self.best(rest, dice)
            for d in range(needed, dice + 1):
                found = max(found, self.take_value(tile, d, victim) + self.best(rest, dice - d))
            self._plans[key] = found
        return found

    # ------------------------------------------------------------ dice

    def harvest(self, pools: dict[str, int]) -> float:
        """What set-aside dice ``pools`` (symbol to count) can take in all."""
        return sum(self.plan(s, n) for s, n in pools.items() if n >= MIDDLE_NEED)

    def prospect(self, pools: dict[str, int], in_hand: int, egg: bool) -> float:
        """The expected harvest if we keep rolling ``in_hand`` dice for the best symbol,
        the egg (if ``egg``) going on that symbol when it helps."""
        now = self.harvest(pools)
        valid = self.valid
        if not in_hand or not valid:
            return now
        best = now
        for symbol in valid:
            base = pools.get(symbol, 0)
            other = now - (self.plan(symbol, base) if base >= MIDDLE_NEED else 0.0)
            expected = 0.0
            for g, chance in enumerate(commit_distribution(in_hand, len(valid))):
                value = self.plan(symbol, base + g)
                if egg and g:
                    value = max(value, self.plan(symbol, base + g + 1) - EGG_VALUE)
                expected += chance * value
            best = max(best, other + expected)
        return best

    def pools(self) -> dict[str, int]:
        """Our set-aside dice per symbol, unspent."""
        return {s: pool(self.state, s) for s in self.deck.faces}
