"""The facts of a game of Les Dragons du Mékong.

Only ``CardsProgrammed`` is secret (to all but its seat) until
``PositionRevealed`` turns the cards of one position face up for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import LEAVING, Event
from domain.mekong import rulebook as rb
from domain.mekong.cards import Card


@dataclass(frozen=True, slots=True)
class FirstPlayerDrawn(Event):
    seat: int
    RULE = rb.FIRST_PLAYER


@dataclass(frozen=True, slots=True)
class CardsProgrammed(Event):
    seat: int
    cards: tuple[Card, ...]
    RULE = rb.PROGRAMMING
    SECRET = ("cards",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class PositionRevealed(Event):
    """The cards every seat placed at ``position`` (None for a seat that left)."""

    position: int
    cards: tuple[Card | None, ...]
    RULE = rb.REVEAL


@dataclass(frozen=True, slots=True)
class ActionCancelled(Event):
    """``seat``'s card was cancelled by the dragons of its colour that ``by`` placed."""

    seat: int
    card: Card
    by: tuple[int, ...]
    RULE = rb.DRAGON_CANCELS


@dataclass(frozen=True, slots=True)
class StoneActionLost(Event):
    """``seat``'s stone card (or its second stone) could not be done; ``reason`` says why."""

    seat: int
    card: Card
    reason: str
    RULE = rb.STONE_RESERVE


@dataclass(frozen=True, slots=True)
class PlankActionLost(Event):
    """``seat``'s plank card (or its second plank) could not be done; ``reason`` says why."""

    seat: int
    card: Card
    reason: str
    RULE = rb.PLANK_NONE


@dataclass(frozen=True, slots=True)
class RemoveActionLost(Event):
    """Nothing on the board could be removed by ``seat``."""

    seat: int
    card: Card
    reason: str
    RULE = rb.REMOVE_NOTHING


@dataclass(frozen=True, slots=True)
class ActionSkipped(Event):
    """``seat`` let its decision go: the rest of its card is lost."""

    seat: int
    card: Card
    reason: str
    RULE = rb.SKIPPED


LOST_ACTIONS = (StoneActionLost, PlankActionLost, RemoveActionLost, ActionSkipped)


@dataclass(frozen=True, slots=True)
class StonePlaced(Event):
    seat: int
    stone: str
    x: float
    y: float
    RULE = rb.STONE_ISLAND


@dataclass(frozen=True, slots=True)
class PlankPlaced(Event):
    seat: int
    plank: str
    ends: tuple[str, str]
    RULE = rb.PLANK_SUPPORTS


@dataclass(frozen=True, slots=True)
class PlankFellShort(Event):
    """The plank named was too short for those supports (however wide the gap): it stays in reserve and
    must go elsewhere."""

    seat: int
    plank: str
    ends: tuple[str, str]
    RULE = rb.PLANK_TOO_SHORT


@dataclass(frozen=True, slots=True)
class PlankLost(Event):
    """The plank fits nowhere on the board: it leaves the game."""

    seat: int
    plank: str
    RULE = rb.PLANK_LOST


@dataclass(frozen=True, slots=True)
class PlankTaken(Event):
    seat: int
    plank: str
    RULE = rb.REMOVE


@dataclass(frozen=True, slots=True)
class StoneRemoved(Event):
    seat: int
    stone: str
    RULE = rb.REMOVE_STONE


@dataclass(frozen=True, slots=True)
class PawnMoved(Event):
    seat: int
    path: tuple[str, ...]
    RULE = rb.MOVE_1


@dataclass(frozen=True, slots=True)
class PawnJumped(Event):
    seat: int
    over: str
    to: str
    RULE = rb.JUMP


@dataclass(frozen=True, slots=True)
class PawnFell(Event):
    """The pawn could not do its move or jump: it fell into the water and is back at its start village."""

    seat: int
    card: Card
    reason: str
    RULE = rb.FALL


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The first-player marker passed to ``first``; played cards are back in the hands."""

    round: int
    first: int
    RULE = rb.ROUND_END


@dataclass(frozen=True, slots=True)
class DestinationReached(Event):
    seat: int
    RULE = rb.CROSSING


@dataclass(frozen=True, slots=True)
class RoundLimitReached(Event):
    rounds: int
    RULE = rb.ROUND_LIMIT


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """The seat resigned: its pawn leaves the board (its planks stay), it programs nothing more."""

    seat: int
    RULE = LEAVING


@dataclass(frozen=True, slots=True)
class LastSeatStanding(Event):
    seat: int
    RULE = LEAVING


EVENTS = (
    FirstPlayerDrawn, CardsProgrammed, PositionRevealed, ActionCancelled, *LOST_ACTIONS, StonePlaced, PlankPlaced,
    PlankFellShort, PlankLost, PlankTaken, StoneRemoved, PawnMoved, PawnJumped, PawnFell, RoundEnded,
    DestinationReached, RoundLimitReached, SeatLeft, LastSeatStanding,
)  # fmt: skip
"""Every event type; ``PlankFellShort`` is the recorded failed attempt of the README."""
