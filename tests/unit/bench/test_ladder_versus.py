"""``bench/ladder.py``: a ladder bounded by its games or its seconds, and ``--versus``: two bots
head to head, with the distinct games counted."""

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


def test_a_ladder_stops_at_its_games_or_once_its_seconds_have_passed() -> None:
    """``--seconds`` bounds a ladder's run: the games already played are rated and counted."""
    bench = importlib.import_module("bench.ladder")
    settings = bench.Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": "33" * 32})
    platform = bench.bootstrap(settings, work=bench.NullWork())
    try:
        rows, played = bench.run_game(platform, "tarasque", 3, 2, 0.1, 7)
        assert played == 3
        assert [r["bot"] for r in rows] == ["random", "beginner", "greedy", "search"]
        assert any(r["sigma"] < 25 / 3 for r in rows), "the games played were rated"
        _rows, played = bench.run_game(platform, "tarasque", 1000, 2, 0.1, 8, seconds=0.0)
        assert played == 0
    finally:
        platform.close()
