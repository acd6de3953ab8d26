"""Hidden information: set speeds, laid cards, hands, stock faces, pile order."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Aim, Move, SetSpeed
from domain.drachenreiter.events import CardLaid, CardsDrawn, DiscardReshuffled, SpeedRevealed
from domain.drachenreiter.race import template_speeds
from domain.drachenreiter.state import Step
from domain.kernel import IllegalMove, Viewer

from .helpers import card_total, clear, dragon, moving, new_race, play, pose, with_traps


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
            state.stock + tuple(t.value for t in state.traps)
        )
        assert RULESET.view(observed, Viewer.of(0)) == RULESET.view(state, Viewer.of(0))
        mine = RULESET.observe(state, 1, random.Random(k)).dragons[1]
        assert (mine.laid, mine.set_speed, mine.hand) == (Magic.AMULET, 600, (Magic.LASSO,))


def test_observe_depends_only_on_what_the_seat_knows() -> None:
    """Platform decision 2: for two states the seat cannot tell apart (the true one and one with everything
    hidden from it resampled) and the same generator, ``observe`` gives the same state: pile, hands, laid
    cards, set speeds and trap values are rebuilt from a canonical order of what is unknown."""
    state = secret_race()
    _, state = play(state, 2, SetSpeed(state.dragons[2].speed))
    for seat in range(3):
        for k in range(8):
            twin = RULESET.observe(state, seat, random.Random(100 + k))
            assert twin != state
            assert RULESET.observe(twin, seat, random.Random(k)) == RULESET.observe(state, seat, random.Random(k))


def test_refusals_do_not_reveal_hidden_state() -> None:
    """Error messages quote the command, never another seat's secrets."""
    state = dragon(secret_race(), 0, hand=(), speed=100)
    for command in (SetSpeed(800), SetSpeed(100, Magic.LASSO)):
        with pytest.raises(IllegalMove) as err:
            play(state, 0, command)
        assert "600" not in err.value.message and "amulet" not in err.value.message


def test_a_speed_reset_by_a_debilitatus_is_known_to_all_and_kept_by_observe() -> None:
    """Rulebook: an exhausted dragon must "régler les deux aiguilles de son indicateur de vitesse sur 300 VD".
    Exhausted before its turn, its speed this round is public (300): ``observe`` must not redraw it, and its
    turn shows 300."""
    state = clear(new_race(3))
    state = dragon(state, 0, pose=pose(state, 100.0), energy=2)
    state = dragon(state, 1, pose=pose(state, 250.0), energy=0)
    state = dragon(state, 2, pose=pose(state, 1500.0))
    state = replace(moving(state, 0, 100, laid=Magic.ENERGY), step=Step.CAST)
    state = dragon(state, 1, set_speed=700)
    _, after = play(state, 0, Aim(1))
    assert after.dragons[1].exhausted and not after.dragons[1].moved and after.mover == 2
    for k in range(12):
        for seat in (0, 2):
            assert template_speeds(RULESET.observe(after, seat, random.Random(k)).dragons[1]) == (300,)
    events, _ = play(after, 2, Move(after.dragons[2].set_speed, 0.0, 0.0))
    assert SpeedRevealed(1, 300) in events


def test_events_and_moves_hide_laid_and_drawn_cards_and_the_reshuffled_pile() -> None:
    """Issue: while the race runs the laid card, each hand and the pile's order are secret: the owner sees its
    cards, the others and spectators only how many."""
    laid, drawn = CardLaid(1, Magic.AMULET), CardsDrawn(1, (Magic.LASSO,))
    pile = DiscardReshuffled((Magic.LASSO, Magic.TRAP))
    for viewer in (Viewer.of(0), Viewer.spectator()):
        assert laid.visible_data(viewer)["card"] == {"hidden": True}
        assert drawn.visible_data(viewer)["cards"] == {"hidden": 1}
        assert SetSpeed(600, Magic.AMULET).visible_data(1, viewer)["card"] == {"hidden": True}
    for viewer in (Viewer.of(0), Viewer.of(1), Viewer.spectator()):
        assert pile.visible_data(viewer)["cards"] == {"hidden": 2}
    assert laid.visible_data(Viewer.of(1))["card"] == "amulet"
    assert drawn.visible_data(Viewer.of(1))["cards"] == ["lasso"]
