"""Headings chosen by the players: after a template crash and after a lasso (the alliance's is in
``test_alliance``)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
import shapely

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Aim, Face, Move
from domain.drachenreiter.events import (
    DragonFaced,
    EnergyLost,
    HeadingAwaited,
    SpeedDialled,
    TemplateCrashed,
    TrapSprung,
    TurnEnded,
)
from domain.drachenreiter.facing import HEADING_STEP
from domain.drachenreiter.flight import fly
from domain.drachenreiter.shapes import base
from domain.drachenreiter.state import Facing, Step
from domain.kernel import IllegalMove, NotYourTurn, Rng

from .helpers import clear, dragon, moving, new_race, of_type, play, pose, track_of, with_traps


def crashing(seats: int = 2, **changes):
    """Seat 0 centred at progress 200 of the ring's start straight, to fly its 400 template 60° right
    into the border (it stops at (280.4, -80), facing along the track)."""
    state = clear(new_race(seats))
    state = dragon(state, 0, pose=pose(state, 200.0), **{"energy": 3, **changes})
    return moving(state, 0, 400)


CRASH = Move(400, -60.0, 0.0)


def test_after_a_template_crash_the_player_chooses_the_heading() -> None:
    """Rulebook: "il doit placer son dragon à l'intérieur du parcours, à l'endroit où l'élément de trajectoire a
    touché la bordure [...] Le dragon peut être tourné dans le sens souhaité"."""
    events, state = play(crashing(), 0, CRASH)
    stopped = of_type(events, TemplateCrashed)[0].pose
    assert events[-1] == HeadingAwaited(0, Facing.CRASH) and state.step is Step.FACE
    assert RULESET.awaiting(state) == (0,) and not of_type(events, EnergyLost)
    events, after = play(state, 0, Face(45.0))
    faced = of_type(events, DragonFaced)[0]
    assert faced.cause is Facing.CRASH and faced.pose.heading == 45.0
    assert faced.pose.x == pytest.approx(stopped.x) and -80.0 <= faced.pose.y < 0.0  # same height, inside
    p = faced.pose
    assert shapely.contains_properly(track_of(state).area, base(p.x, p.y, p.heading))
    assert EnergyLost(0, 2, "template crash") in events and SpeedDialled(0, 100) in events
    assert after.dragons[0].pose.heading == 45.0 and TurnEnded(0) in events


def test_a_turned_dragon_is_moved_across_to_fit_at_the_same_height() -> None:
    """Rulebook: the dragon is placed "à l'intérieur du parcours", where the template touched, turned as the
    player wishes: turned across the track beside the border, it is moved inward at that height."""
    _, state = play(crashing(), 0, CRASH)
    stopped = state.dragons[0].pose
    events, _ = play(state, 0, Face(-90.0))
    p = of_type(events, DragonFaced)[0].pose
    assert p.heading == -90.0 and p.x == pytest.approx(stopped.x) and p.y > stopped.y
    assert shapely.contains_properly(track_of(state).area, base(p.x, p.y, p.heading))


def test_a_heading_that_fits_nowhere_at_that_height_is_refused() -> None:
    """Rulebook: placed inside the borders and, like any placed dragon, touching no other: with dragons across
    the track at that height, the dragon may only keep a heading that fits."""
    _, state = play(crashing(4), 0, CRASH)
    x = state.dragons[0].pose.x
    for seat, u in ((1, -40.0), (2, 20.0), (3, 75.0)):
        state = dragon(state, seat, pose=pose(state, x, u))
    assert Face(-90.0) not in RULESET.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Face(-90.0))
    assert err.value.rule == rb.CRASH_HEADING
    with pytest.raises(IllegalMove):
        play(state, 0, Face(math.nan))


def test_what_the_turned_dragon_touches_counts() -> None:
    """Rulebook: what the dragon touches "après le déplacement" counts: a trap just beside the stopped dragon is
    sprung when its player turns the dragon onto it, not when it leaves it as placed."""
    state = crashing()
    stopped = fly(state, 0, 400, -60.0, 0.0).final
    trap = (stopped.x, stopped.y + 30.0)
    state = with_traps(state, (*trap, 1))
    disc = shapely.Point(trap).buffer(11.0)
    assert not base(stopped.x, stopped.y, stopped.heading).intersects(disc)
    _, crashed = play(state, 0, CRASH)
    events, _ = play(crashed, 0, Face(90.0))
    assert [e.trap for e in of_type(events, TrapSprung)] == [100]
    events, _ = play(crashed, 0, Face(stopped.heading))
    assert not of_type(events, TrapSprung)


def test_the_listing_samples_headings_that_fit_and_all_are_accepted() -> None:
    """Designed resolution: the heading as placed, then every 15° that leaves the dragon inside and clear."""
    _, state = play(crashing(), 0, CRASH)
    listed = RULESET.legal_moves(state, 0)
    placed = state.dragons[0].pose.heading
    assert listed[0] == Face(placed) and HEADING_STEP == 15.0
    assert all(m.heading % 15.0 == 0.0 for m in listed[1:]) and len(listed) == 24
    for m in listed:
        play(state, 0, m)


