"""A track built from its layout: centre line, borders, fields, symbols and lines.

Geometry is built once per ``(layout, reversed)`` and cached at module level
(``functools.cache``), so states hold only plain floats. Progress ``s`` runs
along the centre line from the start of the first element; the offset ``u`` is
taken to the left of the direction of the race. Progress is what orders the race
(rulebook: "En cas de doute, on peut mesurer la distance à l'aide de la prochaine
ligne jaune"); the yellow lines are its visible marks.
"""

from __future__ import annotations

import math
import threading
from bisect import bisect_right
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from domain.drachenreiter.dimensions import (
    FIELD_RADIUS,
    GRID_LATERAL,
    GRID_SPACING,
    SYMBOL_RADIUS,
    TRACK_WIDTH,
    YELLOW_SPACING,
)
from domain.drachenreiter.layouts import LAYOUTS, Curve, Element, Layout, Straight

ARC_STEP = 2.0
"""Designed: the centre line is drawn with a vertex every 2° along curves (exact arcs are used for progress)."""
GRID_FRONT = 320.0
"""Designed: the first start place's centre is 320 into the start element."""
FINISH_INTO_LAST = 40.0
"""Designed: on a course, the finish line lies 40 into its last element."""
CLOSED_FINISH = 360.0
"""Designed: on a circuit, the finish line lies 360 into the start element, ahead of the grid."""
FRAME_MARGIN = 60.0
"""Designed: the frame runs 60 outside the track's outermost points."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A printed disc on the track (an energy field or a symbol)."""

    s: float
    u: float
    x: float
    y: float


