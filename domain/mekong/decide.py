"""decide(): the only place that checks the rules. Returns the events of a command,
followed by the automatic steps (``flow.advance``) until a decision is awaited again."""

from __future__ import annotations

import math

from domain.kernel import Command, Event, GameOver, IllegalMove, NotYourTurn
from domain.kernel.rules import GAME_ENDED, TURN_ORDER
from domain.mekong import rulebook as rb
from domain.mekong.board import ISLANDS
from domain.mekong.building import (
    bare_stones,
    drop_fault,
    fits_somewhere,
    reserve_fault,
    stone_name,
    stone_spots,
)
from domain.mekong.cards import PLANK_CARDS, STONE_CARDS, Card, programme_fault
from domain.mekong.commands import Jump, Move, PlacePlank, PlaceStone, PlaceStoneAt, Program, RemovePlank, RemoveStone
from domain.mekong.events import (
    CardsProgrammed,
    DestinationReached,
    PawnJumped,
    PawnMoved,
    PlankFellShort,
    PlankLost,
    PlankPlaced,
    PlankTaken,
    StonePlaced,
    StoneRemoved,
)
from domain.mekong.flow import advance, emitter
from domain.mekong.layout import layout
from domain.mekong.pawns import is_plank, jumps, move_paths
from domain.mekong.state import MekongState, Phase, plank_size
from domain.mekong.turns import current_actor

_ISLAND_SITES = {s.name: s for s in ISLANDS}


def awaiting(state: MekongState) -> tuple[int, ...]:
    """Seats still to program (together), or the one seat carrying out its card."""
    if state.phase is Phase.PROGRAMMING:
        return tuple(s for s in range(state.seats) if state.in_play(s) and not state.programmes[s])
    if state.phase is Phase.RESOLUTION:
        actor = current_actor(state)
        return () if actor is None else (actor,)
    return ()


def decide(state: MekongState, seat: int, command: Command) -> list[Event]:
    """The events ``command`` by ``seat`` causes, then the automatic steps that follow.

    :raises GameOver: once the game has ended.
    :raises NotYourTurn: when ``seat``'s decision is not awaited.
    :raises IllegalMove: when the rules refuse the command; nothing happened then.
    """
    if state.phase is Phase.OVER:
        raise GameOver(f"{command.TYPE}: the game is over", GAME_ENDED)
    if seat not in awaiting(state):
        raise NotYourTurn(f"{command.TYPE}: seat {seat} is not awaited now", TURN_ORDER)
    out = emitter(state)
    if state.phase is Phase.PROGRAMMING:
        if not isinstance(command, Program):
            raise IllegalMove(f"{command.TYPE}: every seat first programs its 5 cards", rb.PROGRAMMING)
        out.emit(_program(state, seat, command))
    else:
        for event in _carry_out(state, seat, command):
            out.emit(event)
    advance(out)
    return out.events


def _program(state: MekongState, seat: int, command: Program) -> Event:
    fault = programme_fault(command.cards, state.hand(seat))
    if fault is not None:
        raise IllegalMove(f"program: {fault[0]}", fault[1])
    return CardsProgrammed(seat, command.cards)


def _carry_out(state: MekongState, seat: int, command: Command) -> list[Event]:
    card = state.card(seat)
    assert card is not None
    wanted = _COMMANDS_OF[card]
    if not isinstance(command, wanted):
        names = " or ".join(w.TYPE for w in wanted)
        raise IllegalMove(
            f"{command.TYPE}: your card at position {state.position} is {card.value}; play {names}", rb.REVEAL
        )
    match command:
        case PlaceStone(island=island):
            return [_place_stone(state, seat, island)]
        case PlaceStoneAt(x=x, y=y):
            if state.edition.islands:
                raise IllegalMove(
                    f"place_stone_at ({x}, {y}): this board has islands; use place_stone", rb.STONE_ON_ISLAND
                )
            if not (math.isfinite(x) and math.isfinite(y) and x == round(x) and y == round(y)):
                raise IllegalMove(f"place_stone_at ({x}, {y}): drop at whole units", rb.DROP_RESOLUTION)
            fault = drop_fault(state, x, y)
            if fault is not None:
                raise IllegalMove(f"place_stone_at ({x}, {y}): {fault}", rb.STONE_IN_WATER)
            return [StonePlaced(seat, stone_name(state), x, y)]
        case PlacePlank(plank=plank, ends=ends):
            return _place_plank(state, seat, plank, ends)
        case RemovePlank(plank=plank):
            return [_take_plank(state, seat, plank)]
        case RemoveStone(stone=stone):
            if not any(s.name == stone for s in state.stones):
                raise IllegalMove(f"remove_stone {stone}: not a stone on the board", rb.REMOVE_A_STONE)
            if stone not in bare_stones(state):
                raise IllegalMove(f"remove_stone {stone}: a plank rests on it", rb.REMOVE_STONE)
            return [StoneRemoved(seat, stone)]
        case Move(path=path):
            return _move(state, seat, card, path)
        case Jump(over=over, to=to):
            if (over, to) not in jumps(state, seat):
                raise IllegalMove(
                    f"jump over {over} to {to}: a jump goes over a pawn on a neighbouring plank "
                    "to a free plank or a village at that plank's far end",
                    rb.JUMP,
                )
            return _arrive(state, seat, PawnJumped(seat, over, to), to)
    raise IllegalMove(f"{command.TYPE}: not a move of this game", rb.REVEAL)  # pragma: no cover


