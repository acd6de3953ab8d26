"""decide: the only place that checks the rules, then emits the events and the
automatic steps that follow (alliance windows and joins, next mover, end of
round, end of race).

The steps of a turn (``state.Step``): ``ALLY`` (the dragons asked answer in
secret, ``alliance``), ``FLY``, ``FACE`` after a template crash, ``DRAW`` when
symbols were touched, ``DISCARD`` over four cards, ``CAST`` with a card face
down (a lasso then asks its target's player to ``FACE``); after the turn, each
dragon whose turned alliance holds the mover joins it and is turned (``FACE``).
"""

from __future__ import annotations

from collections import Counter

from domain.drachenreiter import events as ev
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter import setup_events
from domain.drachenreiter.alliance import close_window, join, pending_join, window_seats
from domain.drachenreiter.cards import AFTER_MOVE, FIREBALL_RANGE, ROUND_LIMIT, Magic
from domain.drachenreiter.commands import Aim, Ally, Discard, Draw, Face, Hold, LayTraps, Move, SetSpeed
from domain.drachenreiter.events import HEADING_RULES
from domain.drachenreiter.facing import faced, heading_fault
from domain.drachenreiter.flight import counted_bar, fly, touches
from domain.drachenreiter.magic import aim, lay_traps, trap_layouts, trap_spot_ok, traps_to_lay
from domain.drachenreiter.race import (
    ahead,
    crossed_finish,
    next_mover,
    overfull,
    settable_speeds,
    template_speeds,
    within_notch,
)
from domain.drachenreiter.resolve import CRASH_SPEED, draw, land, offer_draw, resolve
from domain.drachenreiter.shapes import whole
from domain.drachenreiter.state import Facing, Phase, RaceState, Step
from domain.kernel import Command, Emitter, Event, Evolves, GameOver, IllegalMove, NotYourTurn, Rng
from domain.kernel.rules import GAME_ENDED, TURN_ORDER


def awaiting(state: RaceState) -> tuple[int, ...]:
    if state.phase is Phase.SPEED:
        return tuple(s for s, d in enumerate(state.dragons) if not d.out and d.set_speed is None)
    if state.phase is not Phase.MOVE:
        return ()
    if state.step is Step.ALLY:
        return tuple(s for s in state.window if not state.dragons[s].out and state.dragons[s].answer is None)
    if state.step is Step.FACE and state.facing is not None:
        return () if state.dragons[state.facing].out else (state.facing,)
    if state.mover is not None:
        return (state.mover,)
    return ()


def decide(ruleset: Evolves[RaceState], state: RaceState, seat: int, command: Command, rng: Rng) -> list[Event]:
    if state.phase is Phase.OVER:
        raise GameOver(f"{command.TYPE}: the race is over", GAME_ENDED)
    if seat not in awaiting(state):
        raise NotYourTurn(f"{command.TYPE}: seat {seat} is not awaited now", TURN_ORDER)
    out: Emitter[RaceState] = Emitter(ruleset, state)
    match command:
        case SetSpeed() if state.phase is Phase.SPEED:
            _set_speed(out, seat, command)
        case Ally() if state.step is Step.ALLY:
            _ally(out, seat, command)
        case Move() if state.step is Step.FLY:
            _fly(out, seat, command)
        case Face() if state.step is Step.FACE:
            _face(out, seat, command)
        case Draw() if state.step is Step.DRAW:
            _draw(out, seat, command, rng)
        case Discard() if state.step is Step.DISCARD:
            _discard(out, seat, command)
        case Aim() | LayTraps() | Hold() if state.step is Step.CAST:
            _cast(out, seat, command, rng)
        case _:
            step = state.step.value if state.step else state.phase.value
            raise IllegalMove(f"{command.TYPE}: not a move for the {step} step", rb.ROUND)
    proceed(out, rng)
    return out.events


# ------------------------------------------------------------------ phases 1 and 2


def _set_speed(out: Emitter[RaceState], seat: int, cmd: SetSpeed) -> None:
    me = out.state.dragons[seat]
    if cmd.speed not in settable_speeds(me):
        rule = rb.SPEED_CAP if me.exhausted and cmd.speed > 500 else rb.SET_SPEED
        raise IllegalMove(
            f"set_speed {cmd.speed}: the dial may go from {min(settable_speeds(me))} "
            f"to {max(settable_speeds(me))} in steps of 100",
            rule,
        )
    if cmd.card is not None and cmd.card not in me.hand:
        raise IllegalMove(f"set_speed: {cmd.card.value} is not in your hand", rb.LAY_CARD)
    out.emit(ev.SpeedSet(seat, cmd.speed))
    if cmd.card is not None:
        out.emit(ev.CardLaid(seat, cmd.card))


