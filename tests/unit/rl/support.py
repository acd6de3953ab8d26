"""Seeded random positions of every game, for the environments' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from domain.catalog import GAMES
from domain.kernel import Rng, Ruleset
from tests.support.runs import thorough

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


def corpus_sample(paths: list[Path]) -> list[Path]:
    """The records of the regression corpus a test replays: all of them with ``--thorough``; in
    ``make test`` the first record (in sorted order) of each game's variants and seat counts, so that
    every game, variant and seat count of the corpus is replayed (``mekong/classic-2p-1000.json.gz``
    is of ``("mekong", "classic")`` and ``("mekong", "2p")``): the others replay the same code on
    other deals."""
    if thorough():
        return paths
    seen: set[tuple[str, str]] = set()
    kept = []
    for path in paths:
        variant, seats, _ = path.name.rsplit("-", 2)
        kinds = {(path.parent.name, variant), (path.parent.name, seats)}
        if kinds - seen:
            seen |= kinds
            kept.append(path)
    return kept
