"""Magic cards with a range or a placement: fireball, lasso, magic energy and
magic trap (the forced alliance, played on another dragon's turn, is in ``alliance``).

A range is measured with the template of that speed laid from the caster's front
point: it reaches when it touches any part of the target's base without touching
a border (rulebook: "l'élément de trajectoire doit toucher la pointe avant de la
base du dragon attaquant ainsi que n'importe quel endroit de la base du dragon
attaqué"; "La boule n'atteint pas l'adversaire si l'élément de trajectoire touche
une des bordures"). The target is named first and the range measured after
("on ne peut pas préalablement tester"); the template is tried in
``RANGE_DIRECTIONS`` directions spanning the target, standing for the player's hand.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import shapely

from domain.drachenreiter import events as ev
from domain.drachenreiter import magic_events
from domain.drachenreiter.cards import (
    DAMAGE_DICE,
    DAMAGE_DIE,
    ENERGY_RANGE,
    FIREBALL_RANGE,
    LASSO_RANGE,
    TRAPS_PER_CARD,
    Magic,
)
from domain.drachenreiter.dimensions import (
    BASE_LENGTH,
    RANGE_DIRECTIONS,
    SETTLE_CLEARANCE,
    TEMPLATE_LENGTH,
    TRAP_RADIUS,
)
from domain.drachenreiter.flight import other_bases, trap_discs
from domain.drachenreiter.placement import centre_progress, obstacles, settle
from domain.drachenreiter.resolve import exhaust, lose, shield
from domain.drachenreiter.shapes import base, fix, front_point, templates
from domain.drachenreiter.state import Facing, Pose, RaceState
from domain.drachenreiter.track import track
from domain.kernel import Emitter, Rng

TRAP_SPOT_FRACTIONS = (0.2, 0.5, 0.8)
"""Designed: listed trap spots lie along both long edges of the template at these
fractions of its length, plus one beyond its tip (any spot may be submitted)."""


def in_range(state: RaceState, seat: int, target: Pose, reach: int) -> bool:
    """Whether the template of ``reach``, from ``seat``'s front point, can touch the
    base at ``target`` without touching a border (see the module doc)."""
    tr = track(state.layout, state.backwards)
    me = state.dragons[seat].pose
    fx, fy = front_point(me.x, me.y, me.heading)
    body = base(target.x, target.y, target.heading)
    corners = shapely.get_coordinates(body)
    angles = np.degrees(np.arctan2(corners[:, 1] - fy, corners[:, 0] - fx))
    centre = math.degrees(math.atan2(target.y - fy, target.x - fx))
    spread = (angles - centre + 180.0) % 360.0 - 180.0
    directions = centre + np.linspace(spread.min() - 3.0, spread.max() + 3.0, RANGE_DIRECTIONS)
    directions = np.append(directions, centre)
    bars = templates(
        np.full(len(directions), fx),
        np.full(len(directions), fy),
        directions,
        np.full(len(directions), TEMPLATE_LENGTH[reach]),
    )
    ok = np.asarray(shapely.intersects(body, bars)) & np.asarray(shapely.contains_properly(tr.area, bars))
    return bool(ok.any())


def aim(out: Emitter[RaceState], seat: int, card: Magic, target: int, rng: Rng) -> None:
    """Plays a fireball, lasso or magic energy at ``target`` (already played face up)."""
    state = out.state
    reach = FIREBALL_RANGE.get(card) or (LASSO_RANGE if card is Magic.LASSO else ENERGY_RANGE)
    if not in_range(state, seat, state.dragons[target].pose, reach):
        out.emit(magic_events.MagicMissed(seat, target, f"out of range {reach}"))
        return
    if shield(out, target):
        out.emit(magic_events.MagicMissed(seat, target, "amulet"))
        return
    if card in FIREBALL_RANGE:
        dice = rng.roll(DAMAGE_DIE, DAMAGE_DICE)
        out.emit(magic_events.FireballRolled(seat, target, dice))
        lose(out, target, sum(dice), f"fireball of seat {seat}")
    elif card is Magic.ENERGY:
        if out.state.dragons[target].energy:
            out.emit(magic_events.EnergyDrained(seat, target))
        else:
            exhaust(out, target)
    else:
        spot = lasso_spot(state, seat, target)
        if spot is None:
            out.emit(magic_events.MagicMissed(seat, target, "no room in front"))
        else:
            out.emit(magic_events.DragonLassoed(seat, target, spot))
            out.emit(ev.HeadingAwaited(target, Facing.LASSO))


def lasso_spot(state: RaceState, seat: int, target: int) -> Pose | None:
    """Where a lassoed dragon lands: just in front of the caster, at its height,
    touching no dragon; further forward (never beyond where it was) if need be.
    It is placed facing along the track; its own player then turns it (``facing``)."""
    tr = track(state.layout, state.backwards)
    me = state.dragons[seat].pose
    them = state.dragons[target].pose
    start = me.progress + BASE_LENGTH / 2 + SETTLE_CLEARANCE
    limit = max(0.0, centre_progress(tr, them) - start)
    others = [d.pose for k, d in enumerate(state.dragons) if k != target and not d.out]
    s_me = centre_progress(tr, me)
    return settle(
        tr,
        start,
        tr.lateral(s_me, me.x, me.y),
        None,
        obstacles(others),
        start + BASE_LENGTH / 2,
        direction=1,
        limit=limit,
    )


# ------------------------------------------------------------------ magic trap


def traps_to_lay(state: RaceState) -> int:
    return min(TRAPS_PER_CARD, len(state.stock))


def trap_spot_ok(state: RaceState, spot: tuple[float, float], laid: tuple[tuple[float, float], ...] = ()) -> bool:
    """A trap may lie at ``spot`` when it touches the template's edge from outside,
    lies inside the borders and touches no field, symbol, dragon or other trap
    (rulebook: "ni sur des champs Energie, ni sur des champs de cartes Magie, ni des dragons")."""
    t = state.template
    if t is None:
        return False
    tr = track(state.layout, state.backwards)
    bar = templates(np.array([t.x]), np.array([t.y]), np.array([t.direction]), np.array([t.length]))[0]
    centre = shapely.Point(spot)
    disc = centre.buffer(TRAP_RADIUS, quad_segs=6)
    if shapely.contains_properly(bar, centre) or shapely.distance(bar, centre) > TRAP_RADIUS:
        return False
    if not shapely.contains_properly(tr.area, disc) or shapely.intersects(tr.printed, disc):
        return False
    _, dragons = other_bases(state, -1)
    if len(dragons) and shapely.intersects(dragons, disc).any():
        return False
    if state.traps and shapely.intersects(trap_discs(state), disc).any():
        return False
    return all(math.dist(spot, other) > 2 * TRAP_RADIUS for other in laid)


def trap_spots(state: RaceState) -> list[tuple[float, float]]:
    """The listed spots along the template (``TRAP_SPOT_FRACTIONS``) that are free."""
    t = state.template
    if t is None:
        return []
    d = math.radians(t.direction)
    ux, uy, nx, ny = math.cos(d), math.sin(d), -math.sin(d), math.cos(d)
    off = TRAP_RADIUS / 2 + 8.0
    spots = [
        (t.x + f * t.length * ux + side * off * nx, t.y + f * t.length * uy + side * off * ny)
        for f in TRAP_SPOT_FRACTIONS
        for side in (1, -1)
    ]
    spots.append((t.x + (t.length + TRAP_RADIUS / 2) * ux, t.y + (t.length + TRAP_RADIUS / 2) * uy))
    return [(round(x, 3), round(y, 3)) for x, y in spots if trap_spot_ok(state, (x, y))]


def trap_layouts(state: RaceState) -> list[tuple[tuple[float, float], ...]]:
    """Every listed choice of spots for the traps to lay, none overlapping another."""
    k = traps_to_lay(state)
    if k == 0:
        return []
    return [
        c
        for c in combinations(trap_spots(state), k)
        if all(math.dist(a, b) > 2 * TRAP_RADIUS for a, b in combinations(c, 2))
    ]


def lay_traps(out: Emitter[RaceState], seat: int, spots: tuple[tuple[float, float], ...]) -> None:
    state = out.state
    first = state.next_trap
    placed = tuple((first + i, fix(x), fix(y)) for i, (x, y) in enumerate(spots))
    out.emit(magic_events.TrapsLaid(seat, placed, state.stock[: len(spots)]))
