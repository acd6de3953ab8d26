"""The moves of Seven Dragons: one command per way of playing a card.

Cards are named by number (``cards.CARDS``). Cells are integer grid coordinates,
``x`` growing to the right and ``y`` downwards; the Silver Dragon (or the first
card turned up) sits at ``(0, 0)``. ``orientation`` is 0 (upright) or 180.

Each action command plays the action with its effect; ``discard`` says whether
the card then goes on top of the discard pile (the Silver Dragon takes its
colour) or at the bottom (the Silver Dragon keeps its colour). ``DiscardAction``
is the third choice: no effect, the card on top, so only the colour changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from domain.kernel import Command


class Discard(Enum):
    """Where a played action card goes in the discard pile."""

    TOP = "top"
    BOTTOM = "bottom"


class Direction(Enum):
    """Which way Rotate Goals passes the goals: to the left is to the next place in turn order."""

    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class PlaceDragon(Command):
    """Play a dragon card from the hand into an empty cell of the layout."""

    card: int
    x: int
    y: int
    orientation: int = 0


@dataclass(frozen=True, slots=True)
class TradeHands(Command):
    """Trade Hands: swap the whole hand with ``seat``."""

    card: int
    seat: int
    discard: Discard = Discard.TOP


@dataclass(frozen=True, slots=True)
class TradeGoals(Command):
    """Trade Goals with a player (``seat``) or with an unused goal (``unused``: its
    index among the unused goals in ring order, as the view lists them). Give exactly one."""

    card: int
    seat: int | None = None
    unused: int | None = None
    discard: Discard = Discard.TOP


@dataclass(frozen=True, slots=True)
class RotateGoals(Command):
    """Rotate Goals: every goal, unused ones included, passes one place ``direction``."""

    card: int
    direction: Direction
    discard: Discard = Discard.TOP


@dataclass(frozen=True, slots=True)
class MoveCard(Command):
    """Move a Card: move the layout card ``target`` to ``(x, y)`` in ``orientation``,
    or turn it in its own cell."""

    card: int
    target: int
    x: int
    y: int
    orientation: int = 0
    discard: Discard = Discard.TOP


@dataclass(frozen=True, slots=True)
class ZapCard(Command):
    """Zap a Card: take the layout card ``target`` into the hand."""

    card: int
    target: int
    discard: Discard = Discard.TOP


@dataclass(frozen=True, slots=True)
class DiscardAction(Command):
    """Discard an action without its effect, on top of the pile: only the Silver Dragon's colour changes."""

    card: int


@dataclass(frozen=True, slots=True)
class SetAside(Command):
    """Set a card aside, out of the game, when no card of the hand can be played."""

    card: int


ACTION_COMMANDS = (TradeHands, TradeGoals, RotateGoals, MoveCard, ZapCard)
COMMANDS = (PlaceDragon, *ACTION_COMMANDS, DiscardAction, SetAside)
