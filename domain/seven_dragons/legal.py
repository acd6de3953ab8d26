"""``legal_moves``: every complete command of the awaited seat, built on demand.

The list is long (a Move a Card alone can reach thousands of commands), so it
is a lazy ``Sequence``: it knows how many commands each part holds and builds a
command only when indexed or iterated. ``in`` runs the same checks as
``decide`` without listing anything.

Order (canonical, independent of any cache): dragon placements by card number,
orientation and cell; then each action card in hand by number, its effects with
every target and discard choice, and its plain discard; set-aside cards come
last and only when nothing else can be played.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from typing import Any, overload

from domain.kernel import Command, RuleError
from domain.seven_dragons.cards import ACTION_OF_CARD, IS_DRAGON, SILVER, Action, oriented
from domain.seven_dragons.checks import board, check
from domain.seven_dragons.commands import (
    Direction,
    Discard,
    DiscardAction,
    RotateGoals,
    SetAside,
    TradeGoals,
    TradeHands,
)
from domain.seven_dragons.makers import MoverTo, mover, placer, zapper
from domain.seven_dragons.state import Phase, SevenDragonsState

State = SevenDragonsState
Part = tuple[Sequence[Any], Callable[[Any], Command]]
"""Items and how to make a command of one of them (``makers``); a maker with a ``many(items)``
method makes them all at once faster."""


class LegalMoves(Sequence[Command]):
    """The legal commands of one seat in one state, built on demand."""

    __slots__ = ("_ends", "_items", "_makes", "_seat", "_state")

    def __init__(self, state: State, seat: int, parts: list[Part]) -> None:
        self._state = state
        self._seat = seat
        self._items: list[Sequence[Any]] = []
        self._makes: list[Callable[[Any], Command]] = []
        self._ends: list[int] = []
        total = 0
        for items, make in parts:
            if items:
                total += len(items)
                self._items.append(items)
                self._makes.append(make)
                self._ends.append(total)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int) -> Command: ...
    @overload
    def __getitem__(self, index: slice) -> list[Command]: ...

    def __getitem__(self, index: int | slice) -> Command | list[Command]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal move index out of range")
        part = bisect_right(self._ends, index)
        start = self._ends[part - 1] if part else 0
        return self._makes[part](self._items[part][index - start])

    def __iter__(self) -> Iterator[Command]:
        # Each part's commands made by its maker's ``many`` if it has one, else by mapping it over the items.
        return chain.from_iterable(map(_many, self._makes, self._items))

    def __contains__(self, command: object) -> bool:
        if not isinstance(command, Command) or not self._ends:
            return False
        try:
            check(self._state, self._seat, command)
        except RuleError:
            return False
        return True

    def __repr__(self) -> str:
        return f"<{len(self)} legal moves of seat {self._seat}>"


def _many(make: Callable[[Any], Command], items: Sequence[Any]) -> Iterator[Command]:
    many = getattr(make, "many", None)
    return many(items) if many is not None else map(make, items)


def legal_moves(state: State, seat: int) -> LegalMoves:
    """Every command ``seat`` may play now; empty unless it is the active seat."""
    if state.phase is not Phase.PLAY or seat != state.turn:
        return LegalMoves(state, seat, [])
    hand = sorted(set(state.hands[seat]))
    parts: list[Part] = []
    b = board(state)
    strict = state.table.strict_edges
    for card in hand:
        if IS_DRAGON[card]:
            for orientation in (0, 180):
                parts.append((b.fits(oriented(card, orientation), strict), placer(card, orientation)))
    for card in hand:
        if not IS_DRAGON[card]:
            parts.extend(_action(state, seat, card))
    if not any(len(items) for items, _ in parts):
        parts = [(hand, SetAside)]
    return LegalMoves(state, seat, parts)


def _discards(state: State) -> tuple[Discard, ...]:
    return (Discard.TOP, Discard.BOTTOM) if state.table.silver else (Discard.TOP,)


def _action(state: State, seat: int, card: int) -> list[Part]:
    action = ACTION_OF_CARD[card]
    out: list[Part] = []
    for discard in _discards(state):
        out.extend(_EFFECTS[action](state, seat, card, discard))
    out.append(((card,), DiscardAction))
    return out


def _others(state: State, seat: int) -> tuple[int, ...]:
    return tuple(s for s in state.active() if s != seat)


def _trade_hands(state: State, seat: int, card: int, discard: Discard) -> list[Part]:
    return [(_others(state, seat), lambda other: TradeHands(card, other, discard))]


def _trade_goals(state: State, seat: int, card: int, discard: Discard) -> list[Part]:
    return [
        (_others(state, seat), lambda other: TradeGoals(card, seat=other, discard=discard)),
        (range(len(state.unused_slots())), lambda k: TradeGoals(card, unused=k, discard=discard)),
    ]


def _rotate_goals(state: State, seat: int, card: int, discard: Discard) -> list[Part]:
    return [(tuple(Direction), lambda d: RotateGoals(card, d, discard))]


def _targets(state: State) -> list[int]:
    """The layout cards an action may take or move: all but the Silver Dragon."""
    return sorted(p.card for p in state.layout if p.card != SILVER)


def _move_card(state: State, seat: int, card: int, discard: Discard) -> list[Part]:
    b = board(state)
    strict = state.table.strict_edges
    out: list[Part] = []
    for target in _targets(state):
        upright, turned, near = b.destinations(target, strict)
        out.append((upright, MoverTo(card, target, discard, 0)))
        out.append((turned, MoverTo(card, target, discard, 180)))
        out.append((near, mover(card, target, discard)))
    return out


def _zap_card(state: State, seat: int, card: int, discard: Discard) -> list[Part]:
    if len(state.layout) == 1:
        return []
    return [(_targets(state), zapper(card, discard))]


_EFFECTS: dict[Action, Callable[[State, int, int, Discard], list[Part]]] = {
    Action.TRADE_HANDS: _trade_hands,
    Action.TRADE_GOALS: _trade_goals,
    Action.ROTATE_GOALS: _rotate_goals,
    Action.MOVE_A_CARD: _move_card,
    Action.ZAP_A_CARD: _zap_card,
}
