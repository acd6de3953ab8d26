"""Placing stones: on a free island (classic and River Dragons boards) or in the water (challenge)."""

from __future__ import annotations

import math

import pytest

from domain.kernel import IllegalMove
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.building import DROP_GRID, drop_spots
from domain.mekong.commands import PlaceStone, PlaceStoneAt, RemoveStone
from domain.mekong.events import StoneActionLost, StonePlaced
from domain.mekong.layout import layout
from domain.mekong.state import STONES, Phase

from .support import ISLAND, RNG, C, at_position, board, dropped, of_type, play, slot, table


def _stone_turn(state, card=C.PLACE_STONE):  # type: ignore[no-untyped-def]
    state, _ = at_position(state, 1, {state.colours[0]: slot(1, card), state.colours[1]: slot(1, C.REMOVE)})
    return state


def test_a_stone_goes_on_a_free_island_and_leaves_the_common_reserve() -> None:
    """Rulebook: "Le joueur DOIT poser 1 pierre sur l'une des 27 îles du plateau"."""
    state = _stone_turn(table("river-dragons", 2))
    assert RULESET.legal_moves(state, 0) == [PlaceStone(f"i{n}") for n in range(1, 28)]
    state, events = play(state, 0, PlaceStone("i7"))
    assert events[0] == StonePlaced(0, "i7", ISLAND["i7"].x, ISLAND["i7"].y)
    assert [s.name for s in state.stones] == ["i7"] and state.stone_reserve == 26


def test_each_island_takes_one_stone_and_a_village_none() -> None:
    """Rulebook: "Chaque île ne peut recevoir qu'une seule pierre. Un village ne peut recevoir de pierre"."""
    state = _stone_turn(board(table("river-dragons", 2), stones=("i7",)))
    assert PlaceStone("i7") not in RULESET.legal_moves(state, 0)
    for where in ("i7", "pink", "i28"):
        with pytest.raises(IllegalMove) as refused:
            RULESET.decide(state, 0, PlaceStone(where), RNG)
        assert refused.value.rule == rb.STONE_ISLAND


def test_place_2_stones_places_two_in_turn() -> None:
    """Rulebook: "POSER 2 PIERRES: Le joueur DOIT poser 2 pierres sur 2 des 27 îles"."""
    state = _stone_turn(table("river-dragons", 2), C.PLACE_2_STONES)
    state, _ = play(state, 0, PlaceStone("i1"))
    assert RULESET.awaiting(state) == (0,) and PlaceStone("i1") not in RULESET.legal_moves(state, 0)
    state, _ = play(state, 0, PlaceStone("i2"))
    assert RULESET.awaiting(state) == (1,) or state.position == 2


def test_with_the_reserve_empty_the_stone_action_is_lost() -> None:
    """Rulebook: "S'il n'y a plus de pierres dans la réserve au moment où un joueur joue cette action, il perd son
    action"."""
    state = board(table("river-dragons", 2), stones=tuple(f"i{n}" for n in range(1, 28)))
    assert state.stone_reserve == 0
    _, events = at_position(state, 1, {"pink": slot(1, C.PLACE_2_STONES), "black": slot(1, C.REMOVE)})
    assert of_type(events, StoneActionLost) == [StoneActionLost(0, C.PLACE_2_STONES, "the stone reserve is empty")]


def test_the_second_stone_is_lost_when_the_first_was_the_last() -> None:
    """The rest of the card is lost when the reserve runs out midway."""
    state = board(table("river-dragons", 2), stones=tuple(f"i{n}" for n in range(2, 28)))
    state = _stone_turn(state, C.PLACE_2_STONES)
    _, events = play(state, 0, PlaceStone("i1"))
    assert of_type(events, StoneActionLost)[0].reason == "the stone reserve is empty"


def test_a_dropped_stone_goes_anywhere_in_the_water_by_coordinates() -> None:
    """Challenge: "vous devrez le faire au jugé, directement dans l'eau"."""
    state = _stone_turn(table("challenge", 2))
    moves = RULESET.legal_moves(state, 0)
    assert all(isinstance(m, PlaceStoneAt) for m in moves) and 100 < len(moves) < 300
    assert all(m.x % DROP_GRID == 0 and m.y % DROP_GRID == 0 for m in moves)
    state, events = play(state, 0, PlaceStoneAt(4.0, -41.0))
    assert events[0] == StonePlaced(0, "s1", 4.0, -41.0)
    assert state.drops[0].name == "s1" and state.stones == state.drops


