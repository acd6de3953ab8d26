"""Drawing magic cards is the player's choice.

Rulebook: "Lorsque, pendant le déplacement, l'élément de trajectoire touche un symbole de carte Magie, le
joueur peut tirer une carte Magie et la prendre dans la main. Il en va de même si, après le déplacement, le
dragon touche ce symbole."
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Draw, Move
from domain.drachenreiter.events import CardsDrawn, DrawChosen, DrawOffered, SpeedDialled, TurnEnded
from domain.drachenreiter.state import Step
from domain.kernel import IllegalMove, Rng, Viewer

from .helpers import clear, dragon, moving, new_race, of_type, play, pose, track_of


def over_a_symbol(**changes):
    """Seat 0 about to fly its 100 template over the ring's first symbol."""
    state = clear(new_race())
    sym = track_of(state).symbols[0]
    state = dragon(state, 0, pose=pose(state, sym.s - 45, sym.u), **{"energy": 3, **changes})
    return moving(state, 0, 100)


def test_a_symbol_touched_offers_a_card_that_the_player_may_decline() -> None:
    """Rulebook: "le joueur peut tirer une carte Magie": drawing is optional."""
    state = over_a_symbol(hand=(Magic.LASSO,))
    events, offered = play(state, 0, Move(100, 0.0, 0.0))
    assert events[-1] == DrawOffered(0, 1) and not of_type(events, CardsDrawn)
    assert SpeedDialled(0, 100) in events and offered.step is Step.DRAW
    assert RULESET.awaiting(offered) == (0,)
    assert RULESET.legal_moves(offered, 0) == [Draw(0), Draw(1)]
    events, after = play(offered, 0, Draw(0))
    assert events[0] == DrawChosen(0, 0) and not of_type(events, CardsDrawn) and TurnEnded(0) in events
    assert after.dragons[0].hand == (Magic.LASSO,) and after.deck == state.deck


def test_a_player_who_draws_takes_the_top_card() -> None:
    """Rulebook: "tirer une carte Magie et la prendre dans la main"."""
    state = over_a_symbol(hand=())
    _, offered = play(state, 0, Move(100, 0.0, 0.0))
    events, after = play(offered, 0, Draw(1))
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, state.deck[:1])]
    assert after.dragons[0].hand == state.deck[:1] and after.deck == state.deck[1:]
    assert events[0].visible_data(Viewer.of(1)) == {"seat": 0, "count": 1}


def test_no_more_cards_than_symbols_touched_may_be_drawn() -> None:
    """Rulebook: one card per symbol touched."""
    _, offered = play(over_a_symbol(), 0, Move(100, 0.0, 0.0))
    for count in (2, -1):
        with pytest.raises(IllegalMove) as err:
            play(offered, 0, Draw(count))
        assert err.value.rule == rb.SYMBOL


def test_nothing_is_offered_while_exhausted_or_when_no_card_is_left() -> None:
    """Rulebook: an exhausted dragon "ne peut pas en recevoir d'autres"; with the pile and the discard pile
    empty there is nothing to draw."""
    events, _ = play(over_a_symbol(exhausted=True), 0, Move(100, 0.0, 0.0))
    assert not of_type(events, DrawOffered) and TurnEnded(0) in events
    empty = replace(over_a_symbol(), deck=(), discard=())
    events, _ = play(empty, 0, Move(100, 0.0, 0.0))
    assert not of_type(events, DrawOffered) and TurnEnded(0) in events


def test_a_timed_out_draw_draws_nothing() -> None:
    """Designed: losing the choice is not drawing."""
    _, offered = play(over_a_symbol(), 0, Move(100, 0.0, 0.0))
    events = RULESET.skip(offered, 0, Rng(b"x", "skip"))
    assert events is not None and events[0] == DrawChosen(0, 0) and not of_type(events, CardsDrawn)


@pytest.mark.parametrize("hand", [(), (Magic.AMULET, Magic.LASSO, Magic.FORCE, Magic.FIREBALL_800)])
def test_the_racer_draws_every_card_offered(hand: tuple[Magic, ...]) -> None:
    """Bots: drawing never hurts the drawer (over four cards it discards the one it values least), so the
    racer takes every card it is offered."""
    _, offered = play(over_a_symbol(hand=hand), 0, Move(100, 0.0, 0.0))
    assert RULESET.bot("racer").choose(offered, 0, random.Random(1)) == Draw(1)
