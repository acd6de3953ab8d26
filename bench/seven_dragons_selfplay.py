"""Seven Dragons engine speed in random self-play.

A decision is a legal-move listing, a uniform choice, a ``decide`` and the
``evolve`` of its events. ``legal_moves`` is a lazy sequence (it counts the
moves and builds the chosen one), which is how bots use it; the second figure
materialises every listed command (``list(...)``) as a stricter measure.
Rates are per second of this process's CPU time, so that other work on the
machine does not skew them.

    .venv/bin/python bench/seven_dragons_selfplay.py [games]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.kernel import Rng
from domain.seven_dragons import RULESET

GAMES = 200
TARGET = 5_000


def play(variant: str, seats: int, game: int, materialise: bool) -> int:
    """One random game; returns its number of decisions."""
    config = RULESET.configure(variant, None, seats)
    seed = f"seven-dragons-selfplay-{variant}-{seats}-{game}".encode()
    state, _ = RULESET.new_game(config, Rng(seed, "setup"))
    rng = random.Random(game)
    decisions = 0
    while not RULESET.is_over(state):
        seat = RULESET.awaiting(state)[0]
        moves = RULESET.legal_moves(state, seat)
        if materialise:
            moves = list(moves)
        command = moves[rng.randrange(len(moves))]
        for event in RULESET.decide(state, seat, command, Rng(seed, f"v{decisions}")):
            state = RULESET.evolve(state, event)
        decisions += 1
    return decisions


def measure(variant: str, seats: int, games: int, materialise: bool = False) -> tuple[float, float, float]:
    start = time.process_time()
    decisions = sum(play(variant, seats, g, materialise) for g in range(games))
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, decisions / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    print(f"seven-dragons random self-play, {games} games per row (target {TARGET:,} decisions/s)")
    print(f"{'variant':<14}{'seats':>6}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}{'materialised':>14}")
    for variant in ("full", "single-action", "basic", "connections"):
        for seats in (2, 3, 5):
            gps, dps, per_game = measure(variant, seats, games)
            _, dps_list, _ = measure(variant, seats, max(games // 4, 1), materialise=True)
            print(f"{variant:<14}{seats:>6}{gps:>10.1f}{dps:>13,.0f}{per_game:>10.1f}{dps_list:>14,.0f}")


if __name__ == "__main__":
    main()
