"""evolve(): the state after an event. Total and unchecked: it trusts the event."""

from __future__ import annotations

from typing import TypeVar

from domain.kernel import Event
from domain.kernel.slots import replacer
from domain.mekong.board import Site
from domain.mekong.events import (
    LOST_ACTIONS,
    ActionCancelled,
    CardsProgrammed,
    DestinationReached,
    FirstPlayerDrawn,
    LastSeatStanding,
    PawnFell,
    PawnJumped,
    PawnMoved,
    PlankFellShort,
    PlankLost,
    PlankPlaced,
    PlankTaken,
    PositionRevealed,
    RoundEnded,
    RoundLimitReached,
    SeatLeft,
    StonePlaced,
    StoneRemoved,
)
from domain.mekong.state import NO_TASK, Bridge, MekongState, Phase, Task, stone_order
from domain.mekong.turns import current_actor

T = TypeVar("T")

replace = replacer(MekongState)
"""``dataclasses.replace`` for the state, faster (``domain.kernel.slots``): evolve runs for every event."""


def evolve(state: MekongState, event: Event) -> MekongState:
    """The state after ``event``; raises ``TypeError`` only for an event of another game."""
    match event:
        case FirstPlayerDrawn(seat=seat):
            return replace(state, phase=Phase.PROGRAMMING, first=seat)
        case CardsProgrammed(seat=seat, cards=cards):
            return replace(state, programmes=_put(state.programmes, seat, cards))
        case PositionRevealed(position=position):
            return replace(state, phase=Phase.RESOLUTION, position=position, acted=(False,) * state.seats, task=NO_TASK)
        case PawnFell(seat=seat):
            return _finish(replace(state, pawns=_put(state.pawns, seat, state.start(seat))), seat)
        case ActionCancelled(seat=seat):
            return _finish(state, seat)
        case StonePlaced(seat=seat, stone=stone, x=x, y=y):
            site = Site(stone, x, y)
            stones = tuple(sorted((*state.stones, site), key=stone_order))
            drops = state.drops if state.edition.islands else (*state.drops, site)
            return _progress(replace(state, stones=stones, stone_reserve=state.stone_reserve - 1, drops=drops), seat)
        case PlankPlaced(seat=seat, plank=plank, ends=ends):
            bridges = tuple(sorted((*state.bridges, Bridge(plank, ends)), key=lambda b: b.plank))
            reserves = _put(state.reserves, seat, tuple(p for p in state.reserves[seat] if p != plank))
            return _progress(replace(state, bridges=bridges, reserves=reserves), seat)
        case PlankFellShort(plank=plank, ends=ends):
            task = Task(state.task.done, plank, (*state.task.tried, ends))
            return replace(state, task=task)
        case PlankLost(seat=seat, plank=plank):
            reserves = _put(state.reserves, seat, tuple(p for p in state.reserves[seat] if p != plank))
            return _progress(replace(state, reserves=reserves, lost=tuple(sorted((*state.lost, plank)))), seat)
        case PlankTaken(seat=seat, plank=plank):
            bridges = tuple(b for b in state.bridges if b.plank != plank)
            reserves = _put(state.reserves, seat, tuple(sorted((*state.reserves[seat], plank))))
            return _finish(replace(state, bridges=bridges, reserves=reserves), seat)
        case StoneRemoved(seat=seat, stone=stone):
            stones = tuple(s for s in state.stones if s.name != stone)
            return _finish(replace(state, stones=stones, stone_reserve=state.stone_reserve + 1), seat)
        case PawnMoved(seat=seat, path=path):
            return _finish(replace(state, pawns=_put(state.pawns, seat, path[-1])), seat)
        case PawnJumped(seat=seat, to=to):
            return _finish(replace(state, pawns=_put(state.pawns, seat, to)), seat)
        case RoundEnded(round=number, first=first):
            return replace(
                state,
                phase=Phase.PROGRAMMING,
                round=number + 1,
                first=first,
                programmes=((),) * state.seats,
                position=0,
                acted=(),
                task=NO_TASK,
            )
        case DestinationReached(seat=seat):
            return replace(state, phase=Phase.OVER, winner=seat, ending="crossing")
        case RoundLimitReached():
            return replace(state, phase=Phase.OVER, ending="round-limit")
        case SeatLeft(seat=seat):
            task = NO_TASK if current_actor(state) == seat else state.task
            return replace(
                state,
                left=(*state.left, seat),
                pawns=_put(state.pawns, seat, None),
                programmes=_put(state.programmes, seat, ()),
                task=task,
            )
        case LastSeatStanding(seat=seat):
            return replace(state, phase=Phase.OVER, winner=seat, ending="last-standing")
    if isinstance(event, LOST_ACTIONS):
        return _finish(state, event.seat)
    raise TypeError(f"unknown event {event!r}")


def _put(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _finish(state: MekongState, seat: int) -> MekongState:
    """``seat`` is done with its card at this position."""
    return replace(state, acted=_put(state.acted, seat, True), task=NO_TASK)


def _progress(state: MekongState, seat: int) -> MekongState:
    """One more stone or plank of ``seat``'s card is placed (or lost); the card ends after its count."""
    card = state.card(seat)
    done = state.task.done + 1
    if card is None or done >= card.count:
        return _finish(state, seat)
    return replace(state, task=Task(done))
