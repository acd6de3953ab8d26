"""Bot plumbing shared by every game: the honest call path and the random bot."""

from __future__ import annotations

import random
from typing import Generic, TypeVar

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
