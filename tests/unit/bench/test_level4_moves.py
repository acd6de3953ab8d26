"""``bench/level4_moves.py``: Level 4 and Level 3 asked the same decisions, side by side."""

from __future__ import annotations

import importlib


def test_a_search_too_short_to_decide_is_counted_playing_level_3s_move() -> None:
    """At 10 ms a decision no sampling Level 4 can gather the rounds it needs to leave Level 3's
    move (``least_visits``, ``least_rounds``), so every decision asked must count as Level 3's, for
    the tree search (Drachenreiter) as for the rollout bot (Seven Dragons): the bench asks both bots on the
    same observation with the same generator."""
    bench = importlib.import_module("bench.level4_moves")
    for game in ("drachenreiter", "seven-dragons"):
        counted = bench.compare(game, decisions=3, budget=0.01, seats=2, seed=1)
        assert counted["decisions"] == 3 and counted["same"] == 3
        assert 0 < counted["median_s"] <= counted["max_s"]


def test_an_exact_search_leaves_level_3s_move_whatever_its_budget() -> None:
    """Tarasque's Level 4 searches the rolling exactly, in milliseconds: at 10 ms a decision it
    already plays other moves than Level 3, and the bench counts them."""
    bench = importlib.import_module("bench.level4_moves")
    counted = bench.compare("tarasque", decisions=12, budget=0.01, seats=2, seed=1)
    assert counted["decisions"] == 12 and counted["same"] < 12
