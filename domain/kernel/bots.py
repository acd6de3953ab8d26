"""Bot plumbing shared by every game: the honest call path and the random bot."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from domain.kernel.records import Command
from domain.kernel.ruleset import Bot, Ruleset

S = TypeVar("S")


def choose_move(
    ruleset: Ruleset[S], bot: Bot[S], state: S, seat: int, rng: random.Random, budget: float | None = None
) -> Command:
    """The move ``bot`` makes for ``seat``, deciding on what that seat may know.

    The bot sees ``ruleset.observe(state, seat, rng)``, a state in which all
    that is hidden from ``seat`` has been resampled, never the true state.
    """
    observed = ruleset.observe(state, seat, rng)
    return bot.choose(observed, seat, rng, budget)


class RandomBot(Generic[S]):
    """Uniform over the listed legal moves."""

    def __init__(self, ruleset: Ruleset[S]) -> None:
        self.ruleset = ruleset

    def choose(self, state: S, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = self.ruleset.legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        return moves[rng.randrange(len(moves))]


Habit = Callable[[Any, int, Sequence[Command], random.Random], Command | None]
"""A beginner's habit: ``(state, seat, legal moves, rng)`` to the move the habit plays, or
``None`` where it has no say."""


class BeginnerBot(Generic[S]):
    """A player who knows the rules and the obvious moves but makes a beginner's mistakes.

    It plays as ``good`` does, except that a ``habit`` (the game's typical beginner's mistake,
    such as pushing one's luck) decides where it has a say, and that with probability ``slip``
    it overlooks the position and plays ``weak``'s move (the game's random bot).
    """

    def __init__(
        self, ruleset: Ruleset[S], good: Bot[S], weak: Bot[S], slip: float, habit: Habit | None = None
    ) -> None:
        self.ruleset = ruleset
        self.good = good
        self.weak = weak
        self.slip = slip
        self.habit = habit

    def choose(self, state: S, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        if self.habit is not None:
            moves = self.ruleset.legal_moves(state, seat)
            chosen = self.habit(state, seat, moves, rng)
            if chosen is not None:
                return chosen
        if rng.random() < self.slip:
            return self.weak.choose(state, seat, rng, budget)
        return self.good.choose(state, seat, rng, budget)
