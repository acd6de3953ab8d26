"""The race as a picture (issue 22): dragons that show which way they face, and secrets kept."""

from __future__ import annotations

import math
import re

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.state import RaceState
from domain.kernel import Viewer
from tests.support.pictures import NS, accessible, description, last, last_words

from .helpers import clear, dragon, new_race, pose


def _placed(seats: int) -> RaceState:
    state = clear(new_race(seats))
    for seat in range(seats):
        state = dragon(state, seat, place=seat + 1)
    return state


def _arrow_tip(svg: str, seat: int) -> tuple[float, float]:
    """The tip of the arrow of ``seat``'s dragon, in board units."""
    group = next(
        g for g in accessible(svg, 2).iter(f"{NS}g") if g.get("class") == "dragon" and g.get("data-seat") == str(seat)
    )
    head = [p.get("d", "") for p in group.iter(f"{NS}path")][-1]
    x, y = re.match(r"M (\S+) (\S+) ", head).groups()  # type: ignore[union-attr]
    return float(x), float(y)


@pytest.mark.parametrize("turn", [0.0, 90.0, 180.0, -60.0])
def test_a_dragon_shows_which_way_it_faces(turn: float) -> None:
    """README: a base has a front point; the arrow runs from the centre out through it."""
    state = _placed(2)
    d = state.dragons[0]
    state = dragon(state, 0, pose=pose(state, d.pose.progress, 0.0, turn))
    d = state.dragons[0]
    tx, ty = _arrow_tip(RULESET.render_svg(RULESET.view(state, Viewer.spectator())), 0)
    bearing = math.degrees(math.atan2(ty - d.pose.y, tx - d.pose.x))
    assert abs((bearing - d.pose.heading + 180) % 360 - 180) < 1


def test_a_seat_sees_its_own_hand_and_speed_and_no_one_else_does() -> None:
    """Rulebook: a speed is set face down and a hand is its owner's until revealed."""
    state = dragon(_placed(2), 0, hand=(Magic.LASSO, Magic.FIREBALL_800), set_speed=700)
    state = dragon(state, 1, hand=(Magic.FIREBALL_400,), set_speed=None)
    own = accessible(RULESET.render_svg(RULESET.view(state, Viewer.of(0))), 2)
    words = "".join(own.itertext())
    assert "Seat 1 (red): hand: Lasso and Fireball (range 800); speed set 700" in words
    assert "hand: Lasso and Fireball (range 800)" in description(own)
    for viewer in (Viewer.spectator(), Viewer.of(1)):
        text = RULESET.render_svg(RULESET.view(state, viewer))
        accessible(text, 2)
        assert "Lasso" not in text and "Fireball (range 800)" not in text and "speed set 700" not in text
        assert "Seat 1 (red): hand" not in text


def test_the_dragon_of_the_last_decision_is_outlined_and_its_secret_speed_stays_hidden() -> None:
    state = _placed(2)
    move = {"type": "set_speed", "speed": {"hidden": True}}
    root = accessible(RULESET.render_svg(RULESET.view(state, Viewer.spectator()), last(1, move, version=9)), 2)
    outlined = [g.get("data-seat") for g in root.iter(f"{NS}g") if g.get("class") == "dragon"
                and next(g.iter(f"{NS}path")).get("stroke") == "#d4145a"]  # fmt: skip
    assert outlined == ["1"]
    assert last_words(root) == "Last move: seat 2 (blue) played set speed (speed hidden)."
