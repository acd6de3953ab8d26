"""Chevaliers des dragons: random self-play speed, move decisions and listing latency.

Prints races/s and decisions/s of random four-player self-play on each track (a
decision is a legal-move listing, a ``decide`` and the ``evolve`` of its events),
decisions/s of movement alone (``decide`` plus ``evolve`` of a ``move`` with all
its geometry, and of the ``face`` that completes a move stopped by a template
crash; target at least 500 moves/s), and the latency of a legal-move listing
(p50 and p99; target p99 under 50 ms). Run: ``.venv/bin/python bench/drachenreiter_selfplay.py``.
"""

from __future__ import annotations

import random
import time

from domain.drachenreiter import RULESET
from domain.drachenreiter.commands import Face, Move
from domain.drachenreiter.state import Facing
from domain.kernel import Rng

RACES = 20
SEATS = 4


def race(track: str, seed: int, moves: list[float], listings: list[float]) -> int:
    """One random race; appends the time of each move (with the heading that completes a
    crashed one) to ``moves`` and of each listing to ``listings``; returns its decisions."""
    rng = random.Random(seed)
    config = RULESET.configure(None, {"track": track}, SEATS)
    state, _ = RULESET.new_game(config, Rng(f"bench-{seed}".encode(), "setup"))
    decisions = 0
    while not RULESET.is_over(state):
        seat = rng.choice(RULESET.awaiting(state))
        t0 = time.perf_counter()
        legal = RULESET.legal_moves(state, seat)
        t1 = time.perf_counter()
        command = rng.choice(legal)
        crash_face = isinstance(command, Face) and state.face_cause is Facing.CRASH
        events = RULESET.decide(state, seat, command, Rng(f"bench-{seed}".encode(), f"v{decisions}"))
        state = RULESET.fold(state, events)
        t2 = time.perf_counter()
        listings.append(t1 - t0)
        if isinstance(command, Move):
            moves.append(t2 - t1)
        elif crash_face:
            moves[-1] += t2 - t1  # the rest of a move stopped by a template crash
        decisions += 1
    return decisions


def main() -> None:
    for track in ("ring", "hook", "flight"):
        moves: list[float] = []
        listings: list[float] = []
        start = time.perf_counter()
        decisions = sum(race(track, seed, moves, listings) for seed in range(RACES))
        elapsed = time.perf_counter() - start
        listings.sort()
        p50 = listings[len(listings) // 2] * 1000
        p99 = listings[int(len(listings) * 0.99)] * 1000
        print(
            f"{track:7s} {RACES} random races: {RACES / elapsed:.1f} races/s, {decisions / elapsed:.0f} decisions/s; "
            f"moves (decide+evolve, {len(moves)}): {len(moves) / sum(moves):.0f}/s; "
            f"listing p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(listings)} listings)"
        )


if __name__ == "__main__":
    main()
