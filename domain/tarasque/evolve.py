"""``evolve``: the state after an event. Total and unchecked: it trusts the event.

Each handler also sets the turn's next phase, so that the automatic steps
(``advance``) and the awaited decisions can be read off the state alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.kernel import Event
from domain.kernel.slots import replacer
from domain.tarasque import lair
from domain.tarasque.events import (
    DiceRolled,
    DiceSetAside,
    EggGiven,
    GameEnded,
    LairTileMoved,
    MiddleRefilled,
    PileShuffled,
    RollingEnded,
    RollingStopped,
    SeatLeft,
    TileRemoved,
    TileStored,
    TileTaken,
    TurnEnded,
    TurnStarted,
)
from domain.tarasque.queries import middle_size, removal_due
from domain.tarasque.state import Board, Phase, TarasqueState, Turn
from domain.tarasque.tiles import DICE, SIDES

R = TypeVar("R", Board, Turn)
T = TypeVar("T")


_REPLACERS: dict[type, Any] = {Board: replacer(Board), Turn: replacer(Turn)}
"""Each record type's replacer (``Any``: the type of a value depends on its key)."""


def replace(record: R, **changes: Any) -> R:
    """``dataclasses.replace`` for the state's slotted records, faster (``domain.kernel.slots``):
    evolve runs on every event."""
    replace_as: Callable[..., R] = _REPLACERS[type(record)]
    return replace_as(record, **changes)


def evolve(state: TarasqueState, event: Event) -> TarasqueState:
    """The state after ``event``."""
    return _HANDLERS[type(event)](state, event)


