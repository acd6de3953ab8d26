"""Random self-play speed of the Tarasque engine: games/s and decisions/s.

A decision is what the platform does per move: list the legal moves, ``decide``
the chosen one, and ``evolve`` the state by its events. Games use fixed seeds,
every seat count from 2 to 6 and both variants.

Usage: ``.venv/bin/python bench/tarasque_selfplay.py [games]``
"""

from __future__ import annotations

import random
import sys
import time

from domain.kernel import Rng
from domain.tarasque import RULESET


def play(variant: str, seats: int, seed: int) -> int:
    """One random game; returns its number of decisions."""
    rules = RULESET
    chooser = random.Random(seed)
    state, _ = rules.new_game(rules.configure(variant, None, seats), Rng(seed.to_bytes(8, "big"), "setup"))
    decisions = 0
    while True:
        awaited = rules.awaiting(state)
        if not awaited:
            return decisions
        seat = awaited[0]
        moves = rules.legal_moves(state, seat)
        events = rules.decide(state, seat, moves[chooser.randrange(len(moves))], Rng(b"bench", f"v{decisions}"))
        for event in events:
            state = rules.evolve(state, event)
        decisions += 1


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    configs = [(v.name, n) for v in RULESET.variants for n in range(v.min_seats, v.max_seats + 1)]
    decisions = 0
    longest = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for g in range(games):
        variant, seats = configs[g % len(configs)]
        n = play(variant, seats, g)
        decisions += n
        longest = max(longest, n)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(f"tarasque random self-play: {games} games, {decisions} decisions in {elapsed:.2f} s ({cpu:.2f} s of CPU)")
    print(
        f"  {games / elapsed:,.1f} games/s, {decisions / elapsed:,.0f} decisions/s "
        f"(per CPU second: {decisions / cpu:,.0f}; a busy machine lowers the wall-clock figure)"
    )
    print(f"  mean {decisions / games:.0f} decisions per game, longest {longest}")


if __name__ == "__main__":
    main()
