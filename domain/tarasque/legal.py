"""``legal_moves``: every complete move the active seat may make now, each accepted as is.

Lists stay short: at most a dozen set-aside choices after a roll, a few rows
per tile to store, and the takeable tiles by dice spent plus the egg moves at
the end of a turn (tens, rarely a hundred).
"""

from __future__ import annotations

from functools import cache

from domain.kernel import Command
from domain.tarasque import lair
from domain.tarasque.commands import EndTurn, MoveLairTile, RemoveTile, Roll, SetAside, Stop, StoreTile, TakeTile
from domain.tarasque.queries import egg_available, take_options, targets, tile_to_store
from domain.tarasque.state import AWAITING, Phase, TarasqueState

_ROLL = Roll()
_STOP = Stop()
_END = EndTurn()

# Commands are immutable values: listing hands out shared instances instead of building
# the same few hundred objects at every decision.
_remove = cache(RemoveTile)
_store = cache(StoreTile)
_set_aside = cache(SetAside)
_take = cache(TakeTile)
_move = cache(MoveLairTile)


def legal_moves(state: TarasqueState, seat: int) -> list[Command]:
    """The moves of ``seat``; empty unless it is the active seat with a decision to make."""
    turn = state.turn
    phase = turn.phase
    if seat != turn.seat or phase not in AWAITING or seat in state.left:
        return []
    if phase is Phase.SELECT:
        return _set_asides(state)
    if phase is Phase.CONTINUE:
        moves = _set_asides(state)
        moves.append(_ROLL)
        moves.append(_STOP)
        return moves
    if phase is Phase.TAKE:
        return _end_of_turn(state)
    if phase is Phase.REMOVE:
        return [_remove(t) for t in state.board.middle]
    tile = tile_to_store(state)
    assert tile is not None
    rows: list[int | None] = list(lair.compatible_rows(state.board.lairs[seat], tile, state.deck))
    rows.append(None)
    return [_store(tile, r) for r in rows]


def _set_asides(state: TarasqueState) -> list[Command]:
    """Per valid symbol of the roll not yet set aside from it: 1 to all such dice, with or without the egg."""
    turn = state.turn
    valid = targets(state)
    showing = turn.showing
    eggs = (False, True) if egg_available(state) else (False,)
    moves: list[Command] = []
    for symbol in state.deck.faces:
        if symbol in valid and symbol not in turn.chosen:
            for count in range(1, showing.count(symbol) + 1):
                for egg in eggs:
                    moves.append(_set_aside(symbol, count, egg))
    return moves


def _end_of_turn(state: TarasqueState) -> list[Command]:
    """Each takeable tile with each number of dice it may cost, the egg moves, and ending the turn."""
    moves: list[Command] = [
        _take(tile, dice) for tile, needed, available in take_options(state) for dice in range(needed, available + 1)
    ]
    seat = state.turn.seat
    if state.board.eggs[seat] > 0:
        moves.extend(_move(t, r) for t, r in lair.moves(state.board.lairs[seat], state.deck))
    moves.append(_END)
    return moves
