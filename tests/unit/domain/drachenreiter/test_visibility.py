"""Hidden information: set speeds, laid cards, hands, stock faces, pile order."""

from __future__ import annotations

import random

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import SetSpeed
from domain.kernel import IllegalMove, Viewer

from .helpers import card_total, dragon, new_race, play, with_traps


def secret_race():
    state = new_race(3)
    state = dragon(state, 1, hand=(Magic.LASSO, Magic.AMULET))
    _, state = play(state, 1, SetSpeed(600, Magic.AMULET))
    return with_traps(state, (900.0, 0.0, 2))


def test_others_see_counts_not_cards_speeds_or_trap_faces() -> None:
    """While the race runs a seat sees only its own hand, laid card and set speed."""
    state = secret_race()
    theirs = RULESET.view(state, Viewer.of(0))
    d = theirs["dragons"][1]
    assert d["hand"] is None and d["hand_size"] == 1
    assert d["laid"] is None and d["card_laid"] and d["set_speed"] is None and d["speed_set"]
    assert theirs["traps"][0]["value"] is None
    mine = RULESET.view(state, Viewer.of(1))["dragons"][1]
    assert mine["hand"] == ["lasso"] and mine["laid"] == "amulet" and mine["set_speed"] == 600
    assert RULESET.view(state, Viewer.everyone())["traps"][0]["value"] == 2


def test_observe_resamples_only_what_the_seat_cannot_see() -> None:
    """``observe`` keeps the seat's own secrets and shuffles the rest consistently."""
    state = secret_race()
    seen = {RULESET.observe(state, 0, random.Random(k)).dragons[1].laid for k in range(30)}
    assert len(seen) > 1
    for k in range(10):
        observed = RULESET.observe(state, 0, random.Random(k))
        assert observed.dragons[0].hand == state.dragons[0].hand
        assert card_total(observed) == card_total(state)
        assert sorted(observed.stock + tuple(t.value for t in observed.traps)) == sorted(
            state.stock + tuple(t.value for t in state.traps))
        assert RULESET.view(observed, Viewer.of(0)) == RULESET.view(state, Viewer.of(0))
        mine = RULESET.observe(state, 1, random.Random(k)).dragons[1]
        assert (mine.laid, mine.set_speed, mine.hand) == (Magic.AMULET, 600, (Magic.LASSO,))


def test_refusals_do_not_reveal_hidden_state() -> None:
    """Error messages quote the command, never another seat's secrets."""
    state = dragon(secret_race(), 0, hand=(), speed=100)
    for command in (SetSpeed(800), SetSpeed(100, Magic.LASSO)):
        with pytest.raises(IllegalMove) as err:
            play(state, 0, command)
        assert "600" not in err.value.message and "amulet" not in err.value.message
