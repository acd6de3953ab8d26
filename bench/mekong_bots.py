"""Bot strength in Les Dragons du Mékong: ``planner`` against ``random`` in two-player games.

Plays fixed-seed games (the planner alternates seats) and prints the planner's
win rate with its count, the rounds played and the planner's programming time.
Target: the planner wins at least 90% of 200 games.

    .venv/bin/python bench/mekong_bots.py [games] [variant]
"""

from __future__ import annotations

import random
import sys
import time

from domain.kernel import Rng, choose_move
from domain.mekong import RULESET
from domain.mekong.state import Phase


def duel(variant: str, seed: int) -> tuple[bool, int, list[float]]:
    """One game, planner against random; returns whether the planner won alone, the rounds, its programming times."""
    config = RULESET.configure(variant, None, 2)
    state, _ = RULESET.new_game(config, Rng(f"mekong-bots-{seed}".encode(), "setup"))
    planner = seed % 2
    bots = {planner: RULESET.bot("planner"), 1 - planner: RULESET.bot("random")}
    rng = random.Random(seed)
    timings: list[float] = []
    decision = 0
    while not RULESET.is_over(state):
        seat = RULESET.awaiting(state)[0]
        start = time.perf_counter()
        move = choose_move(RULESET, bots[seat], state, seat, rng)
        if seat == planner and state.phase is Phase.PROGRAMMING:
            timings.append(time.perf_counter() - start)
        for event in RULESET.decide(state, seat, move, Rng(b"mekong-bots", f"{seed}:{decision}")):
            state = RULESET.evolve(state, event)
        decision += 1
    outcome = RULESET.outcome(state)
    assert outcome is not None
    won = outcome.places[planner] == 1 and outcome.places[1 - planner] == 2
    return won, state.round, timings


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    variant = sys.argv[2] if len(sys.argv) > 2 else "classic"
    start = time.perf_counter()
    results = [duel(variant, seed) for seed in range(games)]
    elapsed = time.perf_counter() - start
    wins = sum(won for won, _, _ in results)
    rounds = sum(r for _, r, _ in results) / games
    timings = [t for _, _, ts in results for t in ts]
    print(
        f"{variant}: planner beat random in {wins} of {games} two-player games ({wins / games:.1%}); "
        f"{rounds:.1f} rounds a game; planner programming {1000 * sum(timings) / len(timings):.1f} ms "
        f"on average, {1000 * max(timings):.0f} ms at most; {elapsed:.1f} s in all"
    )


if __name__ == "__main__":
    main()
