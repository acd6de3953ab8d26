"""The race state: frozen records of plain values (no shapely objects, no caches).

Coordinates and angles are floats rounded to 1e-6 (``shapes.fix``). Hidden
parts: each ``Dragon.set_speed``, ``Dragon.laid`` and ``Dragon.answer`` (its
owner's), each hand (its owner's), the order of ``deck``, and the values of
``stock`` and of the traps lying on the track (nobody's).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from domain.drachenreiter.cards import Magic


class Phase(StrEnum):
    SETUP = "setup"
    SPEED = "speed"
    """Every dragon sets its speed and may lay a card, in secret (phases 1 and 2)."""
    MOVE = "move"
    """Movement and magic in race order (phase 3)."""
    OVER = "over"


class Step(StrEnum):
    """What is asked for during the movement phase."""

    ALLY = "ally"
    """The dragon about to move shows its speed; every other dragon yet to move whose laid
    card lies face down answers, in secret, whether it turns a forced alliance."""
    FLY = "fly"
    """The mover moves."""
    FACE = "face"
    """A dragon placed by a rule is turned by its player (``RaceState.facing``)."""
    DRAW = "draw"
    """The mover chooses how many of the magic cards its move touched it draws."""
    DISCARD = "discard"
    """Discard down to four cards."""
    CAST = "cast"
    """Play the laid card after the move, or hold it."""


class Facing(StrEnum):
    """Why a dragon placed by a rule awaits the heading its player chooses."""

    CRASH = "template-crash"
    """Its template touched a border; it stopped inside where it touched."""
    LASSO = "lasso"
    """A lasso pulled it in front of the caster (its owner turns it)."""
    ALLIANCE = "alliance"
    """A forced alliance put it behind the dragon it joined."""


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a base stands: centre, heading (degrees) and its front point's progress."""

    TYPE: ClassVar[str] = "pose"
    """Tagged because the kernel's decoder of ``X | None`` needs a tag on ``X``."""

    x: float
    y: float
    heading: float
    progress: float


@dataclass(frozen=True, slots=True)
class TemplatePose:
    """A template as laid: from the front point ``(x, y)`` along ``direction``."""

    TYPE: ClassVar[str] = "template"

    seat: int
    speed: int
    x: float
    y: float
    direction: float
    length: float
    reach: float
    """How far the move ran along it (less than ``length`` when it touched a border)."""


@dataclass(frozen=True, slots=True)
class Trap:
    """A trap token lying face down on the track."""

    id: int
    x: float
    y: float
    value: int


@dataclass(frozen=True, slots=True)
class Dragon:
    """One player's dragon, dial, energy and cards."""

    pose: Pose
    place: int
    """Its start card (and grid place), 1 to 6."""
    energy: int
    speed: int
    """The dial (silver needle): the speed of the last move, base of the ±300 rule."""
    hand: tuple[Magic, ...] = ()
    """Sorted."""
    set_speed: int | None = None
    """Secret: the speed set for this round (the one shown once its turn begins). None
    before it is set, and once a Debilitatus has put both needles on the dial's 300
    before the dragon moved: nothing is secret then, the dial shows the speed."""
    laid: Magic | None = None
    """Secret: the face-down magic card of this round."""
    shown: bool = False
    """The laid card (an amulet) has been revealed by protecting its dragon."""
    exhausted: bool = False
    """Holds a Debilitatus card."""
    out: bool = False
    """Eliminated (or left the race)."""
    haven: int = -1
    """The last energy field crossed (-1: none yet, its start place stands in)."""
    haven_lap: int = 0
    """The lap (0 the first) on which ``haven`` was crossed: a dragon may stand well behind
    or ahead of its last field since, so its progress cannot tell which lap that was."""
    moved: bool = False
    """Has had its turn this round."""
    answer: bool | None = None
    """Secret: its answer in the open alliance window (True: it turns a forced alliance);
    None while unanswered or when no window is open."""
    ally_of: int | None = None
    """The dragon it will join by a forced alliance turned this round, once that one's
    turn is over (public: the card was turned face up)."""


@dataclass(frozen=True, slots=True)
class RaceState:
    layout: str
    backwards: bool
    phase: Phase
    round: int
    dragons: tuple[Dragon, ...]
    deck: tuple[Magic, ...] = ()
    discard: tuple[Magic, ...] = ()
    stock: tuple[int, ...] = ()
    traps: tuple[Trap, ...] = ()
    supply: int = 0
    """Energy tokens in the box."""
    mover: int | None = None
    step: Step | None = None
    template: TemplatePose | None = None
    """The last move's template (kept for a magic trap and for drawing)."""
    out_order: tuple[int, ...] = ()
    """Seats out of the race, in the order they went out."""
    left: tuple[int, ...] = ()
    """Seats that left (resigned or forfeited), in order."""
    window: tuple[int, ...] = ()
    """The dragons asked whether they turn a forced alliance (``Step.ALLY``)."""
    facing: int | None = None
    """The dragon whose player chooses its heading (``Step.FACE``)."""
    face_cause: Facing | None = None
    draws: int = 0
    """How many cards the mover may draw (``Step.DRAW``)."""
    next_trap: int = 0
    result: str = ""

    @property
    def seats(self) -> int:
        return len(self.dragons)

    def alive(self) -> tuple[int, ...]:
        return tuple(s for s, d in enumerate(self.dragons) if not d.out)
