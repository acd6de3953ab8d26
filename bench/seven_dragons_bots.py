"""Seven Dragons bot strength: greedy against two random bots.

400 three-player games of the full game with fixed seeds; the greedy bot's seat
rotates (game ``i``: seat ``i % 3``). Bots decide on ``observe(...)`` through
``choose_move``, as the platform runs them. A shared win counts as a share.

    .venv/bin/python bench/seven_dragons_bots.py [games] [variant]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.kernel import Rng, choose_move
from domain.seven_dragons import RULESET

GAMES = 400
SEATS = 3
TARGET = 0.60


def play(game: int, variant: str = "full", seats: int = SEATS) -> tuple[float, int]:
    """One game, greedy at seat ``game % seats``: its share of the win and the number of decisions."""
    greedy_seat = game % seats
    bots = [RULESET.bot("greedy" if s == greedy_seat else "random") for s in range(seats)]
    config = RULESET.configure(variant, None, seats)
    seed = f"seven-dragons-bots-{game}".encode()
    state, _ = RULESET.new_game(config, Rng(seed, "setup"))
    rng = random.Random(game)
    decisions = 0
    while not RULESET.is_over(state):
        seat = RULESET.awaiting(state)[0]
        command = choose_move(RULESET, bots[seat], state, seat, rng)
        state = RULESET.fold(state, RULESET.decide(state, seat, command, Rng(seed, f"v{decisions}")))
        decisions += 1
    outcome = RULESET.outcome(state)
    assert outcome is not None
    winners = outcome.winners
    return (1.0 / len(winners) if greedy_seat in winners else 0.0), decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    variant = sys.argv[2] if len(sys.argv) > 2 else "full"
    start = time.process_time()
    wins = 0.0
    decisions = 0
    for game in range(games):
        share, n = play(game, variant)
        wins += share
        decisions += n
    elapsed = time.process_time() - start
    rate = wins / games
    print(f"seven-dragons {variant}: greedy vs 2 random, {games} games, {SEATS} players, rotating seats")
    print(f"greedy win rate: {rate:.1%} ({wins:g} of {games} games; chance is {1 / SEATS:.0%}, target {TARGET:.0%})")
    print(f"{decisions} decisions in {elapsed:.1f}s of CPU ({games / elapsed:.1f} games/s)")


if __name__ == "__main__":
    main()
