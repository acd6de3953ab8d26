"""Bot strength: ``greedy`` against ``random`` in two-player Tarasque.

Plays ``games`` games (400 by default) with fixed seeds, alternating which bot
starts and the variant, and prints greedy's win rate (a shared first place
counts as half a win) and its mean decision time.

Usage: ``.venv/bin/python bench/tarasque_bots.py [games]``
"""

from __future__ import annotations

import random
import sys
import time

from domain.kernel import Rng, choose_move
from domain.tarasque import RULESET


def play(game: int, timings: list[float]) -> float:
    """One game of greedy against random; returns greedy's share of the win (1, 0.5 or 0)."""
    rules = RULESET
    variant = rules.variants[(game // 2) % len(rules.variants)].name
    greedy_seat = game % 2
    bots = {greedy_seat: rules.bot("greedy"), 1 - greedy_seat: rules.bot("random")}
    rng = random.Random(game)
    state, _ = rules.new_game(rules.configure(variant, None, 2), Rng(b"bots-%d" % game, "setup"))
    version = 0
    while awaited := rules.awaiting(state):
        seat = awaited[0]
        start = time.perf_counter()
        move = choose_move(rules, bots[seat], state, seat, rng)
        if seat == greedy_seat:
            timings.append(time.perf_counter() - start)
        for event in rules.decide(state, seat, move, Rng(b"bots-%d" % game, f"v{version}")):
            state = rules.evolve(state, event)
        version += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    winners = outcome.winners
    return (1.0 / len(winners)) if greedy_seat in winners else 0.0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    timings: list[float] = []
    start = time.perf_counter()
    wins = sum(play(g, timings) for g in range(games))
    elapsed = time.perf_counter() - start
    print(
        f"tarasque greedy vs random, 2 players: greedy won {wins:g} of {games} games "
        f"({100 * wins / games:.1f}%) in {elapsed:.1f} s"
    )
    timings.sort()
    print(
        f"  greedy decision time: mean {1000 * sum(timings) / len(timings):.2f} ms, "
        f"p99 {1000 * timings[int(0.99 * (len(timings) - 1))]:.2f} ms, max {1000 * timings[-1]:.2f} ms "
        f"over {len(timings)} decisions"
    )


if __name__ == "__main__":
    main()
