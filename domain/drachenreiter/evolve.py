"""evolve: the state after an event. Total and unchecked: it trusts the event."""

from __future__ import annotations

from typing import Any

from domain.drachenreiter import events as ev
from domain.drachenreiter import magic_events, setup_events
from domain.drachenreiter.cards import DEBILITATUS_ENERGY, DEBILITATUS_SPEED, ENERGY_LIMIT, Magic
from domain.drachenreiter.state import Dragon, Phase, Pose, RaceState, Step, Trap
from domain.drachenreiter.track import track
from domain.kernel import Event, replacer

_restate = replacer(RaceState)
_redragon = replacer(Dragon)


def _dragon(state: RaceState, seat: int, **changes: Any) -> RaceState:
    dragons = list(state.dragons)
    dragons[seat] = _redragon(dragons[seat], **changes)
    return _restate(state, dragons=tuple(dragons))


def _without(cards: tuple[Magic, ...], gone: tuple[Magic, ...]) -> tuple[Magic, ...]:
    left = list(cards)
    for c in gone:
        left.remove(c)
    return tuple(left)


def _hand(cards: tuple[Magic, ...]) -> tuple[Magic, ...]:
    return tuple(sorted(cards, key=lambda c: c.value))


def _out(state: RaceState, seat: int, cards: tuple[Magic, ...]) -> RaceState:
    d = state.dragons[seat]
    if d.out:
        return state
    state = _restate(
        state, discard=state.discard + cards, supply=state.supply + d.energy, out_order=(*state.out_order, seat)
    )
    return _dragon(state, seat, out=True, hand=(), laid=None, shown=False, energy=0)


def _landed(state: RaceState, seat: int, pose: Pose, haven: int) -> RaceState:
    """The dragon set down at ``pose``, having crossed the field ``haven`` last (-1: none)."""
    if haven < 0:
        return _dragon(state, seat, pose=pose)
    # The field was crossed during this move: its lap is the one nearest the landing.
    tr = track(state.layout, state.backwards)
    return _dragon(state, seat, pose=pose, haven=haven, haven_lap=tr.lap(tr.fields[haven].s, pose.progress))


def _unasked(state: RaceState) -> RaceState:
    """The alliance window closed: no dragon is asked, no answer kept."""
    if not state.window:
        return state
    dragons = tuple(_redragon(d, answer=None) if d.answer is not None else d for d in state.dragons)
    return _restate(state, window=(), dragons=dragons)


