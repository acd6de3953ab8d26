"""The move: template at the front point, dragon at its tip, turns within the notches."""

from __future__ import annotations

import math

import pytest
import shapely

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.commands import Move
from domain.drachenreiter.dimensions import BASE_LENGTH, NOTCH, SPEEDS, TEMPLATE_LENGTH
from domain.drachenreiter.events import DragonFlew, SpeedDialled, TurnEnded
from domain.drachenreiter.legal import turns
from domain.drachenreiter.shapes import base, front_point, rear_point
from domain.drachenreiter.track import track
from domain.kernel import IllegalMove

from .helpers import clear, dragon, moving, new_race, of_type, play, pose


def straight(speed: int = 400):
    """Seat 0 at progress 100 on the ring's start straight (the x axis), to move at ``speed``."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 100.0), energy=3)
    return moving(state, 0, speed)


def test_templates_grow_with_speed_and_turn_less() -> None:
    """README.md: "faster templates are longer and allow less turning ... up to 270° in all at the
    slowest speed"."""
    lengths = [TEMPLATE_LENGTH[v] for v in SPEEDS]
    totals = [2 * NOTCH[v] for v in SPEEDS]
    assert lengths == sorted(lengths) and totals == sorted(totals, reverse=True)
    assert totals[0] == 270.0 and totals[-1] < 45.0


def test_the_dragon_lands_with_its_rear_point_at_the_template_tip() -> None:
    """Rulebook: the template lies "à la pointe avant de la base du dragon"; the dragon is set "de
    sorte que la pointe arrière de la base du dragon touche la pointe de l'élément de trajectoire"."""
    state = straight()
    me = state.dragons[0].pose
    events, after = play(state, 0, Move(400, 30.0, -20.0))
    flew = of_type(events, DragonFlew)[0]
    fx, fy = front_point(me.x, me.y, me.heading)
    assert (flew.template.x, flew.template.y, flew.template.direction) == pytest.approx((fx, fy, 30.0))
    tip = (fx + 130 * math.cos(math.radians(30)), fy + 130 * math.sin(math.radians(30)))
    p = after.dragons[0].pose
    assert rear_point(p.x, p.y, p.heading) == pytest.approx(tip, abs=1e-5)
    assert p.heading == pytest.approx(10.0)


def test_the_whole_template_is_used() -> None:
    """Rulebook: the mover must take the template of the speed on the dial, always all of it."""
    state = straight(600)
    _, after = play(state, 0, Move(600, 0.0, 0.0))
    moved = after.dragons[0].pose.progress - state.dragons[0].pose.progress
    assert moved == pytest.approx(TEMPLATE_LENGTH[600] + BASE_LENGTH)


def test_the_template_must_be_that_of_the_set_speed() -> None:
    """Rulebook: "Essayer d'autres éléments de trajectoire n'est pas autorisé"."""
    with pytest.raises(IllegalMove) as err:
        play(straight(400), 0, Move(500, 0.0, 0.0))
    assert err.value.rule == rb.TEMPLATE


@pytest.mark.parametrize(("turn_in", "turn_out", "rule"), [(61.0, 0.0, rb.TEMPLATE), (0.0, -61.0, rb.LANDING)])
def test_turns_beyond_the_notches_are_refused(turn_in: float, turn_out: float, rule: object) -> None:
    """Rulebook: the ends of a template are notched; the 400 template turns 60° at each end (designed)."""
    with pytest.raises(IllegalMove) as err:
        play(straight(400), 0, Move(400, turn_in, turn_out))
    assert err.value.rule == rule


def test_any_whole_angle_within_the_notches_may_be_submitted() -> None:
    """The listing samples turns every 15°; other whole degrees are just as legal."""
    events, _ = play(straight(400), 0, Move(400, 13.0, -59.0))
    assert of_type(events, DragonFlew)[0].turn_in == 13.0
    assert 13.0 not in turns(400, 15.0)


@pytest.mark.parametrize(("turn_in", "turn_out"), [(12.345, 0.0), (0.0, -59.999), (math.nan, 0.0), (math.inf, 0.0)])
def test_a_turn_is_given_in_whole_degrees(turn_in: float, turn_out: float) -> None:
    """Designed (``move.resolution``): no hand turns a template finer, and every flight then has an
    action in the learning environments. A fraction is refused, naming the rule, and changes nothing."""
    state = straight(400)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Move(400, turn_in, turn_out))
    assert err.value.rule == rb.RESOLUTION and "whole degrees" in err.value.message


def test_the_listing_samples_turns_every_15_degrees_and_the_notch_limits() -> None:
    """Designed resolution: multiples of 15° within the notch, plus the notch itself."""
    assert turns(300, 15.0) == (-80.0, -75.0, -60.0, -45.0, -30.0, -15.0, 0.0, 15.0, 30.0, 45.0, 60.0, 75.0, 80.0)
    state = straight(100)
    assert len(RULESET.legal_moves(state, 0)) == len(turns(100, 15.0)) ** 2 == 361


def test_after_the_move_the_dial_shows_the_speed_and_the_turn_passes() -> None:
    """Rulebook: "Le joueur place ensuite les deux aiguilles sur la vitesse actuelle"."""
    events, after = play(straight(400), 0, Move(400, 0.0, 0.0))
    assert SpeedDialled(0, 400) in events and TurnEnded(0) in events
    assert after.dragons[0].speed == 400 and after.dragons[0].moved
    assert after.mover == 1


def test_preview_forecasts_the_end_pose_and_touches() -> None:
    """``preview`` gives the end pose and what the move touches, as ``decide`` then finds."""
    state = straight(400)
    seen = RULESET.preview(state, 0, Move(400, 15.0, 15.0))
    _, after = play(state, 0, Move(400, 15.0, 15.0))
    p = after.dragons[0].pose
    assert (seen["x"], seen["y"], seen["heading"]) == pytest.approx((p.x, p.y, p.heading))
    assert seen["crash"] is None and seen["struck"] == []
    assert RULESET.preview(state, 0, Move(400, 99.0, 0.0)) is None


def test_a_move_never_leaves_the_dragon_overlapping_a_border() -> None:
    """Rulebook: once set, "le dragon ne doit plus toucher les bordures"."""
    state = straight(100)
    area = track("ring").area
    for m in RULESET.legal_moves(state, 0)[::7]:
        _, after = play(state, 0, m)
        p = after.dragons[0].pose
        assert shapely.contains_properly(area, base(p.x, p.y, p.heading))