# ------------------------------------------------------------------ phase 3


def _ally(out: Emitter[RaceState], seat: int, cmd: Ally) -> None:
    if cmd.turn and out.state.dragons[seat].laid is not Magic.ALLIANCE:
        raise IllegalMove("ally: only a laid forced alliance can be turned", rb.LAID_ONLY)
    out.emit(ev.AllianceAnswered(seat, cmd.turn))


def _fly(out: Emitter[RaceState], seat: int, cmd: Move) -> None:
    me = out.state.dragons[seat]
    speeds = template_speeds(me)
    if cmd.speed not in speeds:
        rule = rb.FORCE if me.laid is Magic.FORCE else rb.COUNTER_WIND if me.laid is Magic.COUNTER_WIND else rb.TEMPLATE
        raise IllegalMove(f"move: the template must be one of {', '.join(map(str, speeds))}, not {cmd.speed}", rule)
    if not (whole(cmd.turn_in) and whole(cmd.turn_out)):
        raise IllegalMove(f"move: turns {cmd.turn_in} and {cmd.turn_out} must be whole degrees", rb.RESOLUTION)
    if not (within_notch(cmd.speed, cmd.turn_in) and within_notch(cmd.speed, cmd.turn_out)):
        rule = rb.TEMPLATE if not within_notch(cmd.speed, cmd.turn_in) else rb.LANDING
        raise IllegalMove(
            f"move: turns {cmd.turn_in} and {cmd.turn_out} exceed the notches of template {cmd.speed}", rule
        )
    assert me.set_speed is not None
    if cmd.speed != me.set_speed:
        assert me.laid is not None
        out.emit(ev.CardPlayed(seat, me.laid))
    flight = fly(out.state, seat, cmd.speed, cmd.turn_in, cmd.turn_out, crash_touches=False)
    if not resolve(out, seat, flight, me.set_speed):
        _after_landing(out, seat, len(flight.symbols))


def _face(out: Emitter[RaceState], seat: int, cmd: Face) -> None:
    """The player turns its placed dragon; then what that placement left to do follows."""
    st = out.state
    cause = st.face_cause
    assert cause is not None
    fault = heading_fault(st, seat, cmd.heading)
    if fault is not None:
        raise IllegalMove(f"face {cmd.heading}: {fault}", rb.RESOLUTION)
    pose = faced(st, seat, cmd.heading)
    if pose is None:
        raise IllegalMove(
            f"face {cmd.heading}: the dragon turned there would touch a border or another dragon", HEADING_RULES[cause]
        )
    if cause is Facing.CRASH:
        assert st.template is not None
        touched = touches(st, seat, counted_bar(st.template), pose)
        out.emit(ev.DragonFaced(seat, cause, pose, touched.haven))
        land(out, seat, "template", touched, CRASH_SPEED)
        _after_landing(out, seat, len(touched.symbols))
        return
    out.emit(ev.DragonFaced(seat, cause, pose, -1))
    _faced(out)


def _faced(out: Emitter[RaceState]) -> None:
    """After a lasso the caster's turn ends; after an alliance, the holder's."""
    mover = out.state.mover
    assert mover is not None
    out.emit(ev.TurnEnded(mover))


def _draw(out: Emitter[RaceState], seat: int, cmd: Draw, rng: Rng) -> None:
    offered = out.state.draws
    if not 0 <= cmd.count <= offered:
        raise IllegalMove(f"draw {cmd.count}: you may draw from 0 to {offered} card(s)", rb.SYMBOL)
    out.emit(ev.DrawChosen(seat, cmd.count))
    draw(out, seat, cmd.count, rng)
    _after_flight(out, seat)


def _after_landing(out: Emitter[RaceState], seat: int, symbols: int) -> None:
    if not offer_draw(out, seat, symbols):
        _after_flight(out, seat)


def _after_flight(out: Emitter[RaceState], seat: int) -> None:
    me = out.state.dragons[seat]
    if me.out:
        out.emit(ev.TurnEnded(seat))
    elif overfull(me):
        out.emit(ev.HandOverflowed(seat, overfull(me)))
    else:
        _after_discard(out, seat)


def _after_discard(out: Emitter[RaceState], seat: int) -> None:
    me = out.state.dragons[seat]
    if me.laid is not None and not me.shown:
        out.emit(ev.MagicAwaited(seat))
    else:
        out.emit(ev.TurnEnded(seat))


