"""Seeded random positions of every game, for the environments' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from domain.catalog import GAMES
from domain.kernel import Rng, Ruleset

CASES = [(g, v.name) for g in GAMES for v in g.variants]
"""Every game and variant."""


def ids(case: tuple[Ruleset[Any], str]) -> str:
    return f"{case[0].slug}-{case[1]}"


def positions(ruleset: Ruleset[Any], variant: str, seats: int, seed: int, count: int) -> Iterator[tuple[Any, int]]:
    """``count`` positions of one seeded random game (or fewer if it ends), each with its awaited seat."""
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.configure(variant, None, seats), Rng(b"rl-%d" % seed, "setup"))
    for n in range(count):
        awaited = ruleset.awaiting(state)
        if not awaited:
            return
        seat = awaited[0]
        yield state, seat
        moves = ruleset.legal_moves(state, seat)
        for e in ruleset.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"rl-%d" % seed, f"v{n}")):
            state = ruleset.evolve(state, e)
