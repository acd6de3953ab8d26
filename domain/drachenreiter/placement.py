"""Putting a dragon down where it touches nothing: after a crash, a collision, a
Debilitatus, a lasso or an alliance.

Places across the track at one height are tried in order of preference; when
none is free the dragon slides back (or, for a lasso, forward) along the track,
height by height (rulebook: "ce dragon doit être glissé en arrière le long de la
ligne jaune jusqu'à ce qu'il se retrouve à un endroit où il ne touche aucun autre
élément"). Free means: properly inside the borders and at least
``SETTLE_CLEARANCE`` from every other dragon's base.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from domain.drachenreiter.dimensions import (
    BASE_LENGTH,
    SETTLE_BACK_STEP,
    SETTLE_CLEARANCE,
    SETTLE_LATERAL_STEP,
    TRACK_WIDTH,
)
from domain.drachenreiter.shapes import bases, fix, front_point, norm
from domain.drachenreiter.state import Pose
from domain.drachenreiter.track import Track

_REACH = TRACK_WIDTH / 2 - 12.0
_LATERALS = np.arange(-_REACH, _REACH + 1e-9, SETTLE_LATERAL_STEP)
BORDER_BAND = 24.0
"""Designed: "along the border" means a centre within 24 of the outermost places."""
MAX_SLIDE = 3000.0
"""Designed: how far a dragon may slide looking for room (more than any pile-up)."""


def obstacles(poses: Sequence[Pose]) -> shapely.Geometry | None:
    """The union of the bases at ``poses`` (what a placed dragon must not touch)."""
    if not poses:
        return None
    return shapely.union_all(
        bases(np.array([p.x for p in poses]), np.array([p.y for p in poses]), np.array([p.heading for p in poses]))
    )


def pose_at(track: Track, x: float, y: float, heading: float, hint: float) -> Pose:
    """A stored pose for a base centred at ``(x, y)``; progress is its front point's."""
    fx, fy = front_point(x, y, heading)
    return Pose(fix(x), fix(y), norm(heading), fix(track.progress(fx, fy, hint)))


def poses_at(track: Track, xs: np.ndarray, ys: np.ndarray, headings: np.ndarray, hint: float) -> list[Pose]:
    """``pose_at`` for many bases at once."""
    h = np.radians(headings)
    half = BASE_LENGTH / 2
    progress = track.unwrap(track.locate(xs + half * np.cos(h), ys + half * np.sin(h)), hint)
    return [
        Pose(fix(x), fix(y), norm(float(a)), fix(float(p)))
        for x, y, a, p in zip(xs, ys, headings, progress, strict=True)
    ]


def settle(
    track: Track,
    s: float,
    u: float,
    heading: float | None,
    blockers: shapely.Geometry | None,
    hint: float,
    direction: int = -1,
    limit: float = MAX_SLIDE,
    border_first: bool = False,
) -> Pose | None:
    """The first free place at height ``s`` (centre progress), nearest the offset
    ``u`` (or, with ``border_first``, only along the borders, ``u``'s side first),
    then at heights further along ``direction``. ``heading`` None faces along the track."""
    if border_first:
        side = 1.0 if u >= 0 else -1.0
        order = np.argsort(np.abs(_LATERALS - side * _REACH), kind="stable")
        laterals = _LATERALS[order]
        laterals = laterals[np.abs(laterals) >= _REACH - BORDER_BAND]
    else:
        laterals = _LATERALS[np.argsort(np.abs(_LATERALS - u), kind="stable")]
    steps = int(limit // SETTLE_BACK_STEP) + 1
    for k in range(steps):
        sk = s + direction * k * SETTLE_BACK_STEP
        if not track.closed and not 0.0 <= sk <= track.length:
            break
        along = track.heading_at(sk)
        h = along if heading is None else heading
        cx, cy = track.point_at(sk, 0.0)
        a = math.radians(along)
        xs = cx - laterals * math.sin(a)
        ys = cy + laterals * math.cos(a)
        shapes = bases(xs, ys, np.full(len(xs), h))
        ok = np.asarray(shapely.contains_properly(track.area, shapes))
        if blockers is not None:
            ok &= ~np.asarray(shapely.dwithin(blockers, shapes, SETTLE_CLEARANCE))
        hits = np.flatnonzero(ok)
        if len(hits):
            i = int(hits[0])
            return pose_at(track, float(xs[i]), float(ys[i]), h, hint + (sk - s))
    return None


def places_across(
    track: Track,
    s: float,
    u: float,
    headings: np.ndarray,
    blockers: shapely.Geometry | None,
    hint: float,
) -> list[Pose | None]:
    """For each heading, the first free place at height ``s`` nearest the offset ``u`` with
    that heading, or None: what ``settle`` finds at that height alone, for many headings at once."""
    laterals = _LATERALS[np.argsort(np.abs(_LATERALS - u), kind="stable")]
    a = math.radians(track.heading_at(s))
    cx, cy = track.point_at(s, 0.0)
    xs, ys = cx - laterals * math.sin(a), cy + laterals * math.cos(a)
    n = len(laterals)
    shapes = bases(np.tile(xs, len(headings)), np.tile(ys, len(headings)), np.repeat(headings, n))
    ok = np.asarray(shapely.contains_properly(track.area, shapes))
    if blockers is not None:
        ok &= ~np.asarray(shapely.dwithin(blockers, shapes, SETTLE_CLEARANCE))
    ok = ok.reshape(len(headings), n)
    found = np.asarray(ok.any(axis=1))
    first = ok.argmax(axis=1)[found]
    placed = iter(poses_at(track, xs[first], ys[first], headings[found], hint))
    return [next(placed) if f else None for f in found]


def centre_progress(track: Track, pose: Pose) -> float:
    """The progress of a base's centre (the height at which it is put back)."""
    return track.progress(pose.x, pose.y, pose.progress - BASE_LENGTH / 2)
