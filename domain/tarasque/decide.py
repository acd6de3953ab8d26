"""``decide``: the only place that checks the rules of a move.

Each command's handler checks it against the state, then emits its events;
``advance`` then adds the automatic steps. Refusals name the move and the rule,
and reveal nothing hidden (the only secret is the order of the pile).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import (
    Command,
    Emitter,
    Event,
    Evolves,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    Rng,
    RuleRef,
)
from domain.kernel.rules import GAME_ENDED, MOVE_SHAPE, TURN_ORDER
from domain.tarasque import lair
from domain.tarasque import rulebook as rb
from domain.tarasque.advance import advance
from domain.tarasque.commands import EndTurn, MoveLairTile, RemoveTile, Roll, SetAside, Stop, StoreTile, TakeTile
from domain.tarasque.events import (
    DiceRolled,
    DiceSetAside,
    EggGiven,
    LairTileMoved,
    RollingStopped,
    TileRemoved,
    TileStored,
    TileTaken,
    TurnEnded,
)
from domain.tarasque.queries import destination, egg_available, locate, need, pool, targets, tile_to_store
from domain.tarasque.state import AWAITING, Lair, Phase, TarasqueState
from domain.tarasque.tiles import LAIR_DICE

Out = Emitter[TarasqueState]


def decide(ruleset: Evolves[TarasqueState], state: TarasqueState, seat: int, command: Command, rng: Rng) -> list[Event]:
    """The events of ``command`` by ``seat``, then the automatic steps that follow.

    :raises GameOver: once the game has ended.
    :raises NotYourTurn: for any seat but the active one.
    :raises IllegalMove: for a move the rules forbid now.
    """
    turn = state.turn
    if turn.phase is Phase.OVER:
        raise GameOver(f"{command.TYPE}: the game is over", GAME_ENDED)
    if seat != turn.seat or turn.phase not in AWAITING or seat in state.left:
        raise NotYourTurn(f"{command.TYPE}: {_why_not_now(state, seat)}", TURN_ORDER)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise MalformedMove(f"{command.TYPE} is not a Tarasque move", MOVE_SHAPE)
    out = Emitter(ruleset, state)
    handler(state, seat, command, out, rng)
    advance(out, rng)
    return out.events


def _phase_error(command: Command, phase: Phase) -> IllegalMove:
    """The refusal of a move made in the wrong part of the turn, citing what is awaited."""
    awaited: dict[Phase, tuple[str, RuleRef]] = {
        Phase.REMOVE: ("remove a middle tile first (2 players)", rb.TWO_PLAYERS),
        Phase.STORE: ("store your base tiles in your lair first", rb.STORE),
        Phase.PLACE: ("choose the lair row of the tile won with six dice first", rb.SIX),
        Phase.SELECT: ("set aside at least one valid die from this roll first", rb.ROLL),
        Phase.CONTINUE: ("set aside more dice, roll again or stop", rb.STOP),
        Phase.TAKE: ("rolling has ended: take tiles, move a lair tile or end the turn", rb.SIDE),
    }
    text, rule = awaited[phase]
    return IllegalMove(f"{command.TYPE} is not allowed now: {text}", rule)


def _remove(state: TarasqueState, seat: int, cmd: RemoveTile, out: Out, rng: Rng) -> None:
    """2 players: one of the middle tiles leaves the game for good."""
    if state.turn.phase is not Phase.REMOVE:
        raise _phase_error(cmd, state.turn.phase)
    if cmd.tile not in state.board.middle:
        raise IllegalMove(f"remove_tile {cmd.tile!r}: that tile is not in the middle", rb.TWO_PLAYERS)
    out.emit(TileRemoved(seat, cmd.tile))


def _store(state: TarasqueState, seat: int, cmd: StoreTile, out: Out, rng: Rng) -> None:
    """The next base tile (or the tile won with six) joins a row it fits, or opens a new row."""
    phase = state.turn.phase
    if phase is not Phase.STORE and phase is not Phase.PLACE:
        raise _phase_error(cmd, phase)
    tile = tile_to_store(state)
    if cmd.tile != tile:
        rule = rb.SIX if phase is Phase.PLACE else rb.DESIGNED_STORE_ORDER
        raise IllegalMove(f"store_tile {cmd.tile!r}: the tile to store now is {tile!r}", rule)
    mine = state.board.lairs[seat]
    if cmd.row is None:
        out.emit(TileStored(seat, tile, len(mine)))
        return
    if not 0 <= cmd.row < len(mine) or not lair.fits(mine[cmd.row], tile, state.deck):
        raise IllegalMove(f"store_tile {tile!r} in row {cmd.row}: {_row_problem(mine, cmd.row)}", _rows(state))
    out.emit(TileStored(seat, tile, cmd.row))


def _row_problem(mine: Lair, row: int) -> str:
    if not 0 <= row < len(mine):
        return f"your lair has {len(mine)} rows, numbered from 0 (null opens a new row)"
    return "the row must stay one colour with different marks, or one mark with different colours"


def _rows(state: TarasqueState) -> RuleRef:
    return rb.LAIR_ROWS_NUMBERED if state.variant == "numbered" else rb.LAIR_ROWS


def _set_aside(state: TarasqueState, seat: int, cmd: SetAside, out: Out, rng: Rng) -> None:
    """Valid dice of one symbol leave the hand for good, one of them on the egg if asked."""
    turn = state.turn
    if turn.phase is not Phase.SELECT and turn.phase is not Phase.CONTINUE:
        raise _phase_error(cmd, turn.phase)
    what = f"set_aside {cmd.count} {cmd.symbol!r}"
    if cmd.symbol not in state.deck.face_index:
        faces = ", ".join(state.deck.faces)
        raise IllegalMove(f"{what}: the dice show {faces}", _dice(state))
    if cmd.symbol in turn.chosen:
        raise IllegalMove(
            f"{what}: the {cmd.symbol} dice of this roll are already set aside", rb.DESIGNED_SET_ASIDE_ONCE
        )
    if cmd.symbol not in targets(state):
        raise IllegalMove(f"{what}: no tile in the middle or at another base shows {cmd.symbol}", rb.VALID_DIE)
    showing = turn.showing.count(cmd.symbol)
    if not 1 <= cmd.count <= showing:
        raise IllegalMove(f"{what}: the roll shows {showing} such dice", rb.ROLL)
    if cmd.egg and not egg_available(state):
        why = "an egg was already used this turn" if turn.egg is not None else "you have no egg"
        raise IllegalMove(f"{what} on an egg: {why}", rb.EGG)
    out.emit(DiceSetAside(seat, cmd.symbol, cmd.count, cmd.egg))


def _dice(state: TarasqueState) -> RuleRef:
    return rb.NUMBERED_DICE if state.variant == "numbered" else rb.VALID_DIE


def _roll(state: TarasqueState, seat: int, cmd: Roll, out: Out, rng: Rng) -> None:
    """The dice still in hand are rolled again, once some were set aside from the last roll."""
    if state.turn.phase is not Phase.CONTINUE:
        raise _phase_error(cmd, state.turn.phase)
    out.emit(DiceRolled(seat, rng.roll(state.deck.faces, state.turn.dice)))


def _stop(state: TarasqueState, seat: int, cmd: Stop, out: Out, rng: Rng) -> None:
    """The player stops rolling after a roll they set dice aside from (README decision)."""
    if state.turn.phase is not Phase.CONTINUE:
        raise _phase_error(cmd, state.turn.phase)
    out.emit(RollingStopped(seat))


def _take(state: TarasqueState, seat: int, cmd: TakeTile, out: Out, rng: Rng) -> None:
    """Spend dice of the tile's symbol on it: 2 or more in the middle, side + 1 at another base;
    it goes to the side equal to the dice spent, or into the lair from 6 on."""
    if state.turn.phase is not Phase.TAKE:
        raise _phase_error(cmd, state.turn.phase)
    what = f"take_tile {cmd.tile!r} with {cmd.dice} dice"
    where = locate(state, cmd.tile)
    if where is None:
        raise IllegalMove(f"{what}: it is neither in the middle nor at another player's base", rb.VALID_DIE)
    victim, side = where
    needed = need(side)
    if cmd.dice < needed:
        rule = rb.TAKE_MIDDLE if side is None else rb.STEAL
        raise IllegalMove(f"{what}: it needs at least {needed}", rule)
    symbol = state.deck.symbol[cmd.tile]
    left = pool(state, symbol)
    if cmd.dice > left:
        raise IllegalMove(f"{what}: you have {left} {symbol} dice left to spend", rb.SPLIT)
    out.emit(TileTaken(seat, cmd.tile, cmd.dice, victim, destination(cmd.dice), cmd.dice >= LAIR_DICE))
    if victim is not None and state.board.supply > 0:
        out.emit(EggGiven(victim))


def _move(state: TarasqueState, seat: int, cmd: MoveLairTile, out: Out, rng: Rng) -> None:
    """At the end of the turn, an egg buys moving one lair tile into another row it fits, or into a
    new row ("la placer dans une autre"; new rows may always be opened)."""
    if state.turn.phase is not Phase.TAKE:
        raise _phase_error(cmd, state.turn.phase)
    what = f"move_lair_tile {cmd.tile!r} to {'a new row' if cmd.row is None else f'row {cmd.row}'}"
    if state.board.eggs[seat] < 1:
        raise IllegalMove(f"{what}: it costs an egg and you have none", rb.LAIR_MOVE)
    mine = state.board.lairs[seat]
    home = next((i for i, row in enumerate(mine) if cmd.tile in row), None)
    if home is None:
        raise IllegalMove(f"{what}: that tile is not in your lair", rb.LAIR_FIXED)
    if cmd.row is None:
        if len(mine[home]) == 1:
            raise IllegalMove(f"{what}: it is alone in its row already; a new row would change nothing", rb.LAIR_MOVE)
    elif not 0 <= cmd.row < len(mine) or cmd.row == home:
        raise IllegalMove(
            f"{what}: choose another of your rows, 0 to {len(mine) - 1}, or null for a new row", rb.LAIR_MOVE
        )
    elif not lair.fits(mine[cmd.row], cmd.tile, state.deck):
        raise IllegalMove(f"{what}: {_row_problem(mine, cmd.row)}", _rows(state))
    out.emit(LairTileMoved(seat, cmd.tile, len(mine) if cmd.row is None else cmd.row))
    out.emit(TurnEnded(seat))


def _end(state: TarasqueState, seat: int, cmd: EndTurn, out: Out, rng: Rng) -> None:
    """The player takes nothing more and ends the turn."""
    if state.turn.phase is not Phase.TAKE:
        raise _phase_error(cmd, state.turn.phase)
    out.emit(TurnEnded(seat))


_HANDLERS: dict[type, Callable[[TarasqueState, int, Any, Out, Rng], None]] = {
    RemoveTile: _remove,
    StoreTile: _store,
    SetAside: _set_aside,
    Roll: _roll,
    Stop: _stop,
    TakeTile: _take,
    MoveLairTile: _move,
    EndTurn: _end,
}


def _why_not_now(state: TarasqueState, seat: int) -> str:
    """Why ``seat`` may not decide now, in words that are true in every case."""
    if seat in state.left:
        return f"seat {seat} has left the game"
    if state.turn.phase not in AWAITING:
        return "no decision is awaited now: the turn is being set up"
    return f"it is seat {state.turn.seat}'s turn, not seat {seat}'s"
