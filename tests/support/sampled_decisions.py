"""Decisions to put to a bot: taken from a two-seat game of random moves, as its seats see them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from domain.kernel import Rng


def sampled_decisions(
    ruleset: Any, wanted: int, label: bytes, seed: int, every: int, moves: int
) -> Iterator[tuple[Any, int, int]]:
    """Up to ``wanted`` decisions with a choice, one every ``every`` moves of a game of random moves
    at most ``moves`` long: each as its seat's observation, the seat and a seed for the bot's draws."""
    state, _ = ruleset.new_game(ruleset.configure(None, None, 2), Rng(label, "setup"))
    rng, asked = random.Random(seed), 0
    for n in range(moves):
        if ruleset.is_over(state) or asked == wanted:
            return
        seat = ruleset.awaiting(state)[0]
        observed = ruleset.observe(state, seat, rng)
        if n % every == 1 and len(ruleset.legal_moves(observed, seat)) > 1:
            yield observed, seat, rng.getrandbits(32)
            asked += 1
        command = ruleset.bot("random").choose(observed, seat, rng)
        state = ruleset.fold(state, ruleset.decide(state, seat, command, Rng(label, f"v{n}")))
