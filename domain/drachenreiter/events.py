"""The facts of a race: its rounds and turns, and the list of all its events (``EVENTS``), with
those of its setup (``setup_events``) and of the magic cards (``magic_events``). Poses in events
are final (already put back inside)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.magic_events import (
    AllianceJoined,
    AmuletShielded,
    DragonLassoed,
    EnergyDrained,
    FireballRolled,
    MagicMissed,
    TrapsLaid,
)
from domain.drachenreiter.setup_events import (
    DeckShuffled,
    DragonLinedUp,
    HandDealt,
    RoundStarted,
    StartCardsDealt,
    TrapsShuffled,
)
from domain.drachenreiter.state import Facing, Pose, TemplatePose
from domain.kernel import LEAVING, Event, RuleRef

HEADING_RULES: dict[Facing, RuleRef] = {
    Facing.CRASH: rb.CRASH_HEADING,
    Facing.LASSO: rb.LASSO_HEADING,
    Facing.ALLIANCE: rb.ALLIANCE_HEADING,
}
"""The rulebook passage that lets a player turn a dragon placed by each rule."""
END_RULES: dict[str, RuleRef] = {"last dragon flying": rb.LAST_DRAGON, "round limit": rb.ROUND_LIMIT_RULE}
"""The rule of each way a race ends but its finish line (``rb.END``)."""

# ------------------------------------------------------------------ speed and laying


@dataclass(frozen=True, slots=True)
class SpeedSet(Event):
    seat: int
    speed: int
    RULE = rb.SET_SPEED
    SECRET = ("speed",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class CardLaid(Event):
    seat: int
    card: Magic
    RULE = rb.LAY_CARD
    SECRET = ("card",)
    OWNERS = ("seat",)


# ------------------------------------------------------------------ the turn


@dataclass(frozen=True, slots=True)
class SpeedRevealed(Event):
    """The foremost dragon yet to move begins its turn and shows its speed."""

    seat: int
    speed: int
    RULE = rb.REVEAL


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """The laid card is turned up and played (then discarded)."""

    seat: int
    card: Magic
    RULE = rb.LAID_ONLY


@dataclass(frozen=True, slots=True)
class AllianceWindowOpened(Event):
    """``target`` is about to move: ``seats``, the dragons yet to move whose laid card lies
    face down (any of them may be a forced alliance, as far as the others know), answer
    in secret whether they turn it."""

    target: int
    seats: tuple[int, ...]
    RULE = rb.ALLIANCE_TURN


@dataclass(frozen=True, slots=True)
class AllianceAnswered(Event):
    seat: int
    turn: bool
    RULE = rb.ALLIANCE_TURN
    SECRET = ("turn",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class AllianceTurned(Event):
    """``seat``'s forced alliance, turned, holds ``target`` (in range, unprotected): ``seat``
    joins it once its turn is over."""

    seat: int
    target: int
    RULE = rb.ALLIANCE_TURN


@dataclass(frozen=True, slots=True)
class AllianceWindowClosed(Event):
    """Every asked dragon has answered (the alliances turned are played): ``target`` moves."""

    target: int
    RULE = rb.ALLIANCE_TURN


@dataclass(frozen=True, slots=True)
class DragonFlew(Event):
    """The template was laid and the dragon set at its tip (``pose``; on a template
    crash, the pose where it stopped, facing along the track until its player turns it)."""

    seat: int
    template: TemplatePose
    turn_in: float
    turn_out: float
    pose: Pose
    haven: int
    """The last energy field the move crossed, or -1 (-1 on a template crash: what the
    move crossed is counted once the dragon is turned, ``DragonFaced``)."""
    RULE = rb.LANDING


@dataclass(frozen=True, slots=True)
class TemplateCrashed(Event):
    seat: int
    pose: Pose
    RULE = rb.CRASH_TEMPLATE


@dataclass(frozen=True, slots=True)
class HeadingAwaited(Event):
    """``seat``'s dragon, placed by the rule of ``cause``, awaits the heading its player chooses."""

    seat: int
    cause: Facing
    RULE = rb.CRASH_HEADING

    @classmethod
    def rule_for(cls, data: Mapping[str, Any]) -> RuleRef:
        return HEADING_RULES[Facing(data["cause"])]


@dataclass(frozen=True, slots=True)
class DragonFaced(Event):
    """``seat``'s dragon was turned in place to ``pose`` by its player. After a template
    crash, ``haven`` is the last energy field the move crossed (or -1)."""

    seat: int
    cause: Facing
    pose: Pose
    haven: int
    RULE = rb.CRASH_HEADING

    @classmethod
    def rule_for(cls, data: Mapping[str, Any]) -> RuleRef:
        return HEADING_RULES[Facing(data["cause"])]


@dataclass(frozen=True, slots=True)
class DragonCrashed(Event):
    seat: int
    pose: Pose
    RULE = rb.CRASH_DRAGON


