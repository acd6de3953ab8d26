"""Many candidate moves at once (vectorised shapely), for the bots.

Unlike ``flight.fly`` this does not put crashed dragons back inside: it only
says, for each candidate, whether its template or base would touch a border,
another dragon, a trap, a field or a symbol, and how far its front point gets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from domain.drachenreiter.dimensions import BASE_LENGTH, NOTCH, TEMPLATE_LENGTH
from domain.drachenreiter.flight import trap_discs
from domain.drachenreiter.placement import obstacles
from domain.drachenreiter.shapes import bases, templates
from domain.drachenreiter.state import RaceState
from domain.drachenreiter.track import Track, track

_HALF = BASE_LENGTH / 2
_LENGTHS = np.zeros(801)
_NOTCHES = np.zeros(801)
for _v, _l in TEMPLATE_LENGTH.items():
    _LENGTHS[_v] = _l
    _NOTCHES[_v] = NOTCH[_v]


@dataclass(frozen=True, slots=True)
class Scene:
    """What does not change while a bot weighs its moves: track and obstacles."""

    track: Track
    dragons: shapely.Geometry | None
    traps: shapely.Geometry | None
    fields: shapely.Geometry
    symbols: shapely.Geometry


def scene(state: RaceState, seat: int) -> Scene:
    tr = track(state.layout, state.backwards)
    others = [d.pose for s, d in enumerate(state.dragons) if s != seat and not d.out]
    dragons = obstacles(others)
    traps = shapely.union_all(trap_discs(state)) if state.traps else None
    for g in (dragons, traps):
        if g is not None:
            shapely.prepare(g)
    return Scene(tr, dragons, traps, tr.field_union, tr.symbol_union)


@dataclass(frozen=True, slots=True)
class Survey:
    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray
    progress: np.ndarray
    crash: np.ndarray
    struck: np.ndarray
    traps: np.ndarray
    field: np.ndarray
    symbol: np.ndarray
    margin: np.ndarray


def survey(
    sc: Scene,
    x: np.ndarray,
    y: np.ndarray,
    heading: np.ndarray,
    hint: np.ndarray,
    speed: np.ndarray,
    turn_in: np.ndarray,
    turn_out: np.ndarray,
) -> Survey:
    """Outcomes of moves from poses ``(x, y, heading)`` (arrays of one length)."""
    h = np.radians(heading)
    fx, fy = x + _HALF * np.cos(h), y + _HALF * np.sin(h)
    d = heading + turn_in
    length = _LENGTHS[speed]
    bars = templates(fx, fy, d, length)
    dr = np.radians(d)
    hs = d + turn_out
    hr = np.radians(hs)
    cx = fx + length * np.cos(dr) + _HALF * np.cos(hr)
    cy = fy + length * np.sin(dr) + _HALF * np.sin(hr)
    bodies = bases(cx, cy, hs)
    area = sc.track.area
    crash = ~(np.asarray(shapely.contains_properly(area, bars)) & np.asarray(shapely.contains_properly(area, bodies)))
    nx, ny = cx + _HALF * np.cos(hr), cy + _HALF * np.sin(hr)
    s = sc.track.locate(nx, ny)
    if sc.track.closed:
        s = s + np.round((hint - s) / sc.track.length) * sc.track.length
    none = np.zeros(len(x), dtype=bool)

    def hits(g: shapely.Geometry | None, *shapes: np.ndarray) -> np.ndarray:
        if g is None:
            return none
        out = np.asarray(shapely.intersects(g, shapes[0]))
        for more in shapes[1:]:
            out = out | np.asarray(shapely.intersects(g, more))
        return out

    margin = np.asarray(shapely.distance(sc.track.border, bodies))
    return Survey(
        cx,
        cy,
        hs,
        s,
        crash,
        hits(sc.dragons, bars, bodies),
        hits(sc.traps, bars, bodies),
        hits(sc.fields, bodies),
        hits(sc.symbols, bars, bodies),
        margin,
    )


def grid(speeds: list[int], fractions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate (speed, turn_in, turn_out) for each speed, turns at ``fractions`` of its notch."""
    sp, a, b = [], [], []
    for v in speeds:
        t = fractions * NOTCH[v]
        ta, tb = np.meshgrid(t, t, indexing="ij")
        sp.append(np.full(ta.size, v))
        a.append(ta.ravel())
        b.append(tb.ravel())
    return np.concatenate(sp), np.concatenate(a), np.concatenate(b)
