"""Chevaliers des dragons: racer against three random bots, 100 four-player races.

Prints the racer's win rate with its count (target at least 80%), and the mean
and worst time of a racer decision. Seats rotate so the racer starts from every
seat. Run: ``.venv/bin/python bench/drachenreiter_bots.py [races] [track]``.
"""

from __future__ import annotations

import random
import sys
import time

from domain.drachenreiter import RULESET
from domain.kernel import Rng, choose_move

SEATS = 4


def race(seed: int, track: str, times: list[float]) -> tuple[bool, int]:
    """One race with the racer in seat ``seed % 4``; whether it won, and the rounds."""
    racer = seed % SEATS
    bots = [RULESET.bot("racer" if s == racer else "random") for s in range(SEATS)]
    rng = random.Random(seed)
    config = RULESET.configure(None, {"track": track}, SEATS)
    state, _ = RULESET.new_game(config, Rng(f"bots-{seed}".encode(), "setup"))
    decisions = 0
    while not RULESET.is_over(state):
        seat = RULESET.awaiting(state)[0]
        t0 = time.perf_counter()
        move = choose_move(RULESET, bots[seat], state, seat, rng)
        if seat == racer:
            times.append(time.perf_counter() - t0)
        state = RULESET.fold(state, RULESET.decide(state, seat, move, Rng(f"bots-{seed}".encode(), f"v{decisions}")))
        decisions += 1
    outcome = RULESET.outcome(state)
    assert outcome is not None
    return outcome.places[racer] == 1, state.round


def main() -> None:
    races = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    track = sys.argv[2] if len(sys.argv) > 2 else "ring"
    times: list[float] = []
    wins = 0
    rounds = 0
    start = time.perf_counter()
    for seed in range(races):
        won, r = race(seed, track, times)
        wins += won
        rounds += r
    elapsed = time.perf_counter() - start
    print(
        f"racer vs 3 random on {track}: won {wins}/{races} = {100 * wins / races:.0f}% "
        f"(mean {rounds / races:.1f} rounds; racer decision mean {1000 * sum(times) / len(times):.1f} ms, "
        f"worst {1000 * max(times):.1f} ms; {elapsed:.0f} s)"
    )


if __name__ == "__main__":
    main()
