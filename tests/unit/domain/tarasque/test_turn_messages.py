"""A decision refused for its timing says why in words true in that case (a dispute quotes them)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.kernel import NotYourTurn, Rng
from domain.tarasque.commands import Roll
from domain.tarasque.ruleset import RULESET
from domain.tarasque.state import Phase


def started(seats: int = 2) -> object:
    state, _ = RULESET.new_game(RULESET.configure(None, None, seats), Rng(b"messages", "setup"))
    return state


def refusal(state: object, seat: int) -> str:
    with pytest.raises(NotYourTurn) as refused:
        RULESET.decide(state, seat, Roll(), Rng(b"messages", "d"))
    return refused.value.message


def test_another_seats_turn_names_both_seats() -> None:
    state = started()
    active = state.turn.seat  # type: ignore[attr-defined]
    assert refusal(state, 1 - active) == f"roll: it is seat {active}'s turn, not seat {1 - active}'s"


def test_a_turn_being_set_up_awaits_no_one() -> None:
    state = started()
    setting_up = dataclasses.replace(state, turn=dataclasses.replace(state.turn, phase=Phase.REFILL))  # type: ignore[attr-defined]
    message = refusal(setting_up, state.turn.seat)  # type: ignore[attr-defined]
    assert message == "roll: no decision is awaited now: the turn is being set up"
