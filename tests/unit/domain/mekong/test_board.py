"""The designed board (README "Board (designed)"): the properties the design must keep, and its geometry."""

from __future__ import annotations

import math
from collections import deque
from itertools import combinations, pairwise

import pytest
from shapely.geometry import LineString

from domain.mekong.board import (
    BOARD_RADIUS,
    ISLAND_RADIUS,
    ISLANDS,
    REACH,
    RIM,
    SIZES,
    VILLAGE_RADIUS,
    Site,
    opposite,
    smallest_size,
    villages,
)
from domain.mekong.geometry import Geometry, geometry, segments_clash
from domain.mekong.layout import board_geometry
from domain.mekong.variants import EDITIONS


def _fewest_planks(start: str, goal: str) -> int:
    """Breadth-first count of planks on the shortest crossing, any plank reaching as far as size 6."""
    sites = {s.name: s for s in (*villages(), *ISLANDS)}
    rim = {v.name for v in villages()}

    def linked(a: Site, b: Site) -> bool:
        both_villages = a.name in rim and b.name in rim
        return not both_villages and math.dist((a.x, a.y), (b.x, b.y)) <= REACH[6]

    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for name, site in sites.items():
            if name not in seen and linked(sites[here], site):
                seen[name] = seen[here] + 1
                queue.append(name)
    return seen[goal]


def test_six_villages_are_evenly_spaced_on_the_rim_each_opposite_its_destination() -> None:
    """README: 6 villages evenly spaced on the rim; red faces green, blue yellow, black white (pink)."""
    rim = villages()
    assert len(rim) == 6
    radii = {round(math.hypot(v.x, v.y), 1) for v in rim}
    assert len(radii) == 1
    for a, b in zip(rim, rim[1:] + rim[:1], strict=True):
        angle = math.degrees(math.atan2(b.x, -b.y) - math.atan2(a.x, -a.y)) % 360
        assert angle == pytest.approx(60, abs=0.2)
    for a, b in (("red", "green"), ("blue", "yellow"), ("black", "white")):
        assert opposite(RIM, a) == b and opposite(RIM, b) == a
        va, vb = (next(v for v in rim if v.name == n) for n in (a, b))
        assert (va.x + vb.x, va.y + vb.y) == pytest.approx((0, 0), abs=0.2)
    assert opposite(EDITIONS["river-dragons"].rim, "black") == "pink"


def test_there_are_27_islands_in_the_water_clear_of_each_other_and_of_the_villages() -> None:
    """Rulebook: 27 petites îles et 6 villages."""
    assert len(ISLANDS) == 27 == len({i.name for i in ISLANDS})
    for island in ISLANDS:
        assert math.hypot(island.x, island.y) + ISLAND_RADIUS < BOARD_RADIUS
        for v in villages():
            assert math.dist((island.x, island.y), (v.x, v.y)) > VILLAGE_RADIUS + ISLAND_RADIUS
    for a, b in combinations(ISLANDS, 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) > 2 * ISLAND_RADIUS


def test_plank_sizes_one_to_six_reach_ever_farther() -> None:
    """README: plank sizes 1 to 6 have increasing reach."""
    assert SIZES == (1, 2, 3, 4, 5, 6)
    assert all(REACH[a] < REACH[b] for a, b in pairwise(SIZES))


def test_every_plank_size_is_the_smallest_that_spans_some_pair_of_supports() -> None:
    """README: every size must matter, for each size there are support pairs that need exactly that size."""
    g = board_geometry("classic")
    needed = {s.need for s in g.spans}
    assert needed == set(SIZES)
    for s in g.spans:
        assert (s.need == 1 or s.gap > REACH[s.need - 1]) and s.gap <= REACH[s.need]


@pytest.mark.parametrize("start", RIM)
def test_no_village_reaches_its_opposite_in_fewer_than_5_planks(start: str) -> None:
    """README: a crossing needs several planks; designed bound: at least 5, and 5 are enough."""
    assert _fewest_planks(start, opposite(RIM, start)) == 5


def test_a_gap_is_spanned_by_the_smallest_plank_that_reaches_and_by_none_beyond_size_6() -> None:
    """Rulebook: a plank too long is fine; a plank too short cannot rest."""
    assert smallest_size(REACH[1]) == 1
    assert smallest_size(REACH[1] + 0.1) == 2
    assert smallest_size(REACH[6] + 0.1) is None


