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
    (left positive), then the dragon turned ``turn_out`` at its tip, both in whole
    degrees (``rulebook.RESOLUTION``). ``speed`` is the set speed, or another within
    300 when dragon force or counter-wind is laid (which plays it)."""

    speed: int
    turn_in: float
    turn_out: float


@dataclass(frozen=True, slots=True)
class Ally(Command):
    """Answer the alliance window opened as the dragon ahead is about to move: ``turn``
    the laid forced alliance (join that dragon once its turn is over, instead of moving)
    or not. Asked of every dragon yet to move whose laid card lies face down, so the
    answer is secret until every asked dragon has answered."""

    turn: bool
    SECRET = ("turn",)


@dataclass(frozen=True, slots=True)
class Face(Command):
    """Turn a dragon a rule has just placed (after a template crash, a lasso or a forced
    alliance) to ``heading`` degrees, in place: its base must stay inside the borders and
    clear of the other dragons. A whole number of degrees, or the heading as placed (the
    first listed) to keep it (``rulebook.RESOLUTION``); the listing samples them
    (``facing.HEADING_STEP``)."""

    heading: float


@dataclass(frozen=True, slots=True)
class Draw(Command):
    """Draw ``count`` magic cards, 0 up to one per symbol the move touched (each draw is
    optional: "le joueur peut tirer une carte Magie")."""

    count: int


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


COMMANDS = (SetSpeed, Ally, Move, Face, Draw, Discard, Aim, LayTraps, Hold)
