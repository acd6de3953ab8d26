"""The facts of the magic cards' effects on other dragons. Poses in events are final (already
put back inside)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.state import Pose
from domain.kernel import Event


@dataclass(frozen=True, slots=True)
class MagicMissed(Event):
    """The card was played at ``target`` but did nothing (out of range, no room)."""

    seat: int
    target: int
    reason: str
    RULE = rb.RANGE


@dataclass(frozen=True, slots=True)
class AmuletShielded(Event):
    """``seat``'s laid amulet is shown: it protects it through this movement phase."""

    seat: int
    RULE = rb.AMULET


@dataclass(frozen=True, slots=True)
class FireballRolled(Event):
    seat: int
    target: int
    dice: tuple[int, ...]
    RULE = rb.FIREBALL


@dataclass(frozen=True, slots=True)
class EnergyDrained(Event):
    """``seat`` took one energy from ``target`` (kept up to four, else back to the supply)."""

    seat: int
    target: int
    RULE = rb.MAGIC_ENERGY


@dataclass(frozen=True, slots=True)
class DragonLassoed(Event):
    seat: int
    target: int
    pose: Pose
    RULE = rb.LASSO


@dataclass(frozen=True, slots=True)
class AllianceJoined(Event):
    """``target``'s turn is over: ``seat`` joins just behind it (placed as ``pose`` until its player
    turns it), instead of moving this round; its set speed goes back to its dial."""

    seat: int
    target: int
    pose: Pose
    RULE = rb.ALLIANCE


@dataclass(frozen=True, slots=True)
class TrapsLaid(Event):
    """Traps from the top of the stock laid at ``spots`` (id, x, y); faces unseen by all."""

    seat: int
    spots: tuple[tuple[int, float, float], ...]
    values: tuple[int, ...]
    RULE = rb.MAGIC_TRAP
    SECRET = ("values",)
