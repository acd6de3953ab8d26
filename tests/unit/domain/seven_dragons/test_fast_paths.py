"""The speed-ups answer exactly like the plain code they replace: lanes, slots, shared commands, derived boards."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.slots import builder, replacer
from domain.seven_dragons import RULESET, makers
from domain.seven_dragons import board as boards
from domain.seven_dragons.board import Board, board_of, neighbours
from domain.seven_dragons.cards import BIT, DRAGONS, SILVER, oriented
from domain.seven_dragons.commands import Discard, MoveCard, PlaceDragon, ZapCard
from domain.seven_dragons.evolve import replace as fast_replace
from domain.seven_dragons.lanes import REACH_BITS, lanes, matching
from domain.seven_dragons.state import Phase, Placed, SevenDragonsState

from .helpers import play_random, start

SETTINGS = [
    ("full", {}),
    ("full", {"strict_edges": True}),
    ("single-action", {"action": "move_card", "silver": False}),
    ("basic", {}),
    ("connections", {"strict_edges": True}),
]


def _reference_fits(b: Board, own: tuple[int, int, int, int], strict: bool) -> tuple[tuple[int, int], ...]:
    """The frontier cells where the card fits, tested one by one."""
    return tuple(c for c in b.frontier() if b.accepts(own, c, strict))


def _reference_destinations(b: Board, card: int, strict: bool) -> list[tuple[tuple[int, int], int]]:
    """Move a Card's destinations tested one by one, in listing order."""
    home, turned = b.where[card]
    near = set(neighbours(home))
    out = []
    for o in (0, 180):
        out.extend((c, o) for c in _reference_fits(b, oriented(card, o), strict) if c not in near)
    for c in sorted((home, *near)):
        if c != home and c in b.masks:
            continue
        for o in (0, 180):
            if (c != home or o != turned) and b.accepts(oriented(card, o), c, strict, skip=home):
                out.append((c, o))
    return out


def _states(variant: str, options: dict[str, object], seed: int) -> list[SevenDragonsState]:
    _, states = play_random(start(variant, seats=3, seed=seed, **options), seed=seed)
    return [s for s in states if s.phase is Phase.PLAY]


@given(
    reaches=st.lists(st.integers(0, (1 << REACH_BITS) - 1), max_size=80),
    panels=st.integers(0, (1 << REACH_BITS) - 1),
)
def test_lanes_pick_the_cells_a_card_matches_like_testing_each(reaches: list[int], panels: int) -> None:
    """Style: matching all frontier cells at once gives the answers of the cell-by-cell test."""
    assert list(matching(lanes(reaches), len(reaches), panels)) == [1 if r & panels else 0 for r in reaches]


def test_the_fast_replace_copies_the_state_like_dataclasses_replace() -> None:
    """Style: evolve's copy of the state is dataclasses.replace, only faster."""
    state = start("full", seats=3, seed=4)
    for changes in ({}, {"turn": 2}, {"deck": (), "hands": ((), (), ()), "phase": Phase.OVER}):
        fast, plain = fast_replace(state, **changes), dataclasses.replace(state, **changes)
        assert fast == plain and type(fast) is SevenDragonsState
    with pytest.raises(TypeError):
        fast_replace(state, colour="red")


def test_the_fast_builder_makes_commands_equal_to_their_constructor() -> None:
    """Style: commands built straight into their slots equal those built by __init__."""
    assert builder(MoveCard)(60, 7, 1, -2, 180, Discard.BOTTOM) == MoveCard(60, 7, 1, -2, 180, Discard.BOTTOM)
    assert builder(PlaceDragon)(3, 0, 1, 0) == PlaceDragon(3, 0, 1)


def test_the_fast_copies_refuse_classes_they_would_copy_wrongly() -> None:
    """Style: only frozen slotted dataclasses set entirely by __init__."""

    @dataclasses.dataclass
    class Loose:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (Loose, Checked):
        with pytest.raises(TypeError):
            replacer(cls)


@pytest.mark.parametrize(("variant", "options"), SETTINGS, ids=lambda v: str(v))
def test_derived_boards_answer_like_boards_built_afresh(variant: str, options: dict[str, object]) -> None:
    """Style: boards derived step by step (cached, incremental, shared between equal layouts), their
    placements and Move a Card destinations, answer like a fresh board tested cell by cell."""
    for state in _states(variant, options, seed=11)[::3]:
        silver = state.silver_mask()
        strict = state.table.strict_edges
        derived, fresh = board_of(state.layout, silver), Board.build(state.layout, silver)
        assert derived.largest() == fresh.largest()
        assert derived.reach == fresh.reach and derived.frontier() == fresh.frontier()
        for card in DRAGONS[::3]:
            for o in (0, 180):
                assert derived.fits(oriented(card, o), strict) == _reference_fits(fresh, oriented(card, o), strict)
        for p in state.layout:
            if p.card != SILVER:
                upright, turned, near = derived.destinations(p.card, strict)
                listed = [(c, 0) for c in upright] + [(c, 180) for c in turned] + list(near)
                assert listed == _reference_destinations(fresh, p.card, strict)
        if SILVER in derived.where:
            for colour in BIT.values():
                again = derived.resilvered(colour) if colour != silver else derived
                assert again.largest() == Board.build(state.layout, colour).largest()


@pytest.mark.parametrize(("variant", "options"), SETTINGS[:3], ids=lambda v: str(v))
def test_the_largest_groups_after_a_placement_are_those_of_the_board_with_the_card(
    variant: str, options: dict[str, object]
) -> None:
    """Style: the bots' shortcut (``largest_if_placed``: the groups a card would join, without
    deriving the board) answers like a board built afresh with the card in place, in every
    frontier cell, for dragons of every colour (and the Silver Dragon, where it is off the layout)."""
    for state in _states(variant, options, seed=12)[::4]:
        silver = state.silver_mask()
        b = board_of(state.layout, silver)
        placed = {p.card for p in state.layout}
        cards = [c for c in DRAGONS if c not in placed][::5]
        for cell in b.frontier()[::2]:
            for card, o in [(c, o) for c in cards for o in (0, 180)] + [(SILVER, 0)] * (SILVER not in placed):
                p = Placed(card, cell[0], cell[1], o, 0)
                assert b.largest_if_placed(p, silver) == Board.build((*state.layout, p), silver).largest()


def test_shared_commands_equal_fresh_ones_and_listings_repeat_exactly() -> None:
    """Determinism: listing twice, or after the shared tables are emptied, gives equal commands in order."""
    for state in _states("full", {}, seed=3)[::4]:
        seat = RULESET.awaiting(state)[0]
        first = list(RULESET.legal_moves(state, seat))
        makers._TABLES.clear()
        assert list(RULESET.legal_moves(state, seat)) == first
        for command in first:
            if isinstance(command, (PlaceDragon, ZapCard)):
                assert command == type(command)(*(getattr(command, f.name) for f in dataclasses.fields(command)))


def test_listings_on_several_threads_agree_with_one_thread() -> None:
    """Platform: the shared tables and board cache may be filled by several threads at once."""
    states = [s for variant, options in SETTINGS for s in _states(variant, options, seed=5)[::2]]
    alone = [list(RULESET.legal_moves(s, RULESET.awaiting(s)[0])) for s in states]
    makers._TABLES.clear()
    boards._CACHE.clear()
    order = list(range(len(states))) * 3
    random.Random(1).shuffle(order)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        together = list(
            pool.map(lambda i: (i, list(RULESET.legal_moves(states[i], RULESET.awaiting(states[i])[0]))), order)
        )
    assert all(listed == alone[i] for i, listed in together)
