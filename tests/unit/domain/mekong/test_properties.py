"""Invariants of random play (hypothesis): stones and planks accounted for, no crossing, three per support,
no stone under a plank, every listed move accepted, and the same seeds giving the same game."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from domain.kernel import Event, Rng
from domain.mekong import RULESET
from domain.mekong.board import ISLAND_RADIUS, SIZES, STONE_RADIUS
from domain.mekong.layout import layout
from domain.mekong.state import MekongState, plank_size
from tests.support.runs import count

DECISIONS = 250
SAMPLE = 6


def _check(state: MekongState) -> None:
    # 27 stones: on the board or in the common reserve.
    assert len(state.stones) + state.stone_reserve == 27
    assert len({s.name for s in state.stones}) == len(state.stones)
    # 36 planks: on the board, in reserves, lost, or in the box (colours not in play).
    box = [f"{c}-{s}" for c in state.edition.rim if c not in state.colours for s in SIZES]
    held = [p for r in state.reserves for p in r]
    every = [b.plank for b in state.bridges] + held + list(state.lost) + box
    assert len(every) == 36 and Counter(every) == Counter(f"{c}-{s}" for c in state.edition.rim for s in SIZES)
    # A reserve never holds two planks of one size, nor more than two colours.
    for reserve in state.reserves:
        assert len({plank_size(p) for p in reserve}) == len(reserve)
        assert len({p.rpartition("-")[0] for p in reserve}) <= 2
    # Supports bear at most 3 planks; each plank reaches; no two planks cross or overlap (checked with shapely).
    lay = layout(state)
    g = lay.geometry
    loads = Counter(end for b in state.bridges for end in b.ends)
    assert max(loads.values(), default=0) <= 3
    segments = {}
    for b in state.bridges:
        a, c = (g.point(g.index[e]) for e in b.ends)
        assert plank_size(b.plank) >= g.span_between[(g.index[b.ends[0]], g.index[b.ends[1]])].need
        segments[b.plank] = (set(b.ends), LineString([a, c]))
    for (ends1, line1), (ends2, line2) in combinations(segments.values(), 2):
        if line1.intersects(line2):
            meet = line1.intersection(line2)
            assert ends1 & ends2 and meet.geom_type == "Point", "two planks cross"
    # No stone lies under a plank it does not carry.
    radius = ISLAND_RADIUS if state.edition.islands else STONE_RADIUS
    for stone in state.stones:
        for ends, line in segments.values():
            assert stone.name in ends or line.distance(Point(stone.x, stone.y)) >= radius - 1e-9
    # Pawns stand on planks of the board or in villages.
    planks = {b.plank for b in state.bridges}
    for spot in state.pawns:
        assert spot is None or spot in planks or lay.is_village(spot)


def _random_game(variant: str, seats: int, seed: int) -> tuple[MekongState, list[Event]]:
    rng = random.Random(seed)
    config = RULESET.configure(variant, None, seats)
    state, history = RULESET.new_game(config, Rng(seed.to_bytes(4, "big"), "setup"))
    for decision in range(DECISIONS):
        if RULESET.is_over(state):
            break
        seat = rng.choice(RULESET.awaiting(state))
        moves = RULESET.legal_moves(state, seat)
        chance = Rng(b"props", f"v{decision}")
        for move in rng.sample(moves, min(SAMPLE, len(moves))):
            RULESET.decide(state, seat, move, chance)  # every listed move is accepted as is
        events = RULESET.decide(state, seat, moves[rng.randrange(len(moves))], chance)
        for event in events:
            state = RULESET.evolve(state, event)
        history.extend(events)
        _check(state)
    return state, history


@settings(max_examples=count(5, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(variant="classic", seats=2, seed=1)
@example(variant="river-dragons", seats=4, seed=2)
@example(variant="challenge", seats=6, seed=3)
@given(
    variant=st.sampled_from(["classic", "river-dragons", "challenge"]),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**31),
)
def test_random_play_keeps_stones_and_planks_accounted_for_and_planks_apart(
    variant: str, seats: int, seed: int
) -> None:
    """Issue checks: 27 stones and 36 planks accounted for; no crossing planks; no support bearing more than 3;
    every listed move accepted."""
    _random_game(variant, seats, seed)


@settings(max_examples=count(2, 4), deadline=None)
@given(seed=st.integers(0, 2**31))
def test_the_same_seeds_give_the_same_events(seed: int) -> None:
    """Determinism: events depend only on the seeds."""
    assert _random_game("challenge", 3, seed)[1] == _random_game("challenge", 3, seed)[1]
