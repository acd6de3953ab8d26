"""The tracks as data: 15 elements, closed circuits that close, printed things inside."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from domain.drachenreiter.dimensions import TRACK_WIDTH, YELLOW_SPACING
from domain.drachenreiter.layouts import LAYOUTS
from domain.drachenreiter.shapes import base
from domain.drachenreiter.track import runs_backwards, track

NAMES = sorted(LAYOUTS)


@pytest.mark.parametrize("name", NAMES)
def test_every_layout_uses_fifteen_elements(name: str) -> None:
    """Rulebook: "il faut simplement veiller à toujours utiliser 15 éléments de parcours"."""
    assert len(LAYOUTS[name].elements) == 15


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("backwards", [False, True])
def test_a_track_is_one_valid_band_of_constant_width(name: str, backwards: bool) -> None:
    """README.md: polygons for the track; a circuit is a ring, a course a band."""
    tr = track(name, backwards)
    assert tr.area.is_valid
    assert len(tr.area.interiors) == (1 if tr.closed else 0)
    assert tr.area.area == pytest.approx(tr.length * TRACK_WIDTH, rel=0.01)


@pytest.mark.parametrize("name", [n for n in NAMES if LAYOUTS[n].closed])
def test_a_circuit_closes_on_itself(name: str) -> None:
    """A closed circuit ends where it starts, facing the same way."""
    tr = track(name)
    assert (tr.xs[-1], tr.ys[-1]) == pytest.approx((tr.xs[0], tr.ys[0]), abs=1e-6)
    assert tr.hs[-1] - tr.hs[0] == pytest.approx(360.0)


def test_at_least_one_layout_is_a_course_run_either_way() -> None:
    """Rulebook: "la case départ pour quatre est le départ et la case départ pour six est
    l'arrivée, ou vice versa": up to four run it forwards, five or six backwards."""
    courses = [n for n in NAMES if not LAYOUTS[n].closed]
    assert courses
    assert not runs_backwards(courses[0], 4) and runs_backwards(courses[0], 5)
    assert not runs_backwards("ring", 6)
    ahead, back = track(courses[0]), track(courses[0], True)
    assert (ahead.xs[0], ahead.ys[0]) == pytest.approx((back.xs[-1], back.ys[-1]), abs=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_fields_symbols_and_grid_places_lie_inside_apart(name: str) -> None:
    """Fields, symbols and the six start places lie on the track without overlapping."""
    tr = track(name)
    printed = list(tr.field_shapes) + list(tr.symbol_shapes)
    places = [base(*g) for g in tr.grid]
    for shape in printed + places:
        assert tr.area.contains_properly(shape)
    for i, a in enumerate(printed + places):
        for b in (printed + places)[i + 1 :]:
            assert not a.intersects(b)


@pytest.mark.parametrize("name", NAMES)
def test_progress_and_offset_map_back_and_forth(name: str) -> None:
    """Progress along the centre line orders the race; a point maps back to its ``(s, u)``."""
    tr = track(name)
    for s in np.linspace(10, tr.length - 10, 37):
        for u in (-80.0, 0.0, 60.0):
            x, y = tr.point_at(s, u)
            got = tr.progress(x, y, s)
            assert got == pytest.approx(s, abs=0.5)
            assert tr.lateral(got, x, y) == pytest.approx(u, abs=0.5)


def test_yellow_lines_mark_progress_at_a_fixed_spacing() -> None:
    """The yellow lines are the visible marks of progress."""
    tr = track("ring")
    assert np.diff(tr.yellow) == pytest.approx(YELLOW_SPACING)


def test_the_finish_of_a_circuit_is_one_lap_ahead_of_the_grid() -> None:
    """On a circuit the race is one lap: the line lies just ahead of the grid, a lap on."""
    tr = track("ring")
    front = max(tr.progress(*shapely.get_coordinates(base(*g))[0], 0.0) for g in tr.grid)
    assert front < tr.finish_s < front + 100
    assert tr.finish == tr.finish_s + tr.length