def test_clashing_spans_are_exactly_the_planks_shapely_sees_crossing_or_overlapping() -> None:
    """Rulebook: "En aucun cas, une planche ne peut croiser une autre planche"; touching at a shared support is fine."""
    g = board_geometry("classic")
    lines = [LineString([g.point(s.a), g.point(s.b)]) for s in g.spans]
    for s, t in combinations(g.spans, 2):
        shared = {s.a, s.b} & {t.a, t.b}
        meet = lines[s.index].intersection(lines[t.index])
        expected = lines[s.index].intersects(lines[t.index]) and (not shared or meet.geom_type != "Point")
        assert bool(g.clash(s.index) >> t.index & 1) == expected, (s, t)


def test_planks_meeting_at_a_support_in_the_same_direction_clash() -> None:
    """A plank lying along another from the same support would rest on it."""
    assert segments_clash((0, 0), (10, 0), (0, 0), (20, 0))
    assert not segments_clash((0, 0), (10, 0), (0, 0), (-20, 0))
    assert not segments_clash((0, 0), (10, 0), (0, 0), (0, 10))
    assert segments_clash((0, 0), (10, 0), (5, -5), (5, 5))
    assert segments_clash((0, 0), (10, 0), (5, 0), (5, 5))
    assert not segments_clash((0, 0), (10, 0), (11, -5), (11, 5))


def test_a_geometry_grown_stone_by_stone_equals_one_built_at_once() -> None:
    """The challenge board's geometry is extended one dropped stone at a time; it must not differ."""
    rim = villages(EDITIONS["challenge"].rim)
    stones = tuple(
        Site(f"s{i}", x, y)
        for i, (x, y) in enumerate(
            [(0, -60), (10, -30), (-12, -10), (25, 5), (0, 20), (-30, 30), (35, 40), (0, 60), (50, -20)], start=1
        )
    )
    grown = geometry(rim, stones, VILLAGE_RADIUS, 3.0)
    whole = Geometry((*rim, *stones), len(rim), [VILLAGE_RADIUS] * 6 + [3.0] * len(stones))

    def described(g: Geometry) -> dict[tuple[int, int], tuple[int, int, frozenset[tuple[int, int]]]]:
        out = {}
        for s in g.spans:
            clashing = frozenset((t.a, t.b) for t in g.spans if t is not s and g.clash(s.index) >> t.index & 1)
            out[(s.a, s.b)] = (s.need, g.over[s.index], clashing)
        return out

    assert described(grown) == described(whole)


def _own_plank_crossings(start: str, goal: str) -> list[tuple[int, ...]]:
    """Crossings (as span lists) that one colour's six planks can build: spans that do not clash, no other
    village on the way, and plank sizes 1 to 6 each used at most once, each reaching its span."""
    g = board_geometry("classic")
    target = g.index[goal]
    found: list[tuple[int, ...]] = []

    def fits(needs: list[int]) -> bool:
        return all(n <= 6 - i for i, n in enumerate(sorted(needs, reverse=True)))

    def walk(here: int, seen: set[int], spans: tuple[int, ...], blocked: int) -> None:
        if here == target:
            found.append(spans)
            return
        needs = [g.spans[s].need for s in spans]
        left = sorted(SIZES, reverse=True)[: 6 - len(spans)]  # at best the longest planks are still free
        if math.dist(g.point(here), g.point(target)) > sum(REACH[k] for k in left):
            return
        for s in g.spans_at[here]:
            span = g.spans[s]
            there = span.b if span.a == here else span.a
            if there in seen or (there < g.villages and there != target) or blocked >> s & 1:
                continue
            if fits([*needs, span.need]):
                walk(there, seen | {there}, (*spans, s), blocked | g.clash(s))

    start_index = g.index[start]
    walk(start_index, {start_index}, (), 0)
    return found


@pytest.mark.parametrize("start", RIM)
def test_every_crossing_can_be_built_with_one_colours_six_planks(start: str) -> None:
    """Designed: a player's own planks (sizes 1 to 6, one each) suffice for a crossing of 6 planks."""
    crossings = _own_plank_crossings(start, opposite(RIM, start))
    assert crossings and min(len(c) for c in crossings) == 6