def evolve(state: RaceState, event: Event) -> RaceState:
    """Folds one event into the state (see the module doc)."""
    match event:
        case setup_events.StartCardsDealt(cards):
            return _restate(
                state, dragons=tuple(_redragon(d, place=c) for d, c in zip(state.dragons, cards, strict=True))
            )
        case setup_events.DragonLinedUp(seat, pose, energy, speed):
            return _dragon(_restate(state, supply=state.supply - energy), seat, pose=pose, energy=energy, speed=speed)
        case setup_events.DeckShuffled(cards):
            return _restate(state, deck=cards)
        case setup_events.TrapsShuffled(values):
            return _restate(state, stock=values)
        case setup_events.HandDealt(seat, cards) | ev.CardsDrawn(seat, cards):
            state = _restate(state, deck=state.deck[len(cards) :])
            return _dragon(state, seat, hand=_hand(state.dragons[seat].hand + cards))
        case setup_events.RoundStarted(number):
            dragons = tuple(
                _redragon(d, set_speed=None, laid=None, shown=False, moved=False, answer=None, ally_of=None)
                for d in state.dragons
            )
            return _restate(state, round=number, phase=Phase.SPEED, dragons=dragons, mover=None, step=None)
        case ev.SpeedSet(seat, speed):
            return _dragon(state, seat, set_speed=speed)
        case ev.CardLaid(seat, card):
            return _dragon(state, seat, laid=card, hand=_without(state.dragons[seat].hand, (card,)))
        case ev.SpeedRevealed(seat, speed):
            state = _restate(state, phase=Phase.MOVE, mover=seat, step=Step.FLY)
            return _dragon(state, seat, set_speed=speed)
        case ev.AllianceWindowOpened(_, seats):
            return _restate(state, window=seats, step=Step.ALLY)
        case ev.AllianceAnswered(seat, turn):
            return _dragon(state, seat, answer=turn)
        case ev.AllianceTurned(seat, target):
            return _dragon(state, seat, ally_of=target)
        case ev.AllianceWindowClosed(_):
            return _restate(_unasked(state), step=Step.FLY)
        case ev.HeadingAwaited(seat, cause):
            return _restate(state, step=Step.FACE, facing=seat, face_cause=cause)
        case ev.DragonFaced(seat, _, pose, haven):
            state = _restate(state, step=None, facing=None, face_cause=None)
            return _landed(state, seat, pose, haven)
        case ev.DrawOffered(_, count):
            return _restate(state, step=Step.DRAW, draws=count)
        case ev.DrawChosen():
            return _restate(state, step=None, draws=0)
        case ev.CardPlayed(seat, card):
            return _dragon(_restate(state, discard=(*state.discard, card)), seat, laid=None, shown=False)
        case ev.DragonFlew(seat, template, _, _, pose, haven):
            return _landed(_restate(state, template=template), seat, pose, haven)
        case ev.TemplateCrashed(seat, pose) | ev.DragonCrashed(seat, pose):
            return _dragon(state, seat, pose=pose)
        case magic_events.AllianceJoined(seat, _, pose):
            # The coloured needle goes onto the silver one: the set speed is the dial's, public.
            d = state.dragons[seat]
            return _dragon(_restate(state, mover=seat), seat, pose=pose, ally_of=None, set_speed=d.speed)
        case ev.DragonStruck(_, struck, pose) | magic_events.DragonLassoed(_, struck, pose):
            return _dragon(state, struck, pose=pose)
        case ev.EnergyGained(seat, amount):
            return _dragon(
                _restate(state, supply=state.supply - amount), seat, energy=state.dragons[seat].energy + amount
            )
        case ev.EnergyLost(seat, amount, _):
            return _dragon(
                _restate(state, supply=state.supply + amount), seat, energy=state.dragons[seat].energy - amount
            )
        case ev.DiscardReshuffled(cards):
            return _restate(state, deck=state.deck + cards, discard=())
        case ev.TrapSprung(_, trap, _, _):
            return _restate(state, traps=tuple(t for t in state.traps if t.id != trap))
        case ev.SpeedDialled(seat, speed):
            return _dragon(state, seat, speed=speed)
        case ev.Exhausted(seat, cards, pose):
            d = state.dragons[seat]
            state = _restate(state, discard=state.discard + cards, supply=state.supply + d.energy - DEBILITATUS_ENERGY)
            # Both needles go to 300: a dragon yet to move has no secret speed left; its dial shows it.
            set_speed = None if not d.moved else d.set_speed
            return _dragon(
                state,
                seat,
                hand=(),
                laid=None,
                shown=False,
                exhausted=True,
                pose=pose,
                energy=DEBILITATUS_ENERGY,
                speed=DEBILITATUS_SPEED,
                set_speed=set_speed,
            )
        case ev.DebilitatusLifted(seat):
            return _dragon(state, seat, exhausted=False)
        case ev.DragonEliminated(seat, cards):
            return _out(state, seat, cards)
        case ev.DragonLeft(seat, cards):
            return _restate(_out(state, seat, cards), left=(*state.left, seat))
        case ev.HandOverflowed(seat, _):
            return _restate(state, step=Step.DISCARD)
        case ev.CardsDiscarded(seat, cards):
            state = _restate(state, discard=state.discard + cards)
            return _dragon(state, seat, hand=_without(state.dragons[seat].hand, cards))
        case ev.MagicAwaited(_):
            return _restate(state, step=Step.CAST)
        case ev.LaidCardDiscarded(seat, card):
            return _dragon(_restate(state, discard=(*state.discard, card)), seat, laid=None, shown=False)
        case ev.TurnEnded(seat):
            state = _restate(_unasked(state), mover=None, step=None, facing=None, face_cause=None, draws=0)
            return _dragon(state, seat, moved=True)
        case magic_events.AmuletShielded(seat):
            return _dragon(state, seat, shown=True)
        case magic_events.EnergyDrained(seat, target):
            t, me = state.dragons[target], state.dragons[seat]
            state = _dragon(state, target, energy=t.energy - 1)
            if me.energy < ENERGY_LIMIT:
                return _dragon(state, seat, energy=me.energy + 1)
            return _restate(state, supply=state.supply + 1)
        case magic_events.TrapsLaid(_, spots, values):
            traps = tuple(Trap(i, x, y, v) for (i, x, y), v in zip(spots, values, strict=True))
            return _restate(
                state,
                traps=state.traps + traps,
                stock=state.stock[len(values) :],
                next_trap=state.next_trap + len(values),
            )
        case ev.RaceFinished(reason):
            return _restate(state, phase=Phase.OVER, mover=None, step=None, result=reason)
        case magic_events.MagicMissed(seat, _, _):
            return _dragon(state, seat, ally_of=None) if state.dragons[seat].ally_of is not None else state
        case ev.MagicHeld() | magic_events.FireballRolled():
            return state
    raise TypeError(f"unknown event {event!r}")


def blank(layout: str, backwards: bool, seats: int, tokens: int) -> RaceState:
    """The state before setup: dragons off the board, the energy all in the supply."""
    nowhere = Pose(0.0, 0.0, 0.0, 0.0)
    dragons = tuple(Dragon(pose=nowhere, place=0, energy=0, speed=100) for _ in range(seats))
    return RaceState(layout, backwards, Phase.SETUP, 0, dragons, supply=tokens)
