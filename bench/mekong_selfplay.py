"""Random self-play speed of Les Dragons du Mékong: games/s and decisions/s.

A decision is a legal-move listing, a ``decide`` and the ``evolve`` of its
events, as the platform does them. Target: at least 5,000 decisions/s.

    .venv/bin/python bench/mekong_selfplay.py [games] [variant] [players]
"""

from __future__ import annotations

import random
import sys
import time

from domain.kernel import Rng
from domain.mekong import RULESET


def play(variant: str, players: int, seed: int) -> int:
    """One random game; returns the number of decisions."""
    rng = random.Random(seed)
    config = RULESET.configure(variant, None, players)
    state, _ = RULESET.new_game(config, Rng(f"selfplay-{seed}".encode(), "setup"))
    decisions = 0
    while not RULESET.is_over(state):
        seat = rng.choice(RULESET.awaiting(state))
        moves = RULESET.legal_moves(state, seat)
        move = moves[rng.randrange(len(moves))]
        for event in RULESET.decide(state, seat, move, Rng(b"selfplay", f"v{decisions}")):
            state = RULESET.evolve(state, event)
        decisions += 1
    return decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    variants = [sys.argv[2]] if len(sys.argv) > 2 else [v.name for v in RULESET.variants]
    counts = [int(sys.argv[3])] if len(sys.argv) > 3 else [2, 4, 6]
    for variant in variants:
        for players in counts:
            start = time.perf_counter()
            decisions = sum(play(variant, players, seed) for seed in range(games))
            elapsed = time.perf_counter() - start
            print(
                f"{variant:14} {players}p: {games} games, {decisions} decisions in {elapsed:.2f} s: "
                f"{games / elapsed:.1f} games/s, {decisions / elapsed:,.0f} decisions/s"
            )


if __name__ == "__main__":
    main()
