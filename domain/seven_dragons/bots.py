"""The bots: ``random`` (uniform over the legal moves) and ``greedy``.

``greedy`` looks one play ahead. It scores the position after each candidate
move by the expected largest group of its own goal colour, minus the threat of
the groups in the colours it believes the others hold (``beliefs``, inferred
from their plays), plus the value of the cards in its hand and the bonus draws.
A move that wins is taken; one that hands an opponent the win is avoided. It
weighs Trade Goals and Rotate Goals by the beliefs about the goal it would get,
so it swaps itself into the leading colour when that pays.

It only ever receives ``observe(...)``: it reads its own hand and goal, the goals
it has held (their places are public knowledge), and public things.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.kernel import Command
from domain.seven_dragons.beliefs import ring_beliefs
from domain.seven_dragons.board import Board
from domain.seven_dragons.cards import (
    ACTION_COLOUR,
    ACTION_OF,
    ACTION_OF_CARD,
    BIT,
    COLOURS,
    SILVER,
    Action,
    Colour,
    oriented,
)
from domain.seven_dragons.checks import board
from domain.seven_dragons.commands import (
    Direction,
    Discard,
    DiscardAction,
    MoveCard,
    PlaceDragon,
    RotateGoals,
    SetAside,
    TradeGoals,
    TradeHands,
    ZapCard,
)
from domain.seven_dragons.legal import legal_moves
from domain.seven_dragons.state import Placed, SevenDragonsState

State = SevenDragonsState

# Designed weights of the greedy bot's judgement (tuned against the random bot in bench/seven_dragons_bots.py).
WIN = 1_000.0
"""A position where the bot has won."""
LOSS = 600.0
"""A position where an opponent has won, times the chance it holds that colour."""
GROWTH = 1.0
"""Per dragon in the largest group of the bot's goal colour."""
CLOSING = 4.0
"""Extra value of nearing the target: CLOSING * (group / target) ** 2."""
THREAT = 8.0
"""An opponent's group in a colour it may hold: THREAT * (group / target) ** 3, times that chance."""
CARD = 0.35
"""Per card in hand: more cards, more choices."""
KEEP = {
    Action.TRADE_GOALS: 2.0,
    Action.ROTATE_GOALS: 1.5,
    Action.ZAP_A_CARD: 1.0,
    Action.MOVE_A_CARD: 1.0,
    Action.TRADE_HANDS: 0.5,
}
"""What holding each action is worth: spending one must gain more than this."""
MOVE_TARGETS = 8
"""How many layout cards Move a Card considers lifting (those whose removal costs least)."""


_INDEX = {c: i for i, c in enumerate(COLOURS)}
Indexed = tuple[tuple[int, float], ...]
"""One ring place's goal beliefs as (index of the colour in ``COLOURS``, chance) pairs."""


