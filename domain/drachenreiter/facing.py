"""Turning a dragon that a rule has placed: after a template crash, a lasso or a
forced alliance, its player chooses its heading.

* Template crash: "il doit placer son dragon à l'intérieur du parcours, à
  l'endroit où l'élément de trajectoire a touché la bordure [...] Le dragon peut
  être tourné dans le sens souhaité".
* Forced alliance: "il doit se positionner derrière lui (sans heurter d’autres
  dragons). Le dragon déplacé peut être tourné dans la direction souhaitée".
* Lasso: "Le joueur du dragon déplacé peut le faire pivoter à sa guise tout en
  le laissant à son nouvel emplacement".

How a heading is applied (**designed**): the rule first places the dragon at the
nearest free place to where it puts it, facing along the track (behind a joined
dragon: facing as that one); that heading is always allowed. Another heading
turns the base about its centre, if it then lies properly inside the borders and
``SETTLE_CLEARANCE`` from every other dragon. If not, after a crash or an
alliance the dragon is moved across the track at the same height to the nearest
place (``placement.places_across``: no sliding back) where, so turned, it touches
nothing: the player places it inside, turned as it wishes; the heading is refused
only if no place at that height fits. A lassoed dragon stays where it was put
("en le laissant à son nouvel emplacement"): a heading that does not fit there
is refused.

Listings sample the headings every ``HEADING_STEP`` degrees (multiples of it
from 0) after the one as placed (**designed**). A heading is a whole number of
degrees, or the one as placed (**designed**, ``rulebook.RESOLUTION``); a whole
heading within half a degree of the one as placed is refused, so that no two
headings a player may give round to the same degree.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from domain.drachenreiter.dimensions import SETTLE_CLEARANCE
from domain.drachenreiter.placement import centre_progress, obstacles, places_across, poses_at
from domain.drachenreiter.shapes import bases, norm, whole
from domain.drachenreiter.state import Facing, Pose, RaceState
from domain.drachenreiter.track import track

HEADING_STEP = 15.0
"""Designed: the listing offers headings every 15° (24 of them) after the one as placed."""
HEADING_TOLERANCE = 1e-6
"""A submitted heading this close to the one as placed keeps the dragon as placed."""


def _turned(state: RaceState, seat: int, headings: np.ndarray) -> list[Pose | None]:
    """Where ``seat``'s placed dragon stands turned to each heading, or None (module doc)."""
    tr = track(state.layout, state.backwards)
    p = state.dragons[seat].pose
    blockers = obstacles([d.pose for s, d in enumerate(state.dragons) if s != seat and not d.out])
    shapes = bases(np.full(len(headings), p.x), np.full(len(headings), p.y), headings)
    ok = np.asarray(shapely.contains_properly(tr.area, shapes))
    if blockers is not None:
        ok &= ~np.asarray(shapely.dwithin(blockers, shapes, SETTLE_CLEARANCE))
    turned = iter(poses_at(tr, np.full(ok.sum(), p.x), np.full(ok.sum(), p.y), headings[ok], p.progress))
    out: list[Pose | None] = [next(turned) if fits else None for fits in ok]
    moved = np.flatnonzero(~ok)
    if state.face_cause is not Facing.LASSO and len(moved):
        s = centre_progress(tr, p)
        across = places_across(tr, s, tr.lateral(s, p.x, p.y), headings[moved], blockers, p.progress)
        for i, pose in zip(moved, across, strict=True):
            out[i] = pose
    return out


NEAR_PLACED = 0.5
"""A whole heading this close to the one as placed (not itself whole) is refused (module doc)."""


def heading_fault(state: RaceState, seat: int, heading: float) -> str | None:
    """Why ``heading`` is not one a player may give ``seat``'s placed dragon, or None."""
    placed = state.dragons[seat].pose.heading
    off = abs(norm(heading - placed)) if math.isfinite(heading) else math.inf
    if off <= HEADING_TOLERANCE:
        return None
    if not whole(heading):
        return f"give a whole number of degrees, or {placed} to keep the heading as placed"
    if off <= NEAR_PLACED:
        return f"within half a degree of the heading as placed: give {placed} to keep it"
    return None


def faced(state: RaceState, seat: int, heading: float) -> Pose | None:
    """Where ``seat``'s placed dragon stands turned to ``heading``, or None if it may not
    face there (see the module doc)."""
    if not math.isfinite(heading):
        return None
    p = state.dragons[seat].pose
    if abs(norm(heading - p.heading)) <= HEADING_TOLERANCE:
        return p
    return _turned(state, seat, np.array([heading]))[0]


def placements(state: RaceState, seat: int) -> list[Pose]:
    """The listed poses for ``seat``: as placed first, then one per ``HEADING_STEP`` that fits."""
    placed = state.dragons[seat].pose
    k = int(180.0 // HEADING_STEP)
    sample = np.array(sorted(norm(i * HEADING_STEP) for i in range(-k + 1, k + 1)))
    sample = sample[np.abs((sample - placed.heading + 180.0) % 360.0 - 180.0) > NEAR_PLACED]
    return [placed, *(p for p in _turned(state, seat, sample) if p is not None)]