class Track:
    """The built geometry of one layout run in one direction (read-only)."""

    def __init__(self, layout: Layout, backwards: bool) -> None:
        self.layout = layout
        self.backwards = backwards
        self.closed = layout.closed
        elements = _reversed(layout.elements) if backwards else layout.elements
        start = _end_pose(layout.elements, (0.0, 0.0, 0.0)) if backwards else (0.0, 0.0, 0.0)
        if backwards:
            start = (start[0], start[1], start[2] + 180.0)
        xs, ys, hs = _sample(elements, start)
        self.xs, self.ys, self.hs = xs, ys, hs
        self._table = _table(elements, start)
        self._starts = [e.start for e in self._table]
        self._arrays = {
            name: np.array([getattr(e, name) for e in self._table], dtype=float)
            for name in ("start", "length", "x", "y", "heading", "radius", "sign", "cx", "cy")
        }
        self.length = self._table[-1].start + self._table[-1].length
        self.centre = shapely.LineString(np.column_stack([xs, ys]))
        half = TRACK_WIDTH / 2
        left = np.column_stack([xs - half * np.sin(np.radians(hs)), ys + half * np.cos(np.radians(hs))])
        right = np.column_stack([xs + half * np.sin(np.radians(hs)), ys - half * np.cos(np.radians(hs))])
        if self.closed:
            outer, inner = shapely.Polygon(left), shapely.Polygon(right)
            if inner.area > outer.area:
                outer, inner = inner, outer
            self.area = shapely.Polygon(outer.exterior.coords, [inner.exterior.coords])
        else:
            self.area = shapely.Polygon(np.vstack([left, right[::-1]]))
        shapely.prepare(self.area)
        self.border = self.area.boundary
        shapely.prepare(self.border)
        self.fields = tuple(self._spot(s, u) for s, u in layout.fields)
        self.symbols = tuple(self._spot(s, u) for s, u in layout.symbols)
        self.field_shapes = _discs(self.fields, FIELD_RADIUS)
        self.symbol_shapes = _discs(self.symbols, SYMBOL_RADIUS)
        shapely.prepare(self.field_shapes)
        shapely.prepare(self.symbol_shapes)
        self.printed = shapely.union_all(np.concatenate([self.field_shapes, self.symbol_shapes]))
        self.field_union = shapely.union_all(self.field_shapes)
        self.symbol_union = shapely.union_all(self.symbol_shapes)
        shapely.prepare([self.printed, self.field_union, self.symbol_union])
        if self.closed:
            self.finish_s = CLOSED_FINISH
            self.finish = CLOSED_FINISH + self.length
        else:
            self.finish_s = self.length - self._table[-1].length + FINISH_INTO_LAST
            self.finish = self.finish_s
        self.yellow = tuple(float(s) for s in np.arange(YELLOW_SPACING, self.length - 1.0, YELLOW_SPACING))
        minx, miny, maxx, maxy = self.area.bounds
        self.frame = (minx - FRAME_MARGIN, miny - FRAME_MARGIN, maxx + FRAME_MARGIN, maxy + FRAME_MARGIN)
        self.grid = tuple(self.grid_place(k) for k in range(1, 7))

    # ------------------------------------------------------------ frames of reference

    def wrap(self, s: float) -> float:
        """``s`` brought onto the track: modulo the lap on a circuit, clamped on a course."""
        if self.closed:
            return s % self.length
        return min(max(s, 0.0), self.length)

    def _piece(self, s: float) -> tuple[int, float]:
        """The element holding progress ``s`` and how far into it ``s`` lies."""
        s = self.wrap(s)
        k = max(0, min(bisect_right(self._starts, s) - 1, len(self._starts) - 1))
        return k, s - self._starts[k]

    def heading_at(self, s: float) -> float:
        """The direction of the race at progress ``s``, in degrees (unwrapped)."""
        k, d = self._piece(s)
        e = self._table[k]
        if e.radius == 0.0:
            return e.heading
        return e.heading + math.degrees(e.sign * d / e.radius)

    def point_at(self, s: float, u: float) -> tuple[float, float]:
        """The point at progress ``s`` and offset ``u`` (left positive), on exact arcs."""
        k, d = self._piece(s)
        e = self._table[k]
        h = math.radians(self.heading_at(s))
        if e.radius == 0.0:
            x = e.x + d * math.cos(h)
            y = e.y + d * math.sin(h)
        else:
            x = e.cx + e.sign * e.radius * math.sin(h)
            y = e.cy - e.sign * e.radius * math.cos(h)
        return x - u * math.sin(h), y + u * math.cos(h)

    def inside_sign(self, s: float) -> int:
        """+1 when the inside of the track is on the left at ``s``, −1 on the right."""
        return self._table[self._piece(s)[0]].inside

    def locate(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Progress of the nearest centre-line points, on exact arcs (vectorised,
        within one lap): each element's nearest point, the nearest element kept."""
        return self._project(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))[0]

    def _project(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = self._arrays
        px, py = xs[None, :], ys[None, :]
        h = np.radians(t["heading"])[:, None]
        c, sn = np.cos(h), np.sin(h)
        length = t["length"][:, None]
        # straights
        along = (px - t["x"][:, None]) * c + (py - t["y"][:, None]) * sn
        across = -(px - t["x"][:, None]) * sn + (py - t["y"][:, None]) * c
        d_st = np.clip(along, 0.0, length)
        dist_st = np.hypot(along - d_st, across)
        # arcs
        radius = np.where(t["radius"] > 0, t["radius"], 1.0)[:, None]
        sign = t["sign"][:, None]
        vx, vy = px - t["cx"][:, None], py - t["cy"][:, None]
        r = np.hypot(vx, vy)
        phi = np.arctan2(vy, vx) + sign * (np.pi / 2)
        theta = ((phi - h) * sign) % (2 * np.pi)
        sweep = length / radius
        theta = np.where(theta > sweep + (2 * np.pi - sweep) / 2, theta - 2 * np.pi, theta)
        d_arc = np.clip(theta, 0.0, sweep) * radius
        ha = h + sign * d_arc / radius
        ax = t["cx"][:, None] + sign * radius * np.sin(ha)
        ay = t["cy"][:, None] - sign * radius * np.cos(ha)
        dist_arc = np.hypot(px - ax, py - ay)
        u_arc = sign * (radius - r)
        is_arc = (t["radius"] > 0)[:, None]
        dist = np.where(is_arc, dist_arc, dist_st)
        d = np.where(is_arc, d_arc, d_st)
        u = np.where(is_arc, u_arc, across)
        best = np.argmin(dist, axis=0)
        cols = np.arange(dist.shape[1])
        return t["start"][best] + d[best, cols], u[best, cols]

    def progress(self, x: float, y: float, hint: float) -> float:
        """Progress of the point ``(x, y)``, unwrapped to the lap nearest ``hint``."""
        return float(self.unwrap(self.locate(np.array([x]), np.array([y])), hint)[0])

    def unwrap(self, s: np.ndarray, hint: float | np.ndarray) -> np.ndarray:
        """Lap-unwraps progresses ``s`` (within one lap) to those nearest ``hint``."""
        if not self.closed:
            return s
        return s + np.round((hint - s) / self.length) * self.length

    def lap(self, s: float, near: float) -> int:
        """The lap (0 the first) of the instance of progress ``s`` (within one lap) nearest
        ``near``; always 0 on a course."""
        if not self.closed:
            return 0
        return round((near - s) / self.length)

    def lateral(self, s: float, x: float, y: float) -> float:
        """The offset of ``(x, y)`` from the centre line at progress ``s``."""
        cx, cy = self.point_at(s, 0.0)
        h = math.radians(self.heading_at(s))
        return (x - cx) * -math.sin(h) + (y - cy) * math.cos(h)

    # ------------------------------------------------------------ printed things

    def _spot(self, s: float, u: float) -> Spot:
        if self.backwards:
            s, u = self.length - s, -u
        x, y = self.point_at(s, u)
        return Spot(s, u, x, y)

    def grid_place(self, place: int) -> tuple[float, float, float]:
        """Start place ``place`` (1 to 6): centre and heading. Place 1 is ahead on the right."""
        s = GRID_FRONT - (place - 1) * GRID_SPACING
        u = -GRID_LATERAL if place % 2 else GRID_LATERAL
        x, y = self.point_at(s, u)
        return x, y, self.heading_at(s)

    def touches_border(self, shapes: np.ndarray | BaseGeometry) -> np.ndarray | bool:
        """Whether each shape touches (or crosses) a border: it is not properly inside."""
        return ~np.asarray(shapely.contains_properly(self.area, shapes))


@dataclass(frozen=True, slots=True)
class _Piece:
    """One element placed: where it starts (progress, point, heading) and its arc."""

    start: float
    length: float
    x: float
    y: float
    heading: float
    radius: float
    """0 for a straight."""
    sign: int
    """+1 for a left curve, -1 for a right one (1 for straights)."""
    cx: float
    cy: float
    inside: int


def _table(elements: tuple[Element, ...], start: tuple[float, float, float]) -> tuple[_Piece, ...]:
    x, y, h = start
    s = 0.0
    signs = [(1 if e.angle > 0 else -1) if isinstance(e, Curve) else 0 for e in elements]
    out = []
    for k, e in enumerate(elements):
        inside = signs[k] or next((g for g in signs[k:] + signs[:k] if g), 1)
        hr = math.radians(h)
        if isinstance(e, Straight):
            out.append(_Piece(s, e.length, x, y, h, 0.0, 1, 0.0, 0.0, inside))
            x, y, s = x + e.length * math.cos(hr), y + e.length * math.sin(hr), s + e.length
            continue
        g = 1 if e.angle > 0 else -1
        cx, cy = x - g * e.radius * math.sin(hr), y + g * e.radius * math.cos(hr)
        length = e.radius * math.radians(abs(e.angle))
        out.append(_Piece(s, length, x, y, h, e.radius, g, cx, cy, inside))
        h += e.angle
        hr = math.radians(h)
        x, y, s = cx + g * e.radius * math.sin(hr), cy - g * e.radius * math.cos(hr), s + length
    return tuple(out)


def _discs(spots: tuple[Spot, ...], radius: float) -> np.ndarray:
    return np.asarray(shapely.buffer(shapely.points([(p.x, p.y) for p in spots]), radius, quad_segs=8))


def _reversed(elements: tuple[Element, ...]) -> tuple[Element, ...]:
    out: list[Element] = []
    for e in reversed(elements):
        out.append(Curve(e.radius, -e.angle) if isinstance(e, Curve) else e)
    return tuple(out)


def _end_pose(elements: tuple[Element, ...], start: tuple[float, float, float]) -> tuple[float, float, float]:
    xs, ys, hs = _sample(elements, start)
    return float(xs[-1]), float(ys[-1]), float(hs[-1])


def _sample(
    elements: tuple[Element, ...], start: tuple[float, float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre-line vertices for drawing the borders: positions and headings (unwrapped degrees)."""
    x, y, h = start
    xs, ys, hs = [x], [y], [h]
    for e in elements:
        if isinstance(e, Straight):
            xs.append(x + e.length * math.cos(math.radians(h)))
            ys.append(y + e.length * math.sin(math.radians(h)))
            hs.append(h)
            x, y = xs[-1], ys[-1]
            continue
        g = 1 if e.angle > 0 else -1
        cx = x - g * e.radius * math.sin(math.radians(h))
        cy = y + g * e.radius * math.cos(math.radians(h))
        steps = max(1, math.ceil(abs(e.angle) / ARC_STEP))
        for j in range(1, steps + 1):
            hj = h + e.angle * j / steps
            xs.append(cx + g * e.radius * math.sin(math.radians(hj)))
            ys.append(cy - g * e.radius * math.cos(math.radians(hj)))
            hs.append(hj)
        x, y, h = xs[-1], ys[-1], h + e.angle
    return np.array(xs), np.array(ys), np.array(hs)


_built = threading.local()


def track(name: str, backwards: bool = False) -> Track:
    """The built track of layout ``name``, built once per thread.

    Per thread, because GEOS prepared geometries (which make the touch tests fast)
    are not thread-safe, and the server runs requests and bots on several threads:
    sharing one prepared track between threads crashes the process.
    """
    tracks: dict[tuple[str, bool], Track] | None = getattr(_built, "tracks", None)
    if tracks is None:
        tracks = _built.tracks = {}
    key = (name, backwards)
    if key not in tracks:
        tracks[key] = Track(LAYOUTS[name], backwards)
    return tracks[key]


def runs_backwards(name: str, players: int) -> bool:
    """Whether a race runs the layout backwards: on a course, five or six players
    start on the grid for six (rulebook: "la case départ pour quatre est le départ et
    la case départ pour six est l'arrivée, ou vice versa")."""
    return not LAYOUTS[name].closed and players > 4