def test_a_dropped_stone_takes_the_lowest_name_free_and_a_stone_taken_back_frees_its_own() -> None:
    """Designed (engine version 2): the names never pass ``s27``, the reserve's size, so every drop and
    every plank on a dropped stone has its action in the learning environments."""
    state = dropped(table("challenge", 2), (10.0, 10.0), (40.0, 40.0), (-40.0, 40.0))
    state, events = play(_stone_turn(state, C.REMOVE), 0, RemoveStone("s2"))
    assert [s.name for s in state.stones] == ["s1", "s3"]
    state, events = play(_stone_turn(state), 0, PlaceStoneAt(41.0, 40.0))
    assert events[0] == StonePlaced(0, "s2", 41.0, 40.0)
    assert [s.name for s in state.stones] == ["s1", "s2", "s3"] and len(state.drops) == 4
    geometry = layout(state).geometry
    assert geometry.point(geometry.index["s2"]) == (41.0, 40.0)  # the name at its latest drop
    state, events = play(_stone_turn(state), 0, PlaceStoneAt(-70.0, 0.0))
    assert events[0] == StonePlaced(0, "s4", -70.0, 0.0)


def test_the_names_stay_within_the_reserve_however_many_stones_come_and_go() -> None:
    far = tuple((float(x), float(y)) for x in range(-72, 73, 24) for y in range(-60, 61, 24))[: STONES - 1]
    state = dropped(table("challenge", 2), *far)
    for _ in range(3):
        state, _ = play(_stone_turn(state), 0, next(m for m in RULESET.legal_moves(_stone_turn(state), 0)))
        assert max(int(s.name[1:]) for s in state.stones) == STONES
        state, _ = play(_stone_turn(state, C.REMOVE), 0, RemoveStone("s5"))
    assert len(state.drops) == STONES + 2 and state.stone_reserve == 1


@pytest.mark.parametrize(("x", "y"), [(3.7, -41.0), (4.0, -41.25), (math.nan, 0.0), (math.inf, 0.0)])
def test_a_stone_is_dropped_at_whole_units(x: float, y: float) -> None:
    """Designed (``challenge.drop-resolution``): a stone is dropped at whole units of the board (its
    radius is 100), so every drop has an action in the learning environments."""
    state = _stone_turn(table("challenge", 2))
    with pytest.raises(IllegalMove, match="whole units") as err:
        RULESET.decide(state, 0, PlaceStoneAt(x, y), RNG)
    assert err.value.rule == rb.DROP_RESOLUTION


@pytest.mark.parametrize(
    ("x", "y", "why"),
    [
        (0.0, 99.0, "in the water"),
        (0.0, -80.0, "overlap the red village"),
        (12.0, 10.0, "overlap stone s1"),
        (0.0, -43.0, "under plank"),
    ],
)
def test_a_dropped_stone_may_not_overlap_a_stone_a_village_or_a_plank(x: float, y: float, why: str) -> None:
    """Challenge: stones go in the water, not on other stones or villages, and never under a plank (designed)."""
    state = dropped(table("challenge", 2), (10.0, 10.0), (0.0, -60.0), (0.0, -30.0))
    state = _stone_turn(board(state, planks=(("black-5", "s2", "s3"),)))
    with pytest.raises(IllegalMove, match=why):
        RULESET.decide(state, 0, PlaceStoneAt(x, y), RNG)
    assert (x, y) not in drop_spots(state)


def test_stones_cannot_be_placed_by_coordinates_on_island_boards_nor_on_islands_in_the_challenge() -> None:
    """River Dragons: "Le joueur DOIT poser 1 pierre sur l'une des 27 îles du plateau"; challenge: "Au lieu de poser
    les pierres sur les îles, vous devrez le faire au jugé, directement dans l'eau"."""
    islands = _stone_turn(table("classic", 2))
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(islands, 0, PlaceStoneAt(0.0, 0.0), RNG)
    assert refused.value.rule == rb.STONE_ON_ISLAND
    water = _stone_turn(table("challenge", 2))
    with pytest.raises(IllegalMove):
        RULESET.decide(water, 0, PlaceStone("i1"), RNG)
    assert water.phase is Phase.RESOLUTION
