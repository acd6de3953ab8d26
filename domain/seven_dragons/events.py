"""The facts of a Seven Dragons game.

Visibility: hands, goals and the deck order are secret. Deals, draws and a
newcomer's goal belong to their seat; a trade belongs to both seats concerned;
the shuffled deck and the unused goals belong to nobody. Everything else
(placements, actions played, the discard pile, hand sizes) is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import LEAVING, Event
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import Colour
from domain.seven_dragons.commands import Direction, Discard

# ------------------------------------------------------------------ setup


@dataclass(frozen=True, slots=True)
class GoalDealt(Event):
    seat: int
    goal: Colour
    RULE = rb.GOALS_DEALT
    SECRET = ("goal",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class UnusedGoalsLaidAside(Event):
    """The goals dealt to nobody, in ring order of the imaginary seats."""

    goals: tuple[Colour, ...]
    RULE = rb.UNUSED_GOALS
    SECRET = ("goals",)


@dataclass(frozen=True, slots=True)
class SilverDragonPlaced(Event):
    RULE = rb.SILVER_PLACED


@dataclass(frozen=True, slots=True)
class FirstCardTurnedUp(Event):
    card: int
    RULE = rb.FIRST_CARD


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """The deck, top card first."""

    order: tuple[int, ...]
    RULE = rb.DEAL
    SECRET = ("order",)


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    seat: int
    cards: tuple[int, ...]
    RULE = rb.DEAL
    SECRET = ("cards",)
    OWNERS = ("seat",)


# ------------------------------------------------------------------ turns


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    RULE = rb.FIRST_PLAYER


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    seat: int
    card: int
    RULE = rb.DRAW
    SECRET = ("card",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class CardTurnedUp(Event):
    """Dragon connections: the top card, turned up for the player to place."""

    seat: int
    card: int
    RULE = rb.CONNECTIONS


@dataclass(frozen=True, slots=True)
class DragonPlaced(Event):
    seat: int
    card: int
    x: int
    y: int
    orientation: int
    RULE = rb.CONNECTION


@dataclass(frozen=True, slots=True)
class BonusDrawn(Event):
    seat: int
    cards: tuple[int, ...]
    RULE = rb.BONUS
    SECRET = ("cards",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class CardSetAside(Event):
    seat: int
    card: int
    RULE = rb.STUCK


# ------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class ActionPlayed(Event):
    """The action card leaves the hand; its effect follows, then ``ActionDiscarded``."""

    seat: int
    card: int
    RULE = rb.ACTION_PLAYED


@dataclass(frozen=True, slots=True)
class HandsTraded(Event):
    """``seat`` now holds ``received`` and ``other`` holds ``given``."""

    seat: int
    other: int
    received: tuple[int, ...]
    given: tuple[int, ...]
    RULE = rb.TRADE_HANDS
    SECRET = ("received", "given")
    OWNERS = ("seat", "other")


@dataclass(frozen=True, slots=True)
class GoalsTraded(Event):
    """``seat`` swapped goals with a player (``other``) or with the unused goal ``unused``."""

    seat: int
    other: int | None
    unused: int | None
    received: Colour
    given: Colour
    RULE = rb.TRADE_GOALS
    SECRET = ("received", "given")
    OWNERS = ("seat", "other")


@dataclass(frozen=True, slots=True)
class GoalsRotated(Event):
    seat: int
    direction: Direction
    RULE = rb.ROTATE_GOALS


@dataclass(frozen=True, slots=True)
class CardMoved(Event):
    seat: int
    target: int
    x: int
    y: int
    orientation: int
    RULE = rb.MOVE_A_CARD


@dataclass(frozen=True, slots=True)
class CardZapped(Event):
    seat: int
    target: int
    RULE = rb.ZAP_A_CARD


@dataclass(frozen=True, slots=True)
class ActionDiscarded(Event):
    seat: int
    card: int
    discard: Discard
    effect: bool
    RULE = rb.DISCARD_CHOICE


# ------------------------------------------------------------------ seats


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    """A newcomer took the unused goal ``unused`` (index among the unused goals; None without goals)."""

    seat: int
    unused: int | None
    goal: Colour | None
    RULE = rb.JOIN
    SECRET = ("goal",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class HandSetAside(Event):
    """A leaver's hand, face up, out of the game."""

    seat: int
    cards: tuple[int, ...]
    RULE = rb.HAND_LEFT


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    seat: int
    RULE = LEAVING


# ------------------------------------------------------------------ the end


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    seat: int
    goal: Colour
    group: int
    RULE = rb.WIN


@dataclass(frozen=True, slots=True)
class AllCardsPlayed(Event):
    """Every hand is empty and the deck too: the groups closest to the target win."""

    winners: tuple[int, ...]
    RULE = rb.EXHAUSTION


@dataclass(frozen=True, slots=True)
class LastCardPlaced(Event):
    """Dragon connections: the deck is through; ``seat`` placed the last card (None if nobody placed one).

    ``seat`` wins, unless it has left since: then the seats still playing share the win.
    """

    seat: int | None
    RULE = rb.CONNECTIONS_WIN


@dataclass(frozen=True, slots=True)
class LastSeatStanding(Event):
    seat: int
    RULE = rb.LAST_SEAT


EVENTS = (
    GoalDealt, UnusedGoalsLaidAside, SilverDragonPlaced, FirstCardTurnedUp, DeckShuffled, CardsDealt,
    TurnStarted, CardDrawn, CardTurnedUp, DragonPlaced, BonusDrawn, CardSetAside,
    ActionPlayed, HandsTraded, GoalsTraded, GoalsRotated, CardMoved, CardZapped, ActionDiscarded,
    SeatJoined, HandSetAside, SeatLeft, GameWon, AllCardsPlayed, LastCardPlaced, LastSeatStanding,
)  # fmt: skip
