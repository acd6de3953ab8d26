"""Seven Dragons' moves on its board (``domain.kernel.pointing``): the refs ``svg.py`` draws.

Every card, in the hand or in the layout, is ``card:<number>``; an empty cell beside the layout
``cell:<x>,<y>``; a seat in the legend ``seat:<seat>``; an unused goal ``goal:unused:<index>``;
the discard pile's two ends ``pile:top`` and ``pile:bottom``; Rotate Goals' two ways
``rotate:left`` and ``rotate:right``; and ``set-aside``. A card placed or moved has a pose: the
card drawn in its cell, turned as it would lie.
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
            return point(f"card:{card}", f"seat:{seat}", pile_ref(discard))
        case TradeGoals(card=card, seat=seat, unused=unused, discard=discard):
            whom = f"seat:{seat}" if seat is not None else f"goal:unused:{unused}"
            return point(f"card:{card}", whom, pile_ref(discard))
        case RotateGoals(card=card, direction=direction, discard=discard):
            return point(f"card:{card}", f"rotate:{direction.value}", pile_ref(discard))
        case ZapCard(card=card, target=target, discard=discard):
            return point(f"card:{card}", f"card:{target}", pile_ref(discard))
        case DiscardAction(card=card):
            return point(f"card:{card}", "pile:top")
        case SetAside(card=card):
            return point(f"card:{card}", "set-aside")
    return NOWHERE


def _moved(
    state: SevenDragonsState, card: int, target: int, cell: tuple[int, int], turn: int, discard: Discard
) -> Pointing:
    """Move a Card: the card, the layout card it moves, where it goes (its own cell to turn it
    there), then the pile; the moved card drawn where it would lie."""
    placed = next((p for p in state.layout if p.card == target), None)
    here = placed is not None and (placed.x, placed.y) == cell
    at = f"card:{target}" if here else cell_ref(*cell)
    now = placed.orientation if placed is not None else 0
    refs = (f"card:{card}", f"card:{target}", at, pile_ref(discard))
    return Pointing((refs,), ghost=f"card:{target}", at=at, turn=(turn - now) % 360)