def test_any_whole_heading_that_fits_may_be_submitted() -> None:
    """Headings are whole degrees (``move.resolution``): the listing is a sample of them."""
    _, state = play(crashing(), 0, CRASH)
    events, _ = play(state, 0, Face(13.0))
    assert of_type(events, DragonFaced)[0].pose.heading == 13.0


def test_a_heading_is_whole_or_the_one_as_placed() -> None:
    """Designed (``move.resolution``): a fraction of a degree is refused, except the heading as placed
    (listed first, kept as it is); a whole heading within half a degree of that one is refused too, so
    no two headings a player may give round to the same degree."""
    _, state = play(crashing(), 0, CRASH)
    state = dragon(state, 0, pose=replace(state.dragons[0].pose, heading=0.3))
    listed = RULESET.legal_moves(state, 0)
    assert listed[0] == Face(0.3) and Face(0.0) not in listed and Face(15.0) in listed
    events, _ = play(state, 0, Face(0.3))
    assert of_type(events, DragonFaced)[0].pose == state.dragons[0].pose, "kept as placed"
    events, _ = play(state, 0, Face(1.0))
    assert of_type(events, DragonFaced)[0].pose.heading == 1.0
    for heading, words in ((12.345, "whole number of degrees"), (0.0, "within half a degree"), (math.nan, "whole")):
        with pytest.raises(IllegalMove) as err:
            play(state, 0, Face(heading))
        assert err.value.rule == rb.RESOLUTION and words in err.value.message


def test_a_timed_out_heading_leaves_the_dragon_as_placed() -> None:
    """Designed: losing the choice keeps the heading it was placed with."""
    _, state = play(crashing(), 0, CRASH)
    events = RULESET.skip(state, 0, Rng(b"x", "skip"))
    assert events is not None and of_type(events, DragonFaced)[0].pose == state.dragons[0].pose


def test_the_lassoed_dragons_player_chooses_its_heading() -> None:
    """Rulebook: "Le joueur du dragon déplacé peut le faire pivoter à sa guise tout en le laissant à son nouvel
    emplacement": the lassoed dragon's player is asked, not the caster's; the caster's turn then ends."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 100.0), energy=2)
    state = dragon(state, 1, pose=pose(state, 300.0, 50.0), energy=3)
    state = replace(moving(state, 0, 100, laid=Magic.LASSO), step=Step.CAST)
    events, state = play(state, 0, Aim(1))
    assert events[-1] == HeadingAwaited(1, Facing.LASSO) and RULESET.awaiting(state) == (1,)
    assert TurnEnded(0) not in events
    with pytest.raises(NotYourTurn):
        play(state, 0, Face(0.0))
    pulled = state.dragons[1].pose
    events, after = play(state, 1, Face(-30.0))
    assert events[:2] == [DragonFaced(1, Facing.LASSO, replace(after.dragons[1].pose), -1), TurnEnded(0)]
    p = after.dragons[1].pose
    assert (p.x, p.y, p.heading) == (pulled.x, pulled.y, -30.0)


def test_a_lassoed_dragon_turns_in_place_only() -> None:
    """Rulebook: it is turned "tout en le laissant à son nouvel emplacement": pulled beside the border, it may not
    turn across it."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 100.0, 80.0), energy=2)
    state = dragon(state, 1, pose=pose(state, 300.0, 50.0), energy=3)
    state = replace(moving(state, 0, 100, laid=Magic.LASSO), step=Step.CAST)
    _, state = play(state, 0, Aim(1))
    with pytest.raises(IllegalMove) as err:
        play(state, 1, Face(90.0))
    assert err.value.rule == rb.LASSO_HEADING
    assert Face(90.0) not in RULESET.legal_moves(state, 1)


def test_a_lassoed_dragon_that_leaves_ends_the_casters_turn() -> None:
    """Platform: a seat that leaves is out of the race; the game goes on."""
    state = clear(new_race(3))
    state = dragon(state, 0, pose=pose(state, 100.0), energy=2)
    state = dragon(state, 1, pose=pose(state, 300.0, 50.0), energy=3)
    state = replace(moving(state, 0, 100, laid=Magic.LASSO), step=Step.CAST)
    _, state = play(state, 0, Aim(1))
    events = RULESET.leave(state, 1, Rng(b"x", "leave"))
    after = RULESET.fold(state, events)
    assert TurnEnded(0) in events and after.step is Step.FLY and after.mover == 2


def test_the_racer_turns_a_crashed_dragon_to_fly_on() -> None:
    """Bots: after a crash the racer faces where its next move goes furthest, never back down the track."""
    _, state = play(crashing(), 0, CRASH)
    move = RULESET.bot("racer").choose(state, 0, random.Random(1))
    assert isinstance(move, Face)
    along = track_of(state).heading_at(300.0)
    assert abs((move.heading - along + 180.0) % 360.0 - 180.0) <= 60.0
