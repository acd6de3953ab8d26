"""The forced alliance (Cooperatio Subrepta), played as the rulebook times it.

Rulebook: "Cette carte est retournée dès qu’un dragon adverse doit être bougé, à
condition que ce dragon se trouve devant le dragon du joueur [...] et qu'il se
trouve à une distance de 400 VD au maximum [...] Le dragon du joueur ayant mis la
carte en jeu peut rejoindre le dragon adverse **après** que celui-ci a effectué
son déplacement. Mais il doit se positionner derrière lui (sans heurter d’autres
dragons). Le dragon déplacé peut être tourné dans la direction souhaitée [...] le
joueur n'effectue plus de déplacement pendant ce tour".

How Dragonhall plays it (designed where the rulebook leaves a gap):

1. **The window.** When a dragon is about to move (it has shown its speed), every
   other dragon yet to move whose laid card lies face down is asked whether it
   turns a forced alliance (``window_seats``). The criteria are public, so being
   asked says nothing of the card: any face-down card may be an alliance as far as
   the others know. Distance is not a criterion: the range is measured only once
   the card is turned ("on ne peut pas préalablement tester"). Those dragons lie
   behind the one about to move (it is the foremost yet to move).
2. **Secret answers.** The asked dragons answer at once and in secret (``Ally``,
   its ``turn`` hidden from the others), like the speeds: no answer can depend on
   another's. When all have answered, the alliances turned are played in race
   order (``close_window``): each is turned face up, then measured with the 400
   template from the holder's front point to the base of the dragon about to move;
   out of range, or against a laid amulet, it is lost.
3. **The join** comes when the joined dragon's whole turn is over (its move and
   its magic: a turn is not cut in two), each holder in race order
   (``pending_join``): the holder's dragon is put just behind it, touching no
   dragon (or slid back), then its player turns it (``facing``). That is the
   holder's turn for the round: its set speed goes back to its dial ("L’aiguille
   de couleur [...] placée sur celle en argent"). If the joined dragon has left
   the race, or no place behind it is free, the alliance is lost and the holder
   moves in its turn as usual.
"""

from __future__ import annotations

import math

from domain.drachenreiter import events as ev
from domain.drachenreiter import magic_events
from domain.drachenreiter.cards import ALLIANCE_RANGE, Magic
from domain.drachenreiter.dimensions import BASE_LENGTH, SETTLE_CLEARANCE
from domain.drachenreiter.magic import in_range
from domain.drachenreiter.placement import obstacles, settle
from domain.drachenreiter.race import race_order
from domain.drachenreiter.resolve import shield
from domain.drachenreiter.state import Facing, Pose, RaceState
from domain.drachenreiter.track import track
from domain.kernel import Emitter


def window_seats(state: RaceState, target: int) -> tuple[int, ...]:
    """The dragons asked as ``target`` is about to move: those yet to move, still racing,
    whose laid card lies face down (public criteria only)."""
    return tuple(
        s
        for s, d in enumerate(state.dragons)
        if s != target and not d.out and not d.moved and d.laid is not None and not d.shown
    )


def close_window(out: Emitter[RaceState]) -> None:
    """Plays the alliances turned in the window, in race order, then closes it."""
    state = out.state
    target = state.mover
    assert target is not None
    for seat in race_order(state):
        if seat not in state.window or out.state.dragons[seat].answer is not True:
            continue
        out.emit(ev.CardPlayed(seat, Magic.ALLIANCE))
        if not in_range(out.state, seat, out.state.dragons[target].pose, ALLIANCE_RANGE):
            out.emit(magic_events.MagicMissed(seat, target, f"out of range {ALLIANCE_RANGE}"))
        elif shield(out, target):
            out.emit(magic_events.MagicMissed(seat, target, "amulet"))
        else:
            out.emit(ev.AllianceTurned(seat, target))
    out.emit(ev.AllianceWindowClosed(target))


def pending_join(state: RaceState) -> int | None:
    """The foremost dragon whose turned alliance holds a dragon that has had its turn."""
    if all(d.ally_of is None for d in state.dragons):
        return None
    for seat in race_order(state):
        d = state.dragons[seat]
        if d.ally_of is not None and not d.moved and state.dragons[d.ally_of].moved:
            return seat
    return None


def join(out: Emitter[RaceState], seat: int) -> bool:
    """``seat`` joins the dragon its alliance holds; True when its player must now turn it."""
    state = out.state
    target = state.dragons[seat].ally_of
    assert target is not None
    if state.dragons[target].out:
        out.emit(magic_events.MagicMissed(seat, target, "target out of the race"))
        return False
    spot = join_spot(state, seat, target)
    if spot is None:
        out.emit(magic_events.MagicMissed(seat, target, "no room behind"))
        return False
    out.emit(magic_events.AllianceJoined(seat, target, spot))
    out.emit(ev.HeadingAwaited(seat, Facing.ALLIANCE))
    return True


def join_spot(state: RaceState, seat: int, target: int) -> Pose | None:
    """Just behind ``target`` along its heading, touching no dragon; slid back along the
    track if taken (facing as ``target``, or along the track if that does not fit)."""
    tr = track(state.layout, state.backwards)
    p = state.dragons[target].pose
    h = math.radians(p.heading)
    gap = BASE_LENGTH + 2 * SETTLE_CLEARANCE
    x, y = p.x - gap * math.cos(h), p.y - gap * math.sin(h)
    others = obstacles([d.pose for k, d in enumerate(state.dragons) if k != seat and not d.out])
    s = tr.progress(x, y, p.progress - gap)
    u = tr.lateral(s, x, y)
    return settle(tr, s, u, p.heading, others, p.progress - gap) or settle(tr, s, u, None, others, p.progress - gap)