def _put(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _without(values: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(v for v in values if v != item)


def _with_board(state: TarasqueState, board: Board, turn: Turn | None = None) -> TarasqueState:
    return TarasqueState(state.variant, state.seats, board, turn or state.turn, state.left, state.result)


def _with_turn(state: TarasqueState, turn: Turn) -> TarasqueState:
    return TarasqueState(state.variant, state.seats, state.board, turn, state.left, state.result)


def _phase(state: TarasqueState, phase: Phase) -> TarasqueState:
    return _with_turn(state, replace(state.turn, phase=phase))


_PRELUDE = (Phase.REFILL, Phase.REMOVE, Phase.STORE, Phase.ROLL)
"""A turn's automatic prelude, in order: refill the middle, (2 players) remove a middle
tile, store the base tiles (from the second round), then roll."""


def _prelude(state: TarasqueState, board: Board, seat: int, round_: int, done: Phase) -> Phase:
    """The first step of the prelude after ``done`` that applies (``done`` is NEXT at the start).

    2 players: a middle tile is removed when the middle holds 4 (``removal_due``); at the
    end of the pile, when fewer than 4 could be turned up, nothing is removed.
    """
    for step in _PRELUDE[_PRELUDE.index(done) + 1 if done in _PRELUDE else 0 :]:
        if step is Phase.REFILL and board.pile and len(board.middle) < middle_size(state):
            return step
        if step is Phase.REMOVE and removal_due(state, board.middle):
            return step
        if step is Phase.STORE and round_ >= 2 and any(board.bases[seat]):
            return step
    return Phase.ROLL


# ---------------------------------------------------------------- the turn's prelude


def _shuffled(state: TarasqueState, e: PileShuffled) -> TarasqueState:
    return _with_board(state, replace(state.board, pile=e.order), replace(state.turn, phase=Phase.NEXT))


def _turn_started(state: TarasqueState, e: TurnStarted) -> TarasqueState:
    phase = _prelude(state, state.board, e.seat, e.round, Phase.NEXT)
    return _with_turn(state, Turn(seat=e.seat, round=e.round, phase=phase))


def _refilled(state: TarasqueState, e: MiddleRefilled) -> TarasqueState:
    board, turn = state.board, state.turn
    pile = tuple(t for t in board.pile if t not in e.tiles)
    board = replace(board, pile=pile, middle=board.middle + e.tiles)
    phase = _prelude(state, board, turn.seat, turn.round, Phase.REFILL)
    return _with_board(state, board, replace(turn, phase=phase))


def _removed(state: TarasqueState, e: TileRemoved) -> TarasqueState:
    board, turn = state.board, state.turn
    board = replace(board, middle=_without(board.middle, e.tile), removed=(*board.removed, e.tile))
    phase = _prelude(state, board, turn.seat, turn.round, Phase.REMOVE)
    return _with_board(state, board, replace(turn, phase=phase))


def _stored(state: TarasqueState, e: TileStored) -> TarasqueState:
    board, turn = state.board, state.turn
    lairs = _put(board.lairs, e.seat, lair.add(board.lairs[e.seat], e.tile, e.row))
    if turn.pending == e.tile:
        return _with_board(state, replace(board, lairs=lairs), replace(turn, pending=None, phase=Phase.TAKE))
    base = tuple(_without(side, e.tile) for side in board.bases[e.seat])
    board = replace(board, lairs=lairs, bases=_put(board.bases, e.seat, base))
    phase = _prelude(state, board, turn.seat, turn.round, Phase.REMOVE)
    return _with_board(state, board, replace(turn, phase=phase))


# ---------------------------------------------------------------- rolling


def _rolled(state: TarasqueState, e: DiceRolled) -> TarasqueState:
    turn = state.turn
    return _with_turn(state, replace(turn, showing=e.values, chosen=(), rolls=turn.rolls + 1, phase=Phase.SELECT))


def _set_aside(state: TarasqueState, e: DiceSetAside) -> TarasqueState:
    turn, board = state.turn, state.board
    showing = list(turn.showing)
    for _ in range(e.count):
        showing.remove(e.symbol)
    i = state.deck.face_index[e.symbol]
    turn = replace(
        turn,
        dice=turn.dice - e.count,
        showing=tuple(showing),
        chosen=(*turn.chosen, e.symbol),
        aside=_put(turn.aside, i, turn.aside[i] + e.count),
        egg=e.symbol if e.egg else turn.egg,
        phase=Phase.CONTINUE,
    )
    if not e.egg:
        return _with_turn(state, turn)
    eggs = _put(board.eggs, e.seat, board.eggs[e.seat] - 1)
    return _with_board(state, replace(board, eggs=eggs, supply=board.supply + 1), turn)


def _stopped(state: TarasqueState, e: RollingStopped | RollingEnded) -> TarasqueState:
    return _phase(state, Phase.TAKE)


# ---------------------------------------------------------------- taking


def _taken(state: TarasqueState, e: TileTaken) -> TarasqueState:
    board, turn = state.board, state.turn
    bases = board.bases
    middle = board.middle
    if e.victim is None:
        middle = _without(middle, e.tile)
    else:
        victim = tuple(_without(side, e.tile) for side in bases[e.victim])
        bases = _put(bases, e.victim, victim)
    if e.side is not None:
        k = SIDES.index(e.side)
        mine = bases[e.seat]
        bases = _put(bases, e.seat, _put(mine, k, (*mine[k], e.tile)))
    i = state.deck.face_index[state.deck.symbol[e.tile]]
    turn = replace(
        turn,
        spent=_put(turn.spent, i, turn.spent[i] + e.dice),
        pending=e.tile if e.side is None else turn.pending,
        extra=turn.extra or e.extra_turn,
        phase=Phase.PLACE if e.side is None else Phase.TAKE,
    )
    return _with_board(state, replace(board, middle=middle, bases=bases), turn)


def _egg_given(state: TarasqueState, e: EggGiven) -> TarasqueState:
    board = state.board
    eggs = _put(board.eggs, e.seat, board.eggs[e.seat] + 1)
    return _with_board(state, replace(board, eggs=eggs, supply=board.supply - 1))


def _lair_moved(state: TarasqueState, e: LairTileMoved) -> TarasqueState:
    board = state.board
    lairs = _put(board.lairs, e.seat, lair.move(board.lairs[e.seat], e.tile, e.row))
    eggs = _put(board.eggs, e.seat, board.eggs[e.seat] - 1)
    return _with_board(state, replace(board, lairs=lairs, eggs=eggs, supply=board.supply + 1))


def _turn_ended(state: TarasqueState, e: TurnEnded) -> TarasqueState:
    return _phase(state, Phase.NEXT)


# ---------------------------------------------------------------- leaving and the end


def _left(state: TarasqueState, e: SeatLeft) -> TarasqueState:
    board, turn = state.board, state.turn
    bases = _put(board.bases, e.seat, ((),) * len(SIDES))
    eggs = _put(board.eggs, e.seat, 0)
    board = replace(board, bases=bases, removed=board.removed + e.removed, eggs=eggs, supply=board.supply + e.eggs)
    if turn.seat == e.seat and turn.phase is not Phase.OVER:
        turn = replace(turn, pending=None, extra=False, dice=DICE, showing=(), chosen=(), phase=Phase.NEXT)
    return TarasqueState(state.variant, state.seats, board, turn, (*state.left, e.seat), state.result)


def _ended(state: TarasqueState, e: GameEnded) -> TarasqueState:
    turn = replace(state.turn, phase=Phase.OVER)
    return TarasqueState(state.variant, state.seats, state.board, turn, state.left, e.reason)


_HANDLERS: dict[type, Callable[[TarasqueState, Any], TarasqueState]] = {
    PileShuffled: _shuffled,
    TurnStarted: _turn_started,
    MiddleRefilled: _refilled,
    TileRemoved: _removed,
    TileStored: _stored,
    DiceRolled: _rolled,
    DiceSetAside: _set_aside,
    RollingStopped: _stopped,
    RollingEnded: _stopped,
    TileTaken: _taken,
    EggGiven: _egg_given,
    LairTileMoved: _lair_moved,
    TurnEnded: _turn_ended,
    SeatLeft: _left,
    GameEnded: _ended,
}
