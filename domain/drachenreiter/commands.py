"""The moves of Chevaliers des dragons."""

from __future__ import annotations

from dataclasses import dataclass

from domain.drachenreiter.cards import Magic
from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class SetSpeed(Command):
    """Phases 1 and 2 at once: set the dial in secret and maybe lay one card face down."""

    speed: int
    card: Magic | None = None
    SECRET = ("speed", "card")


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Fly: the template of ``speed`` from the front point turned ``turn_in`` degrees
    (left positive), then the dragon turned ``turn_out`` at its tip. ``speed`` is
    the set speed, or another within 300 when dragon force or counter-wind is laid
    (which plays it)."""

    speed: int
    turn_in: float
    turn_out: float


@dataclass(frozen=True, slots=True)
class Join(Command):
    """Play a laid forced alliance: join just behind ``target`` instead of moving."""

    target: int


@dataclass(frozen=True, slots=True)
class Discard(Command):
    """Discard these cards down to the hand limit."""

    cards: tuple[Magic, ...]


@dataclass(frozen=True, slots=True)
class Aim(Command):
    """Play the laid fireball, lasso or magic energy at ``target`` (range measured after)."""

    target: int


@dataclass(frozen=True, slots=True)
class LayTraps(Command):
    """Play the laid magic trap: stock traps at these centres, against the template."""

    spots: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Hold(Command):
    """Do not play the laid card now (it is discarded at the end of the phase)."""


COMMANDS = (SetSpeed, Move, Join, Discard, Aim, LayTraps, Hold)
