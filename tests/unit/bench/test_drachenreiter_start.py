"""``bench/drachenreiter_start.py``: two-seat races split by the dragon the start placed ahead."""

from __future__ import annotations

import importlib


def test_each_race_is_counted_on_the_side_its_bots_started() -> None:
    """``racer`` beats a random flier from the front and from the back alike, so every race is
    A's, the races from the back included, and the dragon ahead at the start won exactly those
    that A started ahead in; the seats alternate, so A started from both places."""
    bench = importlib.import_module("bench.drachenreiter_start")
    got = bench.split(["racer", "random"], 6, 9, 2.0)
    assert got.races == 6
    assert 0 < got.a_front < 6
    assert got.a_front_won == got.a_front
    assert got.a_back_won == got.a_back
    assert got.front_won == got.a_front
    assert got.lasso_won <= got.races - got.front_won