class GreedyBot:
    """One-ply search over the legal moves with a hand-written judgement."""

    def choose(self, state: State, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        if not state.table.goals:  # Dragon connections: where a card goes does not change who places last.
            return moves[rng.randrange(len(moves))]
        judge = Judge(state, seat)
        best: Command | None = None
        best_score = float("-inf")
        for command in judge.candidates(moves):
            score = judge.score(command) + rng.random() * 1e-6
            if score > best_score:
                best, best_score = command, score
        return best if best is not None else moves[0]

    def rank(self, state: State, seat: int, rng: random.Random) -> list[Command]:
        """The moves it considers, from the one it rates best down (the rollout bot's candidates);
        none in Dragon connections, where no move is better than another."""
        if not state.table.goals:
            return []
        moves = legal_moves(state, seat)
        judge = Judge(state, seat)
        return sorted(judge.candidates(moves), key=judge.score, reverse=True)


class Judge:
    """The position of one seat, and what each of its moves would make of it."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.board = board(state)
        self.silver = state.silver_mask()
        self.largest = self.board.largest()
        self.place = state.slot_of(seat)
        self.beliefs = [tuple((_INDEX[c], p) for c, p in b.items()) for b in ring_beliefs(state, seat, self.board)]
        """Per ring place, (colour's index in ``largest``, chance) pairs: ``value`` runs many times a
        decision, and a colour's hash is a Python call."""
        self.target = state.targets[seat]
        self.rivals = tuple(
            (i, state.targets[slot.seat]) for i, slot in enumerate(state.ring) if slot.seat not in (None, seat)
        )
        """(ring place, target) of every other player."""
        self.hand = state.hands[seat]
        self._by_silver: dict[int, tuple[int, ...]] = {self.silver: self.largest}
        self._lifted: dict[int, Board] = {}

    # ------------------------------------------------------------ the judgement

    def value(self, largest: tuple[int, ...], beliefs: Sequence[Indexed], cards: float) -> float:
        """The worth of a position: groups ``largest``, goals ``beliefs`` per ring place, ``cards`` in hand."""
        target = self.target
        mine = beliefs[self.place]
        p_win = sum(p for c, p in mine if largest[c] >= target)
        growth = sum(p * (GROWTH * largest[c] + CLOSING * (largest[c] / target) ** 2) for c, p in mine)
        danger = 0.0
        for i, limit in self.rivals:
            for c, p in beliefs[i]:
                n = largest[c]
                danger += p * (LOSS if n >= limit else THREAT * (n / limit) ** 3)
        return p_win * WIN + (1.0 - p_win) * (growth - danger) + CARD * cards

    def score(self, command: Command) -> float:
        return _SCORERS[type(command)](self, command)

    def candidates(self, moves: Iterable[Command]) -> list[Command]:
        """Every legal move, except that Move a Card lifts only the cheapest few cards."""
        keep = self._move_targets()
        return [m for m in moves if not isinstance(m, MoveCard) or m.target in keep]

    # ------------------------------------------------------------ helpers

    def _silver_takes(self, colour: Colour | None) -> Colour | None:
        """The colour the Silver Dragon takes when an action would give it ``colour``; None: it keeps its own."""
        return colour if self.state.table.silver else None

    def _with_silver(self, b: Board, colour: Colour | None) -> tuple[int, ...]:
        """Largest groups once the Silver Dragon takes ``colour`` (None: it keeps its colour)."""
        taken = self._silver_takes(colour)
        return b.largest() if taken is None else b.resilvered(BIT[taken]).largest()

    def _silver_after(self, card: int, discard: Discard) -> Colour | None:
        return ACTION_COLOUR[ACTION_OF_CARD[card]] if discard is Discard.TOP else None

    def _largest_for_silver(self, colour: Colour | None) -> tuple[int, ...]:
        mask = self.silver if colour is None or not self.state.table.silver else BIT[colour]
        if mask not in self._by_silver:
            self._by_silver[mask] = self.board.resilvered(mask).largest()
        return self._by_silver[mask]

    def _lift(self, card: int) -> Board:
        if card not in self._lifted:
            self._lifted[card] = self.board.without(card)
        return self._lifted[card]

    def _move_targets(self) -> set[int]:
        if not any(ACTION_OF[c] is Action.MOVE_A_CARD for c in self.hand):
            return set()
        costs = []
        for p in self.state.layout:
            if p.card != SILVER:
                costs.append((-self.value(self._lift(p.card).largest(), self.beliefs, 0), p.card))
        return {card for _, card in sorted(costs)[:MOVE_TARGETS]}

    def _cards_after_action(self, card: int) -> float:
        return len(self.hand) - 1 - KEEP[ACTION_OF_CARD[card]]


def _place(j: Judge, m: PlaceDragon) -> float:
    cell = (m.x, m.y)
    own = oriented(m.card, m.orientation)
    draws = min(max(j.board.bonus(own, cell) - 1, 0), len(j.state.deck))
    largest = j.board.largest_if_placed(Placed(m.card, m.x, m.y, m.orientation, j.seat), j.silver)
    return j.value(largest, j.beliefs, len(j.hand) - 1 + draws)


def _discard(j: Judge, m: DiscardAction) -> float:
    colour = ACTION_COLOUR[ACTION_OF_CARD[m.card]]
    return j.value(j._largest_for_silver(colour), j.beliefs, j._cards_after_action(m.card))


def _set_aside(j: Judge, m: SetAside) -> float:
    return j.value(j.largest, j.beliefs, len(j.hand) - 1)


def _trade_hands(j: Judge, m: TradeHands) -> float:
    theirs = len(j.state.hands[m.seat])
    largest = j._largest_for_silver(j._silver_after(m.card, m.discard))
    return j.value(largest, j.beliefs, theirs - KEEP[Action.TRADE_HANDS])


def _trade_goals(j: Judge, m: TradeGoals) -> float:
    state = j.state
    other = state.slot_of(m.seat) if m.seat is not None else state.unused_slots()[m.unused or 0]
    beliefs = list(j.beliefs)
    beliefs[j.place], beliefs[other] = j.beliefs[other], j.beliefs[j.place]
    largest = j._largest_for_silver(j._silver_after(m.card, m.discard))
    return j.value(largest, beliefs, j._cards_after_action(m.card))


def _rotate_goals(j: Judge, m: RotateGoals) -> float:
    b = j.beliefs
    beliefs = b[-1:] + b[:-1] if m.direction is Direction.LEFT else b[1:] + b[:1]
    largest = j._largest_for_silver(j._silver_after(m.card, m.discard))
    return j.value(largest, beliefs, j._cards_after_action(m.card))


def _zap(j: Judge, m: ZapCard) -> float:
    largest = j._with_silver(j._lift(m.target), j._silver_after(m.card, m.discard))
    return j.value(largest, j.beliefs, j._cards_after_action(m.card) + 1)


def _move(j: Judge, m: MoveCard) -> float:
    lifted = j._lift(m.target)
    lifted.largest()
    moved = Placed(m.target, m.x, m.y, m.orientation, j.seat)
    colour = j._silver_after(m.card, m.discard)
    if j._silver_takes(colour) is None:
        largest = lifted.largest_if_placed(moved, j.silver)
    else:
        largest = j._with_silver(lifted.placed(moved, j.silver), colour)
    return j.value(largest, j.beliefs, j._cards_after_action(m.card))


_SCORERS: dict[type, Callable[[Judge, Any], float]] = {
    PlaceDragon: _place,
    DiscardAction: _discard,
    SetAside: _set_aside,
    TradeHands: _trade_hands,
    TradeGoals: _trade_goals,
    RotateGoals: _rotate_goals,
    ZapCard: _zap,
    MoveCard: _move,
}
