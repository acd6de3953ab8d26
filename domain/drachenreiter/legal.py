"""legal_moves: complete commands, each accepted by ``decide`` as is.

Turns are continuous; the listing samples them (any angle within the notches may
be submitted). Resolution, **designed** to keep a listing to a few hundred moves:

* with the set speed's template, start and end turns every ``LIST_STEP`` (15°)
  within the notch, plus the notch limits themselves;
* with the other templates a laid dragon force or counter-wind allows, every
  ``CARD_LIST_STEP`` (45°), plus the limits.

Magic traps list every choice among the free spots of ``magic.trap_spots``.
Headings of a placed dragon (``Face``) are sampled by ``facing.placements``: the one
as placed, then every ``facing.HEADING_STEP`` (15°) that fits. Draws list every
count from 0 to the cards offered; alliance answers list ``Ally(False)``, and
``Ally(True)`` for a seat whose laid card is a forced alliance.
"""

from __future__ import annotations

from itertools import combinations

from domain.drachenreiter.cards import AFTER_MOVE, Magic
from domain.drachenreiter.commands import Aim, Ally, Discard, Draw, Face, Hold, LayTraps, Move, SetSpeed
from domain.drachenreiter.decide import awaiting
from domain.drachenreiter.dimensions import NOTCH
from domain.drachenreiter.facing import placements
from domain.drachenreiter.magic import trap_layouts
from domain.drachenreiter.race import ahead, overfull, settable_speeds, template_speeds
from domain.drachenreiter.state import Phase, RaceState, Step
from domain.kernel import Command

LIST_STEP = 15.0
CARD_LIST_STEP = 45.0


def turns(speed: int, step: float) -> tuple[float, ...]:
    """Sampled turns for a template: multiples of ``step`` within the notch, and its limits."""
    notch = NOTCH[speed]
    k = int(notch // step)
    out = {i * step for i in range(-k, k + 1)} | {notch, -notch}
    return tuple(sorted(out))


def legal_moves(state: RaceState, seat: int) -> list[Command]:
    if seat not in awaiting(state):
        return []
    me = state.dragons[seat]
    if state.phase is Phase.SPEED:
        cards: list[Magic | None] = [None, *sorted(set(me.hand), key=lambda c: c.value)]
        return [SetSpeed(v, c) for v in settable_speeds(me) for c in cards]
    if state.step is Step.ALLY:
        return [Ally(False), Ally(True)] if me.laid is Magic.ALLIANCE else [Ally(False)]
    if state.step is Step.FACE:
        return [Face(p.heading) for p in placements(state, seat)]
    if state.step is Step.DRAW:
        return [Draw(k) for k in range(state.draws + 1)]
    if state.step is Step.FLY:
        moves: list[Command] = []
        for v in template_speeds(me):
            step = LIST_STEP if v == me.set_speed else CARD_LIST_STEP
            ts = turns(v, step)
            moves += [Move(v, a, b) for a in ts for b in ts]
        return moves
    if state.step is Step.DISCARD:
        return [Discard(c) for c in sorted(set(combinations(me.hand, overfull(me))))]
    moves = [Hold()]
    if me.laid is Magic.TRAP:
        moves += [LayTraps(spots) for spots in trap_layouts(state)]
    elif me.laid in AFTER_MOVE:
        moves += [Aim(t) for t in ahead(state, seat)]
    return moves
