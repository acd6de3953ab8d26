"""Leaving the game and losing a decision (platform rules applied to Mekong)."""

from __future__ import annotations

import pytest

from domain.kernel import GameOver, IllegalMove
from domain.mekong import RULESET
from domain.mekong.commands import PlaceStone, Program
from domain.mekong.events import ActionSkipped, LastSeatStanding, PositionRevealed, SeatLeft, StoneActionLost
from domain.mekong.state import Phase

from .support import RNG, C, at_position, board, names, of_type, play, slot, table

PLAN = (C.PLACE_2_STONES, C.PLACE_PLANK, C.MOVE_1, C.REMOVE, C.JUMP)


def test_a_seat_that_leaves_loses_its_pawn_its_planks_stay_and_it_programs_no_more() -> None:
    """Issue: leave: the pawn leaves the board (its planks stay), it programs nothing more; 2+ seats go on."""
    state = board(table("classic", 3), stones=("i10",), planks=(("red-6", "black", "i10"),), pawns={"red": "red-6"})
    state = RULESET.fold(state, RULESET.leave(state, 0, RNG))
    assert state.pawns[0] is None and state.left == (0,)
    assert [b.plank for b in state.bridges] == ["red-6"]
    assert RULESET.awaiting(state) == (1, 2) and RULESET.legal_moves(state, 0) == ()


def test_when_the_others_have_programmed_a_leaver_lets_the_round_begin() -> None:
    """The cards are revealed once every seat still playing has programmed."""
    state = table("classic", 3)
    state, _ = play(state, 1, Program(PLAN))
    state, _ = play(state, 2, Program(PLAN))
    events = RULESET.leave(state, 0, RNG)
    assert events[0] == SeatLeft(0) and events[1] == PositionRevealed(1, (None, C.PLACE_2_STONES, C.PLACE_2_STONES))


def test_an_acting_seat_that_leaves_hands_the_turn_on() -> None:
    """The leaver's card is not carried out; the next seat acts."""
    state, _ = at_position(table("classic", 3), 1, {c: slot(1, C.PLACE_STONE) for c in ("red", "blue", "white")})
    assert RULESET.awaiting(state) == (0,)
    state = RULESET.fold(state, RULESET.leave(state, 0, RNG))
    assert RULESET.awaiting(state) == (1,)


def test_the_last_seat_standing_wins_and_the_leaver_ranks_below() -> None:
    """Issue: with fewer than 2 seats left, the last one wins."""
    state = table("classic", 2)
    events = RULESET.leave(state, 1, RNG)
    assert events == [SeatLeft(1), LastSeatStanding(0)]
    state = RULESET.fold(state, events)
    outcome = RULESET.outcome(state)
    assert state.phase is Phase.OVER and outcome is not None and outcome.places == (1, 2)
    with pytest.raises(GameOver):
        RULESET.leave(state, 0, RNG)


def test_a_seat_cannot_leave_twice() -> None:
    """Platform: a seat that left is out; leaving again is refused."""
    state = table("classic", 3)
    state = RULESET.fold(state, RULESET.leave(state, 2, RNG))
    with pytest.raises(IllegalMove):
        RULESET.leave(state, 2, RNG)


def test_a_skipped_choice_loses_the_rest_of_the_action() -> None:
    """Issue: skip: in resolution, a pending action choice may be lost ("the action is lost")."""
    programmes = {"black": slot(1, C.PLACE_2_STONES), "white": slot(1, C.PLACE_STONE)}
    state, _ = at_position(table("classic", 2), 1, programmes)
    state, _ = play(state, 0, PlaceStone("i1"))
    assert RULESET.skip(state, 1, RNG) is None
    events = RULESET.skip(state, 0, RNG)
    assert events is not None and events[0] == ActionSkipped(0, C.PLACE_2_STONES, "the decision was not made in time")
    state = RULESET.fold(state, events)
    assert [s.name for s in state.stones] == ["i1"] and RULESET.awaiting(state) == (1,)
    assert not of_type(events, StoneActionLost) and "PositionRevealed" not in names(events)
