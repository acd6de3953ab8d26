"""Leaving, timing out and observing (platform rules, designed for Tarasque in ``absence.py``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.kernel import IllegalMove, Rng, Viewer
from domain.tarasque.commands import TakeTile
from domain.tarasque.events import GameEnded, RollingStopped, SeatLeft, TurnEnded, TurnStarted
from domain.tarasque.state import Phase
from tests.unit.domain.tarasque.helpers import RULES, ScriptedRng, aside, base, make, new_game, types

RNG = Rng(b"test", "leave")


def test_a_seat_that_leaves_loses_its_base_tiles_and_eggs_but_its_lair_stays() -> None:
    """Designed: the leaver's base tiles leave the game (nobody may steal them), its eggs go to the supply."""
    state = make(
        seats=3,
        middle=("red-desert",),
        aside=aside(red=2),
        eggs=(1, 3, 1),
        bases={1: base(s3=["blue-sea"], s5=["green-sea"])},
        lairs={1: [["black-sea"]]},
    )
    events = RULES.leave(state, 1, RNG)
    assert events[0] == SeatLeft(1, ("blue-sea", "green-sea"), 3)
    after = RULES.fold(state, events)
    assert after.board.bases[1] == base() and after.board.lairs[1] == (("black-sea",),)
    assert after.board.removed[-2:] == ("blue-sea", "green-sea")
    assert after.board.eggs == (1, 0, 1) and after.board.supply == state.board.supply + 3
    assert after.left == (1,)
    assert RULES.awaiting(after) == (0,)


def test_when_the_active_seat_leaves_the_next_seat_plays() -> None:
    """Designed: the leaver's turn ends (its dice and a tile awaiting its row are lost)."""
    state = make(seats=3, phase=Phase.PLACE, pending="red-desert", lairs={0: [["red-sea"]]}, middle=("blue-sea",))
    events = RULES.leave(state, 0, ScriptedRng(("blue", "black", "black", "black", "black", "black")))
    assert events[0] == SeatLeft(0, ("red-desert",), 1)
    assert events[1] == TurnStarted(1, 2, False)
    after = RULES.fold(state, events)
    assert after.turn.seat == 1 and "red-desert" in after.board.removed


def test_the_game_ends_when_one_seat_is_left_and_leavers_rank_last() -> None:
    """Platform: with one seat left the game ends; leavers rank below the others, the first to leave last."""
    state = make(seats=3, middle=("red-desert",), aside=aside(red=2), lairs={0: [["black-sea"]]})
    after = RULES.fold(state, RULES.leave(state, 2, RNG))
    events = RULES.leave(after, 1, RNG)
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "one seat left"
    outcome = RULES.outcome(RULES.fold(after, events))
    assert outcome is not None and outcome.places == (1, 2, 3)


def test_a_seat_cannot_leave_twice() -> None:
    """Platform: only a seat still playing can leave."""
    state = make(seats=3, middle=("red-desert",), aside=aside(red=2), left=(2,))
    with pytest.raises(IllegalMove):
        RULES.leave(state, 2, RNG)


def test_when_a_leaver_took_the_only_valid_symbol_the_roll_ends() -> None:
    """A die is valid only for tiles still in play: without the leaver's tiles the roll may have none."""
    state = make(
        seats=3,
        phase=Phase.SELECT,
        showing=("blue", "black"),
        dice=2,
        rolls=2,
        aside=aside(red=2),
        middle=("red-desert",),
        bases={2: base(s2=["blue-sea"])},
    )
    events = RULES.leave(state, 2, RNG)
    assert types(events)[:2] == ["SeatLeft", "RollingEnded"]
    after = RULES.fold(state, events)
    assert after.turn.phase is Phase.TAKE and RULES.legal_moves(after, 0)[0] == TakeTile("red-desert", 2)


def test_a_timed_out_seat_stops_rolling() -> None:
    """Skip: a seat that has set dice aside may stop, so a timeout stops its rolling."""
    state = make(
        seats=3,
        phase=Phase.CONTINUE,
        showing=("black",),
        dice=4,
        rolls=1,
        chosen=("red",),
        aside=aside(red=2),
        middle=("red-desert",),
    )
    events = RULES.skip(state, 0, RNG)
    assert events is not None and events[0] == RollingStopped(0)
    assert RULES.fold(state, events).turn.phase is Phase.TAKE


def test_a_timed_out_seat_ends_its_turn_without_taking_or_moving() -> None:
    """Skip: taking tiles and the egg move are optional, so a timeout ends the turn."""
    state = make(seats=3, middle=("red-desert",), aside=aside(red=2), lairs={0: [["blue-sea"], ["green-sea"]]})
    events = RULES.skip(state, 0, ScriptedRng(("red",) * 6))
    assert events is not None and events[:2] == [TurnEnded(0), TurnStarted(1, 2, False)]
    assert "red-desert" in RULES.fold(state, events).board.middle


@pytest.mark.parametrize("phase", [Phase.REMOVE, Phase.STORE, Phase.SELECT, Phase.PLACE])
def test_compulsory_choices_cannot_be_skipped(phase: Phase) -> None:
    """Skip returns None for the removal, a lair row and the first set-aside of a roll."""
    state = make(
        seats=2,
        phase=phase,
        showing=("red",),
        middle=("red-desert", "blue-sea"),
        pending="green-sea",
        bases={0: base(s2=["black-sea"])},
    )
    assert RULES.skip(state, 0, RNG) is None
    assert RULES.skip(make(seats=3, middle=("red-desert",)), 1, RNG) is None


def test_observing_reshuffles_the_pile_and_nothing_else() -> None:
    """Only the order of the pile is hidden: observe resamples it, views and moves do not change."""
    state, _ = new_game("dragon-dice", 4)
    seen = RULES.observe(state, 2, random.Random(7))
    assert seen.board.pile != state.board.pile
    assert sorted(seen.board.pile) == sorted(state.board.pile)
    assert seen.board.middle == state.board.middle and seen.turn == state.turn
    assert RULES.view(seen, Viewer.of(2)) == RULES.view(state, Viewer.of(2))
    assert RULES.legal_moves(seen, 0) == RULES.legal_moves(state, 0)


def test_an_observation_depends_only_on_what_the_seat_knows() -> None:
    """Platform decision 2: two states that differ only in the order of the hidden pile ("une pile
    cachée") give the same observation for the same generator, so a bot cannot read the true order."""
    state, _ = new_game("numbered", 2)
    twin = replace(state, board=replace(state.board, pile=tuple(reversed(state.board.pile))))
    assert RULES.view(twin, Viewer.of(0)) == RULES.view(state, Viewer.of(0))
    assert RULES.observe(twin, 0, random.Random(3)) == RULES.observe(state, 0, random.Random(3))
