"""The action cards, a seat's hand, and the programmes it may place.

Each colour's set holds 13 cards: the 8 actions and the dragons of the 5 other
colours. A hand keeps the 8 actions and the dragons of the other colours in
play (9 to 13 cards). A programme is 5 cards of the hand in order, at most one
of them a dragon.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from enum import Enum
from functools import lru_cache
from typing import overload

from domain.kernel import RuleRef
from domain.mekong import rulebook as rb


class Card(Enum):
    """An action card. Dragon cards carry the colour of the seat they cancel."""

    PLACE_STONE = "place-stone"
    PLACE_2_STONES = "place-2-stones"
    PLACE_PLANK = "place-plank"
    PLACE_2_PLANKS = "place-2-planks"
    REMOVE = "remove-plank-or-stone"
    MOVE_1 = "move-1"
    MOVE_2 = "move-2"
    JUMP = "jump"
    YELLOW_DRAGON = "yellow-dragon"
    RED_DRAGON = "red-dragon"
    GREEN_DRAGON = "green-dragon"
    BLUE_DRAGON = "blue-dragon"
    BLACK_DRAGON = "black-dragon"
    WHITE_DRAGON = "white-dragon"
    PINK_DRAGON = "pink-dragon"

    @property
    def dragon(self) -> str | None:
        """The colour this dragon cancels, or None for an action card."""
        return self.value.removesuffix("-dragon") if self.value.endswith("-dragon") else None

    @property
    def count(self) -> int:
        """How many stones or planks the card places (2 for the double cards, else 1)."""
        return 2 if self in (Card.PLACE_2_STONES, Card.PLACE_2_PLANKS) else 1


ACTIONS = tuple(c for c in Card if c.dragon is None)
"""The 8 action cards every hand holds."""
STONE_CARDS = (Card.PLACE_STONE, Card.PLACE_2_STONES)
PLANK_CARDS = (Card.PLACE_PLANK, Card.PLACE_2_PLANKS)
MOVE_CARDS = (Card.MOVE_1, Card.MOVE_2, Card.JUMP)
PROGRAMME_LENGTH = 5


def dragon_of(colour: str) -> Card:
    return Card(f"{colour}-dragon")


@lru_cache(maxsize=64)
def hand(colour: str, colours: tuple[str, ...]) -> tuple[Card, ...]:
    """The hand of ``colour``: the 8 actions and the dragons of the other colours in play."""
    dragons = tuple(dragon_of(c) for c in colours if c != colour)
    return ACTIONS + tuple(sorted(dragons, key=lambda d: list(Card).index(d)))


def programme_fault(cards: Sequence[Card], held: Sequence[Card]) -> tuple[str, RuleRef] | None:
    """Why ``cards`` is not a programme of the hand ``held`` (and the rule), or None if it is one."""
    if len(cards) != PROGRAMME_LENGTH:
        return f"a programme is {PROGRAMME_LENGTH} cards, not {len(cards)}", rb.PROGRAMMING
    if len(set(cards)) != len(cards):
        return "a card can be placed only once", rb.PROGRAMMING
    missing = [c.value for c in cards if c not in held]
    if missing:
        return f"not in the hand: {', '.join(missing)}", rb.HAND
    if sum(1 for c in cards if c.dragon is not None) > 1:
        return "at most one dragon card per round", rb.ONE_DRAGON
    return None


def _arrangements(n: int, k: int) -> int:
    return math.perm(n, k)


def _unrank(items: Sequence[Card], k: int, rank: int) -> list[Card]:
    """The ``rank``-th ordered choice of ``k`` of ``items`` (lexicographic by index)."""
    pool = list(items)
    out = []
    for i in range(k):
        block = _arrangements(len(pool) - 1, k - i - 1)
        j, rank = divmod(rank, block)
        out.append(pool.pop(j))
    return out


class Programmes(Sequence[tuple[Card, ...]]):
    """Every programme of a hand, in a fixed order, computed on demand; with ``start``, only
    those that begin with these cards (a programme chosen card by card).

    First the programmes without a dragon (ordered choices of the actions), then, dragon by
    dragon and position by position, those with one. ``len`` and indexing cost nothing; ``in``
    checks the rules directly.
    """

    __slots__ = ("actions", "dragons", "held", "start")

    def __init__(self, held: tuple[Card, ...], start: tuple[Card, ...] = ()) -> None:
        self.held = held
        self.start = start
        self.actions = tuple(c for c in held if c.dragon is None and c not in start)
        has_dragon = any(c.dragon is not None for c in start)
        self.dragons = () if has_dragon else tuple(c for c in held if c.dragon is not None and c not in start)

    @property
    def _left(self) -> int:
        """How many cards are still to be placed after ``start``."""
        return PROGRAMME_LENGTH - len(self.start)

    @property
    def _plain(self) -> int:
        return _arrangements(len(self.actions), self._left)

    @property
    def _per_dragon_slot(self) -> int:
        return _arrangements(len(self.actions), self._left - 1) if self._left else 0

    def __len__(self) -> int:
        return self._plain + len(self.dragons) * self._left * self._per_dragon_slot

    @overload
    def __getitem__(self, i: int) -> tuple[Card, ...]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[Card, ...]]: ...
    def __getitem__(self, i: int | slice) -> tuple[Card, ...] | Sequence[tuple[Card, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i < self._plain:
            return self.start + tuple(_unrank(self.actions, self._left, i))
        i -= self._plain
        d, rest = divmod(i, self._left * self._per_dragon_slot)
        slot, rank = divmod(rest, self._per_dragon_slot)
        cards = _unrank(self.actions, self._left - 1, rank)
        cards.insert(slot, self.dragons[d])
        return self.start + tuple(cards)

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        return (self[i] for i in range(len(self)))

    def __contains__(self, cards: object) -> bool:
        return (
            isinstance(cards, tuple)
            and cards[: len(self.start)] == self.start
            and programme_fault(cards, self.held) is None
        )