_COMMANDS_OF: dict[Card, tuple[type[Command], ...]] = {
    **{c: (PlaceStone, PlaceStoneAt) for c in STONE_CARDS},
    **{c: (PlacePlank,) for c in PLANK_CARDS},
    Card.REMOVE: (RemovePlank, RemoveStone),
    Card.MOVE_1: (Move,),
    Card.MOVE_2: (Move,),
    Card.JUMP: (Jump,),
}


def _place_stone(state: MekongState, seat: int, island: str) -> Event:
    if not state.edition.islands:
        raise IllegalMove(f"place_stone {island}: this board has no islands; use place_stone_at", rb.STONE_IN_WATER)
    site = _ISLAND_SITES.get(island)
    if site is None:
        raise IllegalMove(f"place_stone {island}: not an island (villages take no stone)", rb.STONE_ISLAND)
    if island not in stone_spots(state):
        if any(s.name == island for s in state.stones):
            raise IllegalMove(f"place_stone {island}: that island already has its stone", rb.STONE_ISLAND)
        raise IllegalMove(f"place_stone {island}: a plank passes over that island", rb.STONE_NOT_UNDER_PLANK)
    return StonePlaced(seat, island, site.x, site.y)


def _place_plank(state: MekongState, seat: int, plank: str, ends: tuple[str, str]) -> list[Event]:
    """A named plank and supports: placed if it reaches, else a failed attempt (and lost if it fits nowhere).

    Naming is the attempt ("Il n'a pas le droit de procéder à un essai"): only
    what anyone can see of the place refuses it (``Layout.span_fault``). A gap
    the plank does not reach, however wide, is a recorded ``PlankFellShort``."""
    shown = f"place_plank {plank} on {ends[0]}-{ends[1]}"
    if plank not in state.reserves[seat]:
        raise IllegalMove(f"{shown}: that plank is not in your reserve", rb.PLANK_FROM_RESERVE)
    retry = state.task.retry
    if retry is not None and plank != retry:
        raise IllegalMove(f"{shown}: {retry} fell short and must be placed elsewhere first", rb.PLANK_TOO_SHORT)
    lay = layout(state)
    fault = lay.span_fault(*ends)
    if fault is not None:
        raise IllegalMove(f"{shown}: {fault[0]}", fault[1])
    key = lay.ordered(*ends)
    if retry is not None and key in state.task.tried:
        raise IllegalMove(f"{shown}: {plank} was already found too short there", rb.PLANK_TOO_SHORT)
    need = lay.need(*key)
    if need is not None and plank_size(plank) >= need:
        return [PlankPlaced(seat, plank, key)]
    if fits_somewhere(lay, plank):
        return [PlankFellShort(seat, plank, key)]
    return [PlankFellShort(seat, plank, key), PlankLost(seat, plank)]


def _take_plank(state: MekongState, seat: int, plank: str) -> Event:
    if not any(b.plank == plank for b in state.bridges):
        raise IllegalMove(f"remove_plank {plank}: that plank is not on the board", rb.REMOVE)
    if plank in state.pawns:
        raise IllegalMove(f"remove_plank {plank}: a pawn stands on it", rb.REMOVE_OCCUPIED)
    fault = reserve_fault(state.reserves[seat], plank)
    if fault is not None:
        raise IllegalMove(f"remove_plank {plank}: {fault[0]}", fault[1])
    return PlankTaken(seat, plank)


def _move(state: MekongState, seat: int, card: Card, path: tuple[str, ...]) -> list[Event]:
    if path in move_paths(state, seat, card):
        return _arrive(state, seat, PawnMoved(seat, path), path[-1])
    rule = rb.MOVE_1 if card is Card.MOVE_1 else rb.MOVE_2
    here = state.pawns[seat]
    if (
        card is Card.MOVE_2
        and len(path) == 2
        and path[1] == here
        and not state.edition.free_return
        and (path[0],) in move_paths(state, seat, Card.MOVE_1)
    ):
        raise IllegalMove(
            f"move {'/'.join(path)}: a move of 2 comes back to its start only when nothing else is possible",
            rb.RETURN_CLASSIC,
        )
    occupied = [p for p in path if is_plank(p) and p in state.pawns and p != here]
    if occupied:
        raise IllegalMove(f"move {'/'.join(path)}: another pawn stands on {occupied[0]}", rule)
    raise IllegalMove(f"move {'/'.join(path)}: not a path of {card.value} from {here} along planks", rule)


def _arrive(state: MekongState, seat: int, event: Event, spot: str) -> list[Event]:
    if spot == state.destination(seat):
        return [event, DestinationReached(seat)]
    return [event]
