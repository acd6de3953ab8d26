"""Bot plumbing shared by every game: the honest call path and the random bot."""

from __future__ import annotations

import random
from typing import Any

from domain.kernel.records import Command


def choose_move(
    ruleset: Any, bot: Any, state: Any, seat: int, rng: random.Random, budget: float | None = None
) -> Command:
    """The move ``bot`` makes for ``seat``, deciding on what that seat may know.

    The bot sees ``ruleset.observe(state, seat, rng)``, a state in which all
    that is hidden from ``seat`` has been resampled, never the true state.
    """
    observed = ruleset.observe(state, seat, rng)
    return bot.choose(observed, seat, rng, budget)


class RandomBot:
    """Uniform over the listed legal moves."""

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset

    def choose(self, state: Any, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = self.ruleset.legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        return moves[rng.randrange(len(moves))]
