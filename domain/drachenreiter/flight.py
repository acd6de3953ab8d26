"""What a move touches: the geometry of one flight, computed without any event.

``fly`` is shared by ``decide`` (which turns it into events), ``preview`` and the
tests; the bots weigh many moves at once with ``survey``. Order of the move
(rulebook, "Les déplacements" and "Provoquer un crash"):

1. the template of the speed is laid at the front point, turned by ``turn_in``;
2. if it touches a border, the dragon stops inside where it touched (facing along
   the track until its player turns it, ``Face``) and only the template up to the
   contact counts;
3. else the dragon is set with its rear point at the tip, turned by ``turn_out``;
   if its base then touches a border it is put back inside at the same height;
4. what the (counted) template or the final base touches is collected (``touches``):
   other dragons, symbols and traps; energy fields count for the base only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from domain.drachenreiter.dimensions import TEMPLATE_LENGTH, TRAP_RADIUS
from domain.drachenreiter.placement import obstacles, pose_at, settle
from domain.drachenreiter.shapes import base, bases, centre_behind, fix, front_point, norm, template
from domain.drachenreiter.state import Pose, RaceState, TemplatePose
from domain.drachenreiter.track import Track, track


@dataclass(frozen=True, slots=True)
class Flight:
    """The outcome of a move, before any energy or card is counted."""

    template: TemplatePose
    turn_in: float
    turn_out: float
    landing: Pose
    """Where the dragon was set (at the tip, or where the template stopped)."""
    crash: str
    """"" (none), "template" or "dragon"."""
    final: Pose
    struck: tuple[int, ...]
    fields: tuple[int, ...]
    """Fields the final base touches (energy)."""
    haven: int
    """The last field crossed by the template or the base, or -1."""
    symbols: tuple[int, ...]
    traps: tuple[int, ...]
    """Ids of the traps touched."""

    @property
    def touched(self) -> Touches:
        return Touches(self.struck, self.fields, self.haven, self.symbols, self.traps)


@dataclass(frozen=True, slots=True)
class Touches:
    """What a counted template and a final base touch."""

    struck: tuple[int, ...]
    fields: tuple[int, ...]
    """Fields the final base touches (energy)."""
    haven: int
    """The last field crossed by the template or the base, or -1."""
    symbols: tuple[int, ...]
    traps: tuple[int, ...]


NO_TOUCHES = Touches((), (), -1, (), ())


def track_of(state: RaceState) -> Track:
    return track(state.layout, state.backwards)


def other_bases(state: RaceState, seat: int) -> tuple[list[int], np.ndarray]:
    """Seats and bases of the dragons still racing, other than ``seat``."""
    seats = [s for s, d in enumerate(state.dragons) if s != seat and not d.out]
    poses = [state.dragons[s].pose for s in seats]
    shapes = (
        bases(np.array([p.x for p in poses]), np.array([p.y for p in poses]), np.array([p.heading for p in poses]))
        if poses
        else np.array([])
    )
    return seats, shapes


def contact(tr: Track, shape: shapely.Geometry, fx: float, fy: float, direction: float) -> float:
    """How far along its axis a template first touches a border."""
    inter = shapely.intersection(shape, tr.border)
    coords = shapely.get_coordinates(inter)
    if len(coords) == 0:
        return 0.0
    d = math.radians(direction)
    along = (coords[:, 0] - fx) * math.cos(d) + (coords[:, 1] - fy) * math.sin(d)
    return max(0.0, float(along.min()))


def fly(
    state: RaceState,
    seat: int,
    speed: int,
    turn_in: float,
    turn_out: float,
    crash_touches: bool = True,
    counted: bool = True,
) -> Flight:
    """The flight of ``seat``'s dragon with the template of ``speed`` (see module doc).
    Without ``crash_touches``, a flight stopped by a template crash reports no touches:
    they are counted once its player has turned it (``decide`` does not need them).
    Without ``counted``, no flight reports touches (a preview's path needs none)."""
    tr = track_of(state)
    me = state.dragons[seat].pose
    fx, fy = front_point(me.x, me.y, me.heading)
    direction = me.heading + turn_in
    length = TEMPLATE_LENGTH[speed]
    bar = template(fx, fy, direction, length)
    blockers = obstacles([d.pose for s, d in enumerate(state.dragons) if s != seat and not d.out])
    crash = ""
    if tr.touches_border(bar):
        crash = "template"
        reach = contact(tr, bar, fx, fy, direction)
        d = math.radians(direction)
        cx, cy = fx + reach * math.cos(d), fy + reach * math.sin(d)
        s = tr.progress(cx, cy, me.progress)
        landing = settle(tr, s, tr.lateral(s, cx, cy), None, blockers, me.progress) or me
        final = landing
        bar = template(fx, fy, direction, max(reach, 1e-3))
    else:
        reach = length
        d = math.radians(direction)
        heading = direction + turn_out
        x, y = centre_behind(fx + length * math.cos(d), fy + length * math.sin(d), heading)
        landing = pose_at(tr, x, y, heading, me.progress)
        final = landing
        if tr.touches_border(base(x, y, heading)):
            crash = "dragon"
            s = tr.progress(x, y, me.progress)
            final = (
                settle(tr, s, tr.lateral(s, x, y), heading, blockers, me.progress)
                or settle(tr, s, 0.0, None, blockers, me.progress)
                or me
            )
    t = touches(state, seat, bar, final) if counted and (crash != "template" or crash_touches) else NO_TOUCHES
    return Flight(
        TemplatePose(seat, speed, fix(fx), fix(fy), norm(direction), length, fix(reach)),
        fix(turn_in),
        fix(turn_out),
        landing,
        crash,
        final,
        t.struck,
        t.fields,
        t.haven,
        t.symbols,
        t.traps,
    )


def counted_bar(t: TemplatePose) -> shapely.Polygon:
    """The part of a laid template that counts (up to the border it touched, if any)."""
    return template(t.x, t.y, t.direction, max(t.reach, 1e-3))


def touches(state: RaceState, seat: int, bar: shapely.Polygon, final: Pose) -> Touches:
    """What the counted template ``bar`` and ``seat``'s base at ``final`` touch."""
    tr = track_of(state)
    seats, others = other_bases(state, seat)
    body = base(final.x, final.y, final.heading)
    both = np.array([bar, body])
    struck = tuple(s for s, o in zip(seats, others, strict=True) if shapely.intersects(o, both).any())
    field_hit = shapely.intersects(tr.field_shapes, body)
    crossed = [i for i, f in enumerate(tr.field_shapes) if field_hit[i] or shapely.intersects(f, bar)]
    haven = max(crossed, key=lambda i: tr.unwrap(np.array([tr.fields[i].s]), final.progress)[0], default=-1)
    symbols = tuple(i for i, g in enumerate(tr.symbol_shapes) if shapely.intersects(g, both).any())
    traps = touched_traps(state, both)
    fields = tuple(int(i) for i in np.flatnonzero(field_hit))
    return Touches(struck, fields, haven, symbols, traps)


def touched_traps(state: RaceState, shapes: np.ndarray) -> tuple[int, ...]:
    """Ids of the traps on the track that any of ``shapes`` touches."""
    if not state.traps:
        return ()
    discs = trap_discs(state)
    touching = np.asarray(shapely.intersects(discs[:, None], shapes[None, :]))
    hit = np.asarray(touching.any(axis=1))
    return tuple(t.id for t, h in zip(state.traps, hit, strict=True) if h)


def trap_discs(state: RaceState) -> np.ndarray:
    """The trap tokens on the track as discs, in ``state.traps`` order."""
    return np.asarray(shapely.buffer(shapely.points([(t.x, t.y) for t in state.traps]), TRAP_RADIUS, quad_segs=6))