@dataclass(frozen=True, slots=True)
class DragonStruck(Event):
    """``struck`` was hit by ``seat`` and put back inside at ``pose``."""

    seat: int
    struck: int
    pose: Pose
    RULE = rb.STRUCK


@dataclass(frozen=True, slots=True)
class EnergyGained(Event):
    seat: int
    amount: int
    RULE = rb.FIELD


@dataclass(frozen=True, slots=True)
class EnergyLost(Event):
    seat: int
    amount: int
    cause: str
    RULE = rb.ENERGY_LOST


@dataclass(frozen=True, slots=True)
class DrawOffered(Event):
    """The move touched magic-card symbols: the mover may draw up to ``count`` cards."""

    seat: int
    count: int
    RULE = rb.SYMBOL


@dataclass(frozen=True, slots=True)
class DrawChosen(Event):
    """The mover chose to draw ``count`` cards (0: none)."""

    seat: int
    count: int
    RULE = rb.SYMBOL


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    seat: int
    cards: tuple[Magic, ...]
    RULE = rb.SYMBOL
    SECRET = ("cards",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class DiscardReshuffled(Event):
    """The discard pile, shuffled, becomes the pile (in this order)."""

    cards: tuple[Magic, ...]
    RULE = rb.RESHUFFLE
    SECRET = ("cards",)


@dataclass(frozen=True, slots=True)
class TrapSprung(Event):
    seat: int
    trap: int
    value: int
    shielded: bool
    RULE = rb.TRAP


@dataclass(frozen=True, slots=True)
class SpeedDialled(Event):
    seat: int
    speed: int
    RULE = rb.DIAL


@dataclass(frozen=True, slots=True)
class Exhausted(Event):
    """Debilitatus: the dragon discards ``cards`` and restarts at ``pose`` with 2 energy, speed 300."""

    seat: int
    cards: tuple[Magic, ...]
    pose: Pose
    RULE = rb.DEBILITATUS


@dataclass(frozen=True, slots=True)
class DebilitatusLifted(Event):
    seat: int
    RULE = rb.DEBILITATUS_LIFT


@dataclass(frozen=True, slots=True)
class DragonEliminated(Event):
    """A second Debilitatus: the dragon leaves the race; its cards are discarded."""

    seat: int
    cards: tuple[Magic, ...]
    RULE = rb.ELIMINATION


@dataclass(frozen=True, slots=True)
class DragonLeft(Event):
    """The player left (resigned or forfeited); the dragon is out, its cards discarded."""

    seat: int
    cards: tuple[Magic, ...]
    RULE = LEAVING


@dataclass(frozen=True, slots=True)
class HandOverflowed(Event):
    """The mover holds more than four cards and must discard the excess."""

    seat: int
    excess: int
    RULE = rb.HAND_LIMIT


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    seat: int
    cards: tuple[Magic, ...]
    RULE = rb.HAND_LIMIT


@dataclass(frozen=True, slots=True)
class MagicAwaited(Event):
    """The mover, its dragon moved, may now play its laid card."""

    seat: int
    RULE = rb.LAID_ONLY


@dataclass(frozen=True, slots=True)
class MagicHeld(Event):
    seat: int
    RULE = rb.UNPLAYED


@dataclass(frozen=True, slots=True)
class LaidCardDiscarded(Event):
    seat: int
    card: Magic
    RULE = rb.UNPLAYED


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int
    RULE = rb.NEXT_MOVER


@dataclass(frozen=True, slots=True)
class RaceFinished(Event):
    """The race ended: ``reason`` is ``"finish line crossed"``, ``"last dragon flying"`` or
    ``"round limit"``, each its own rule."""

    reason: str
    RULE = rb.END

    @classmethod
    def rule_for(cls, data: Mapping[str, Any]) -> RuleRef:
        return END_RULES.get(data["reason"], rb.END)


EVENTS = (
    StartCardsDealt,
    DragonLinedUp,
    DeckShuffled,
    TrapsShuffled,
    HandDealt,
    RoundStarted,
    SpeedSet,
    CardLaid,
    SpeedRevealed,
    AllianceWindowOpened,
    AllianceAnswered,
    AllianceTurned,
    AllianceWindowClosed,
    CardPlayed,
    DragonFlew,
    TemplateCrashed,
    HeadingAwaited,
    DragonFaced,
    DragonCrashed,
    DragonStruck,
    EnergyGained,
    EnergyLost,
    DrawOffered,
    DrawChosen,
    CardsDrawn,
    DiscardReshuffled,
    TrapSprung,
    SpeedDialled,
    Exhausted,
    DebilitatusLifted,
    DragonEliminated,
    DragonLeft,
    HandOverflowed,
    CardsDiscarded,
    MagicAwaited,
    MagicHeld,
    LaidCardDiscarded,
    TurnEnded,
    MagicMissed,
    AmuletShielded,
    FireballRolled,
    EnergyDrained,
    DragonLassoed,
    AllianceJoined,
    TrapsLaid,
    RaceFinished,
)
