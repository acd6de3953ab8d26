"""``bench/ladder.py --versus``: two bots head to head, with the distinct games counted."""

from __future__ import annotations

import importlib
import math


def test_games_that_repeat_are_counted_once_and_openings_make_them_distinct() -> None:
    """Mekong's Level 3 decides without chance and its deals vary little, so against itself it
    replays a few games; with random openings, each played once from each seat, every game is its
    own."""
    bench = importlib.import_module("bench.ladder")
    plain = bench.versus("mekong", ["planner", "level-3"], 4, 2.0, math.inf, 33)
    opened = bench.versus("mekong", ["planner", "level-3"], 4, 2.0, math.inf, 33, opening=3)
    for counts in (plain, opened):
        assert counts["a"] + counts["b"] + counts["tie"] == 4
    assert plain["distinct"] < 4
    assert opened["distinct"] == 4
    assert opened["a"] == opened["b"], "the same bot on both sides of each opening: each wins one of the two"
