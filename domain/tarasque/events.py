"""The facts of a Tarasque game (past tense). Only the pile order is secret."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.kernel import Event, RuleRef
from domain.tarasque import rulebook as rb


@dataclass(frozen=True, slots=True)
class PileShuffled(Event):
    """The 36 tiles, face down, top of the pile first."""

    order: tuple[str, ...]
    RULE = rb.SETUP
    SECRET = ("order",)


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    round: int
    extra: bool
    """An extra turn won by taking a tile with all six dice."""
    RULE = rb.NEXT_PLAYER


@dataclass(frozen=True, slots=True)
class MiddleRefilled(Event):
    """These tiles were turned up from the top of the pile into the middle."""

    tiles: tuple[str, ...]
    RULE = rb.REFILL


@dataclass(frozen=True, slots=True)
class TileRemoved(Event):
    seat: int
    tile: str
    RULE = rb.TWO_PLAYERS


@dataclass(frozen=True, slots=True)
class TileStored(Event):
    """``tile`` entered ``seat``'s lair in row ``row`` (a new row when ``row`` equals the row count)."""

    seat: int
    tile: str
    row: int
    RULE = rb.STORE


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    seat: int
    values: tuple[str, ...]
    RULE = rb.ROLL


@dataclass(frozen=True, slots=True)
class DiceSetAside(Event):
    seat: int
    symbol: str
    count: int
    egg: bool
    RULE = rb.SET_ASIDE


@dataclass(frozen=True, slots=True)
class RollingStopped(Event):
    """The player chose to stop rolling."""

    seat: int
    RULE = rb.STOP


@dataclass(frozen=True, slots=True)
class RollingEnded(Event):
    """Rolling ended by itself: ``reason`` is ``"no valid die"`` or ``"no dice left"``."""

    seat: int
    reason: str
    RULE = rb.NO_VALID_DIE

    @classmethod
    def rule_for(cls, data: Mapping[str, Any]) -> RuleRef:
        """All six dice set aside: none is left to roll, as a die set aside is never rolled again."""
        return rb.SET_ASIDE if data["reason"] == "no dice left" else rb.NO_VALID_DIE


@dataclass(frozen=True, slots=True)
class TileTaken(Event):
    """``seat`` spent ``dice`` dice on ``tile``, from the middle (``victim`` None) or a base.

    ``side`` is the side of the taker's base it went to, or None when it goes
    straight into the lair (6 dice or more), which also earns ``extra_turn``.
    """

    seat: int
    tile: str
    dice: int
    victim: int | None
    side: int | None
    extra_turn: bool
    RULE = rb.SIDE


@dataclass(frozen=True, slots=True)
class EggGiven(Event):
    """The victim of a theft received an egg from the supply."""

    seat: int
    RULE = rb.VICTIM_EGG


@dataclass(frozen=True, slots=True)
class LairTileMoved(Event):
    """``seat`` returned an egg to move ``tile`` into row ``row`` (index before the move; the row count
    opens a new last row); gaps close."""

    seat: int
    tile: str
    row: int
    RULE = rb.LAIR_MOVE


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int
    RULE = rb.NEXT_PLAYER


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """``seat`` left: ``removed`` (its tiles outside the lair) left the game, ``eggs`` went to the supply."""

    seat: int
    removed: tuple[str, ...]
    eggs: int
    RULE = rb.DESIGNED_LEAVE


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """Final scores per seat; ``reason`` says why the game ended."""

    scores: tuple[int, ...]
    reason: str
    RULE = rb.END


EVENTS = (
    PileShuffled,
    TurnStarted,
    MiddleRefilled,
    TileRemoved,
    TileStored,
    DiceRolled,
    DiceSetAside,
    RollingStopped,
    RollingEnded,
    TileTaken,
    EggGiven,
    LairTileMoved,
    TurnEnded,
    SeatLeft,
    GameEnded,
)
