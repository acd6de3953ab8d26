"""The rules a command must pass, checked before anything happens.

``check`` raises ``IllegalMove`` naming the rule; it is what ``decide`` runs and
what ``x in legal_moves(...)`` asks. Every check reads only what the mover knows
(its own hand, and public things: the layout, the Silver Dragon's colour, the
seats, how many unused goals there are), so a refusal, its message and its rule
tell the mover nothing hidden from it; each refusal cites the rule it enforces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Command, IllegalMove, MalformedMove, RuleRef
from domain.kernel.rules import MOVE_SHAPE
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.board import TABLE, Board, board_of, on_table
from domain.seven_dragons.cards import ACTION_OF, IS_DRAGON, ORIENTATIONS, SILVER, Action, oriented
from domain.seven_dragons.commands import (
    Discard,
    DiscardAction,
    MoveCard,
    PlaceDragon,
    RotateGoals,
    SetAside,
    TradeGoals,
    TradeHands,
    ZapCard,
)
from domain.seven_dragons.state import SevenDragonsState

State = SevenDragonsState

ActionCommand = TradeHands | TradeGoals | RotateGoals | MoveCard | ZapCard
"""The commands that play an action card for its effect."""

ACTION_OF_COMMAND: dict[type, Action] = {
    TradeHands: Action.TRADE_HANDS,
    TradeGoals: Action.TRADE_GOALS,
    RotateGoals: Action.ROTATE_GOALS,
    MoveCard: Action.MOVE_A_CARD,
    ZapCard: Action.ZAP_A_CARD,
}


def board(state: State) -> Board:
    """The board of ``state``'s layout with the Silver Dragon's current colour."""
    return board_of(state.layout, state.silver_mask())


def check(state: State, seat: int, command: Command) -> None:
    """Raises ``IllegalMove`` unless ``seat`` (the active seat) may play ``command`` now."""
    checker = _CHECKS.get(type(command))
    if checker is None:
        raise MalformedMove(f"{command}: not a Seven Dragons move", MOVE_SHAPE)
    checker(state, seat, command)


def _check_action(state: State, seat: int, command: ActionCommand) -> None:
    """An action card of the command's action, a discard choice the table allows, then the effect's own rules."""
    _action_card(state, seat, command, command.card, ACTION_OF_COMMAND[type(command)])
    if command.discard is Discard.BOTTOM and not state.table.silver:
        raise IllegalMove(f"{command}: without the Silver Dragon actions go on top", rb.NO_BOTTOM_WITHOUT_SILVER)
    _CHECK_EFFECT[type(command)](state, seat, command)


def _check_discard(state: State, seat: int, command: DiscardAction) -> None:
    _action_card(state, seat, command, command.card, None)


def _in_hand(state: State, seat: int, command: Command, card: int) -> None:
    if card not in state.hands[seat]:
        raise IllegalMove(f"{command}: card {card} is not in your hand", rb.PLAY)


def _action_card(state: State, seat: int, command: Command, card: int, action: Action | None) -> None:
    _in_hand(state, seat, command, card)
    played = ACTION_OF[card]
    if played is None:
        raise IllegalMove(f"{command}: card {card} is a dragon; place it with place_dragon", rb.DRAGON_CARD)
    if action is not None and played is not action:
        raise IllegalMove(f"{command}: card {card} is {played.value}, not {action.value}", rb.ACTION_PLAYED)


def _orientation(command: Command, orientation: int) -> None:
    if orientation not in ORIENTATIONS:
        raise IllegalMove(f"{command}: a card stands upright (0) or turned 180°, never {orientation}°", rb.TURNED)


def _placement(
    b: Board,
    state: State,
    command: Command,
    own: tuple[int, int, int, int],
    cell: tuple[int, int],
    skip: tuple[int, int] | None = None,
) -> None:
    """Raises unless a card with panels ``own`` connects in the empty ``cell``, on the table."""
    if not on_table(cell):
        raise IllegalMove(f"{command}: ({cell[0]}, {cell[1]}) is more than {TABLE} cells from the centre", rb.TABLE)
    strict = state.table.strict_edges
    contacts = b.contacts(cell, skip)
    if not contacts:
        x, y = cell
        corners = ((x + 1, y + 1), (x - 1, y - 1), (x + 1, y - 1), (x - 1, y + 1))
        if any(c in b.masks and c != skip for c in corners):
            raise IllegalMove(f"{command}: ({x}, {y}) touches the layout only at a corner", rb.DIAGONAL)
        rule = rb.MOVE_CONNECTED if skip is not None else rb.CONNECTION
        raise IllegalMove(f"{command}: ({x}, {y}) is not next to any card", rule)
    matching = [own[i] & m for i, m in contacts]
    if not any(matching):
        raise IllegalMove(f"{command}: no panel touches a panel of its colour", rb.CONNECTION)
    if strict and not all(matching):
        raise IllegalMove(f"{command}: every touching edge must match (strict_edges)", rb.STRICT_EDGES)


def check_place(state: State, seat: int, command: PlaceDragon) -> None:
    _in_hand(state, seat, command, command.card)
    if not IS_DRAGON[command.card]:
        message = f"{command}: card {command.card} is an action; play it with its action's command"
        raise IllegalMove(message, rb.ACTION_PLAYED)
    _orientation(command, command.orientation)
    b = board(state)
    cell = (command.x, command.y)
    if cell in b.masks:
        raise IllegalMove(f"{command}: ({command.x}, {command.y}) already holds a card", rb.EMPTY_CELL)
    _placement(b, state, command, oriented(command.card, command.orientation), cell)


def can_play(state: State, seat: int) -> bool:
    """Whether some card of ``seat``'s hand can be played (an action always can, without effect)."""
    b = board(state)
    strict = state.table.strict_edges
    for card in state.hands[seat]:
        if not IS_DRAGON[card]:
            return True
        if b.fits(oriented(card, 0), strict) or b.fits(oriented(card, 180), strict):
            return True
    return False


