"""The challenge board's caches (geometry extended stone by stone, grid cells kept free by each
stone and plank) must give exactly what computing everything afresh gives."""

from __future__ import annotations

import random

from domain.kernel import Rng
from domain.mekong import RULESET
from domain.mekong.board import STONE_RADIUS, VILLAGE_RADIUS, Site, villages
from domain.mekong.building import DROP_GRID, drop_fault, drop_spots
from domain.mekong.cards import STONE_CARDS
from domain.mekong.geometry import Geometry, geometry
from domain.mekong.variants import EDITIONS


def _described(g: Geometry) -> tuple[object, ...]:
    spans = [(s.index, s.a, s.b, s.gap, s.need) for s in g.spans]
    between = {k: v.index for k, v in g.span_between.items()}
    clashes = [g.clash(s.index) for s in g.spans]
    return g.sites, g.index, spans, between, g.spans_at, g.over, clashes


def test_a_geometry_extended_by_a_stone_dropped_where_a_removed_one_lay_equals_one_built_at_once() -> None:
    """Challenge (designed): removed stones stay in the geometry, so a new stone may sit on an old one's spot."""
    rim = villages(EDITIONS["challenge"].rim)
    points = [(0.0, -60.0), (12.0, -36.0), (0.0, -60.0), (24.0, -12.0), (12.0, -36.0), (-30.5, 7.25)]
    stones = tuple(Site(f"s{i}", x, y) for i, (x, y) in enumerate(points, start=1))
    grown = geometry(rim, stones, VILLAGE_RADIUS, STONE_RADIUS)
    whole = Geometry((*rim, *stones), len(rim), [VILLAGE_RADIUS] * len(rim) + [STONE_RADIUS] * len(stones))
    assert _described(grown) == _described(whole)


def test_the_listed_stone_drops_are_the_grid_points_where_a_drop_is_allowed() -> None:
    """Challenge (designed): drops are listed on the grid, wherever ``decide`` would take them."""
    grid = [(i * DROP_GRID, j * DROP_GRID) for i in range(-9, 10) for j in range(-9, 10)]
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = RULESET.new_game(RULESET.configure("challenge", None, 2), Rng(b"caches", f"{seed}"))
        for decision in range(600):
            if RULESET.is_over(state):
                break
            seat = rng.choice(RULESET.awaiting(state))
            if state.card(seat) in STONE_CARDS and decision % 3 == 0:
                assert set(drop_spots(state)) == {p for p in grid if drop_fault(state, *p) is None}
                checked += 1
            moves = RULESET.legal_moves(state, seat)
            state = RULESET.fold(
                state, RULESET.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"caches", f"v{decision}"))
            )
    assert checked > 10
