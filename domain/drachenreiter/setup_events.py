"""The facts of setting a race up: start cards, the dragons lined up, the shuffled deck and
traps, the hands dealt, and each round's start."""

from __future__ import annotations

from dataclasses import dataclass

from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.state import Pose
from domain.kernel import Event


@dataclass(frozen=True, slots=True)
class StartCardsDealt(Event):
    """``cards[seat]`` is the start card (grid place) each seat drew, face up."""

    cards: tuple[int, ...]
    RULE = rb.START_ORDER


@dataclass(frozen=True, slots=True)
class DragonLinedUp(Event):
    seat: int
    pose: Pose
    energy: int
    speed: int
    RULE = rb.START_PLACE


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    cards: tuple[Magic, ...]
    RULE = rb.DECK
    SECRET = ("cards",)


@dataclass(frozen=True, slots=True)
class TrapsShuffled(Event):
    values: tuple[int, ...]
    RULE = rb.TRAP_STOCK
    SECRET = ("values",)


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    seat: int
    cards: tuple[Magic, ...]
    RULE = rb.START_HAND
    SECRET = ("cards",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    RULE = rb.ROUND