def _discard(out: Emitter[RaceState], seat: int, cmd: Discard) -> None:
    me = out.state.dragons[seat]
    excess = overfull(me)
    if len(cmd.cards) != excess or Counter(cmd.cards) - Counter(me.hand):
        raise IllegalMove(f"discard: discard exactly {excess} card(s) from your hand", rb.HAND_LIMIT)
    out.emit(ev.CardsDiscarded(seat, cmd.cards))
    _after_discard(out, seat)


def _cast(out: Emitter[RaceState], seat: int, cmd: Aim | LayTraps | Hold, rng: Rng) -> None:
    card = out.state.dragons[seat].laid
    assert card is not None
    if isinstance(cmd, Hold):
        out.emit(ev.MagicHeld(seat))
    elif isinstance(cmd, Aim):
        if card not in AFTER_MOVE or card is Magic.TRAP:
            raise IllegalMove("aim: your laid card is not played at a dragon after the move", rb.LAID_ONLY)
        if cmd.target not in ahead(out.state, seat):
            rule = rb.FIREBALL if card in FIREBALL_RANGE else rb.LASSO if card is Magic.LASSO else rb.MAGIC_ENERGY
            raise IllegalMove(f"aim {cmd.target}: the target must be a dragon ahead of yours", rule)
        out.emit(ev.CardPlayed(seat, card))
        aim(out, seat, card, cmd.target, rng)
        if out.state.step is Step.FACE:
            return
    else:
        if card is not Magic.TRAP:
            raise IllegalMove("lay_traps: your laid card is not a magic trap", rb.LAID_ONLY)
        k = traps_to_lay(out.state)
        spots = tuple((float(x), float(y)) for x, y in cmd.spots)
        if k == 0 or len(spots) != k or not all(trap_spot_ok(out.state, s, spots[:i]) for i, s in enumerate(spots)):
            raise IllegalMove(
                f"lay_traps: lay {k} trap(s) against the template, inside the track, on no field, "
                "symbol, dragon or trap",
                rb.MAGIC_TRAP,
            )
        if spots not in trap_layouts(out.state):
            raise IllegalMove("lay_traps: choose one of the listed layouts, its spots as listed", rb.TRAP_LAYOUTS)
        out.emit(ev.CardPlayed(seat, card))
        lay_traps(out, seat, spots)
    out.emit(ev.TurnEnded(seat))


# ------------------------------------------------------------------ automatic steps


def proceed(out: Emitter[RaceState], rng: Rng) -> None:
    """Emits the automatic steps until a decision is awaited or the race is over."""
    while True:
        st = out.state
        if st.phase in (Phase.OVER, Phase.SETUP):
            return
        if len(st.alive()) <= 1:
            out.emit(ev.RaceFinished("last dragon flying"))
            return
        if st.phase is Phase.SPEED:
            if awaiting(st):
                return
        elif st.step is Step.ALLY:
            if awaiting(st):
                return
            close_window(out)
            continue
        elif st.step is Step.FACE:
            if awaiting(st):
                return
            _faced(out)  # the dragon to turn has left the race
            continue
        elif st.mover is not None:
            if not st.dragons[st.mover].out:
                return
            out.emit(ev.TurnEnded(st.mover))
            continue
        if _between_turns(out):
            return


def _between_turns(out: Emitter[RaceState]) -> bool:
    """Joins a turned alliance, or reveals the next mover (and opens the alliance window),
    or ends the round; True when a decision is awaited."""
    holder = pending_join(out.state)
    if holder is not None:
        return join(out, holder)
    seat = next_mover(out.state)
    if seat is None:
        _end_round(out)
        return False
    speed = out.state.dragons[seat].set_speed
    out.emit(ev.SpeedRevealed(seat, speed if speed is not None else out.state.dragons[seat].speed))
    asked = window_seats(out.state, seat)
    if asked:
        out.emit(ev.AllianceWindowOpened(seat, asked))
    return True


def _end_round(out: Emitter[RaceState]) -> None:
    for seat in out.state.alive():
        card = out.state.dragons[seat].laid
        if card is not None:
            out.emit(ev.LaidCardDiscarded(seat, card))
    if crossed_finish(out.state):
        out.emit(ev.RaceFinished("finish line crossed"))
    elif out.state.round >= ROUND_LIMIT:
        out.emit(ev.RaceFinished("round limit"))
    else:
        out.emit(setup_events.RoundStarted(out.state.round + 1))