def check_set_aside(state: State, seat: int, command: SetAside) -> None:
    _in_hand(state, seat, command, command.card)
    if can_play(state, seat):
        rule = rb.CONNECTIONS_SET_ASIDE if state.table.turn_up else rb.STUCK
        raise IllegalMove(f"{command}: a card is set aside only when no card of the hand can be played", rule)


# ------------------------------------------------------------------ action effects


def _other_seat(state: State, seat: int, command: Command, other: int, rule: RuleRef) -> None:
    """Trade Hands and Trade Goals are made "avec le joueur de votre choix": another seat still playing."""
    if other == seat or not 0 <= other < state.seats or other in state.left:
        raise IllegalMove(f"{command}: seat {other} is not another player in the game", rule)


def _trade_hands(state: State, seat: int, command: TradeHands) -> None:
    _other_seat(state, seat, command, command.seat, rb.TRADE_HANDS)


def _trade_goals(state: State, seat: int, command: TradeGoals) -> None:
    if (command.seat is None) == (command.unused is None):
        raise IllegalMove(f"{command}: trade with one seat or one unused goal", rb.TRADE_GOALS)
    if command.seat is not None:
        _other_seat(state, seat, command, command.seat, rb.TRADE_GOALS)
    elif command.unused is not None and not 0 <= command.unused < len(state.unused_slots()):
        raise IllegalMove(f"{command}: there are {len(state.unused_slots())} unused goals", rb.TRADE_GOALS)


def _rotate_goals(state: State, seat: int, command: RotateGoals) -> None:
    return None


def _layout_card(state: State, command: Command, target: int, rule: RuleRef) -> None:
    if target not in board(state).where:
        raise IllegalMove(f"{command}: card {target} is not in the layout", rule)
    if target == SILVER:
        raise IllegalMove(f"{command}: the Silver Dragon never moves", rule)


def _move_card(state: State, seat: int, command: MoveCard) -> None:
    _layout_card(state, command, command.target, rb.MOVE_A_CARD)
    _orientation(command, command.orientation)
    b = board(state)
    home, turned = b.where[command.target]
    cell = (command.x, command.y)
    if cell == home and command.orientation == turned:
        raise IllegalMove(f"{command}: the card would not move nor turn", rb.MOVE_IN_PLACE)
    if cell != home and cell in b.masks:
        raise IllegalMove(f"{command}: ({command.x}, {command.y}) already holds a card", rb.EMPTY_CELL)
    _placement(b, state, command, oriented(command.target, command.orientation), cell, skip=home)


def _zap_card(state: State, seat: int, command: ZapCard) -> None:
    _layout_card(state, command, command.target, rb.ZAP_A_CARD)
    if len(state.layout) == 1:
        raise IllegalMove(f"{command}: the layout's last card stays", rb.ZAP_LAST_CARD)


_CHECK_EFFECT: dict[type, Callable[[State, int, Any], None]] = {
    TradeHands: _trade_hands,
    TradeGoals: _trade_goals,
    RotateGoals: _rotate_goals,
    MoveCard: _move_card,
    ZapCard: _zap_card,
}
_CHECKS: dict[type, Callable[[State, int, Any], None]] = {
    PlaceDragon: check_place,
    DiscardAction: _check_discard,
    SetAside: check_set_aside,
    **{cls: _check_action for cls in _CHECK_EFFECT},
}
