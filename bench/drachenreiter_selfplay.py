"""Chevaliers des dragons: random self-play speed, move decisions and listing latency.

Prints races/s and decisions/s of random four-player self-play on each track (a
decision is a legal-move listing, a ``decide`` and the ``evolve`` of its events),
decisions/s of movement alone (``decide`` plus ``evolve`` of a ``move`` with all
its geometry; target at least 500/s), and the latency of a legal-move listing
(p50 and p99; target p99 under 50 ms). Run: ``.venv/bin/python bench/drachenreiter_selfplay.py``.
"""

from __future__ import annotations

import random
import time

from domain.drachenreiter import RULESET
from domain.drachenreiter.commands import Move
from domain.kernel import Rng

RACES = 20
SEATS = 4


def race(track: str, seed: int, moves: list[float], listings: list[float]) -> int:
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
        events = RULESET.decide(state, seat, command, Rng(f"bench-{seed}".encode(), f"v{decisions}"))
        state = RULESET.fold(state, events)
        t2 = time.perf_counter()
        listings.append(t1 - t0)
        if isinstance(command, Move):
            moves.append(t2 - t1)
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
        print(f"{track:7s} {RACES} random races: {RACES / elapsed:.1f} races/s, {decisions / elapsed:.0f} decisions/s; "
              f"moves (decide+evolve, {len(moves)}): {len(moves) / sum(moves):.0f}/s; "
              f"listing p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(listings)} listings)")


if __name__ == "__main__":
    main()
