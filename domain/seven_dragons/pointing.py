"""Seven Dragons' moves on its board (``domain.kernel.pointing``): the refs ``svg.py`` draws.

Every card, in the hand or in the layout, is ``card:<number>``; an empty cell beside the layout
``cell:<x>,<y>``; a seat in the legend ``seat:<seat>``; an unused goal ``goal:unused:<index>``;
the discard pile's two ends ``pile:top`` and ``pile:bottom``; Rotate Goals' two ways
``rotate:left`` and ``rotate:right``; and ``set-aside``. A card placed or moved has a pose: the
card drawn in its cell, turned as it would lie.

An action card played for its effect goes on top of the discard pile unless its player says
otherwise, so the common action takes two clicks, the card and what it acts on: ``pile:bottom``,
clicked before that, keeps the Silver Dragon's colour; ``pile:top`` alone discards the card
without its effect, and is asked for even when that is all the card can do: a card clicked is never
thrown away by that click alone.
"""

from __future__ import annotations

from domain.kernel import Command
from domain.kernel.pointing import NOWHERE, Pointing, point
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


def cell_ref(x: int, y: int) -> str:
    return f"cell:{x},{y}"


def pile_ref(discard: Discard) -> str:
    return f"pile:{discard.value}"


def pointing(state: SevenDragonsState, command: Command) -> Pointing:
    """The clicks that make ``command``."""
    match command:
        case PlaceDragon(card=card, x=x, y=y, orientation=turn):
            at = cell_ref(x, y)
            return Pointing(((f"card:{card}", at),), ghost=f"card:{card}", at=at, turn=turn)
        case MoveCard(card=card, target=target, x=x, y=y, orientation=turn, discard=discard):
            return _moved(state, card, target, (x, y), turn, discard)
        case TradeHands(card=card, seat=seat, discard=discard):
            return point(*_played(card, discard), f"seat:{seat}")
        case TradeGoals(card=card, seat=seat, unused=unused, discard=discard):
            whom = f"seat:{seat}" if seat is not None else f"goal:unused:{unused}"
            return point(*_played(card, discard), whom)
        case RotateGoals(card=card, direction=direction, discard=discard):
            return point(*_played(card, discard), f"rotate:{direction.value}")
        case ZapCard(card=card, target=target, discard=discard):
            return point(*_played(card, discard), f"card:{target}")
        case DiscardAction(card=card):  # its effect lost: the pile's click is asked for, always
            return Pointing(((f"card:{card}", "pile:top"),), confirm=True)
        case SetAside(card=card):
            return point(f"card:{card}", "set-aside")
    return NOWHERE


def _played(card: int, discard: Discard) -> tuple[str, ...]:
    """The first clicks of an action card played for its effect: the card, then the pile's bottom
    if it goes there (on top, the pile is not clicked)."""
    return (f"card:{card}",) if discard is Discard.TOP else (f"card:{card}", pile_ref(Discard.BOTTOM))


def _moved(
    state: SevenDragonsState, card: int, target: int, cell: tuple[int, int], turn: int, discard: Discard
) -> Pointing:
    """Move a Card: the card (and the pile's bottom), the layout card it moves, where it goes (its
    own cell to turn it there); the moved card drawn where it would lie."""
    placed = next((p for p in state.layout if p.card == target), None)
    here = placed is not None and (placed.x, placed.y) == cell
    at = f"card:{target}" if here else cell_ref(*cell)
    now = placed.orientation if placed is not None else 0
    refs = (*_played(card, discard), f"card:{target}", at)
    return Pointing((refs,), ghost=f"card:{target}", at=at, turn=(turn - now) % 360)
