"""Race order, speeds and notches: the small rules every phase asks about."""

from __future__ import annotations

from domain.drachenreiter.cards import (
    CARD_SHIFT,
    DEBILITATUS_SPEED_CAP,
    HAND_LIMIT,
    Magic,
)
from domain.drachenreiter.dimensions import MAX_SPEED_CHANGE, NOTCH, SPEEDS
from domain.drachenreiter.shapes import front_point
from domain.drachenreiter.state import Dragon, RaceState
from domain.drachenreiter.track import Track, track

ANGLE_TOLERANCE = 1e-6
"""A submitted turn may exceed its notch by this much (rounding of JSON floats)."""


def track_of(state: RaceState) -> Track:
    return track(state.layout, state.backwards)


def settable_speeds(dragon: Dragon) -> tuple[int, ...]:
    """Speeds the dial may be set to: within 300 of the last (rulebook), at most 500
    while exhausted (Debilitatus)."""
    top = DEBILITATUS_SPEED_CAP if dragon.exhausted else max(SPEEDS)
    return tuple(v for v in SPEEDS if abs(v - dragon.speed) <= MAX_SPEED_CHANGE and v <= top)


def template_speeds(dragon: Dragon) -> tuple[int, ...]:
    """Templates the mover may use: the set speed, or up to 300 above (dragon force)
    or below (counter-wind) when that card is laid face down."""
    base = dragon.set_speed if dragon.set_speed is not None else dragon.speed
    if dragon.laid is Magic.FORCE:
        return tuple(v for v in SPEEDS if base <= v <= base + CARD_SHIFT)
    if dragon.laid is Magic.COUNTER_WIND:
        return tuple(v for v in SPEEDS if base - CARD_SHIFT <= v <= base)
    return (base,)


def within_notch(speed: int, angle: float) -> bool:
    return abs(angle) <= NOTCH[speed] + ANGLE_TOLERANCE


def race_key(tr: Track, dragon: Dragon, seat: int) -> tuple[float, float, int]:
    """Sort key, greatest first: progress of the front point, then the inner dragon
    (rulebook: "c'est le dragon se trouvant le plus à l'intérieur du parcours qui se
    déplace en premier"), then the lower seat."""
    p = dragon.pose
    fx, fy = front_point(p.x, p.y, p.heading)
    s = tr.wrap(p.progress)
    inner = tr.inside_sign(s) * tr.lateral(s, fx, fy)
    return round(p.progress, 6), round(inner, 6), -seat


def race_order(state: RaceState) -> tuple[int, ...]:
    """Seats still racing, foremost first."""
    tr = track_of(state)
    alive = state.alive()
    return tuple(sorted(alive, key=lambda s: race_key(tr, state.dragons[s], s), reverse=True))


def next_mover(state: RaceState) -> int | None:
    """The foremost dragon yet to move this round."""
    for seat in race_order(state):
        if not state.dragons[seat].moved:
            return seat
    return None


def ahead(state: RaceState, seat: int) -> tuple[int, ...]:
    """Dragons ahead of ``seat`` (magic targets), nearest first."""
    order = race_order(state)
    if seat not in order:
        return ()
    return tuple(reversed(order[: order.index(seat)]))


def overfull(dragon: Dragon) -> int:
    """How many cards above the hand limit the dragon holds."""
    return max(0, len(dragon.hand) - HAND_LIMIT)


def crossed_finish(state: RaceState) -> bool:
    """Whether some dragon's front point is over the finish line."""
    tr = track_of(state)
    return any(state.dragons[s].pose.progress >= tr.finish for s in state.alive())
