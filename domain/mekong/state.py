"""The state of a game of Les Dragons du Mékong: immutable, and free of caches.

Names used throughout:

* a *plank* is named by colour and size, ``"red-3"``;
* a *support* is a village (named by its colour, ``"green"``) or a stone (named
  by its island, ``"i7"``, or in the challenge variant by its drop, ``"s12"``);
* a *spot* is where a pawn stands: a plank or a village.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from domain.mekong.board import SIZES, Site
from domain.mekong.cards import Card, hand
from domain.mekong.variants import EDITIONS, Edition

STONES = 27
"""Stones in the box (rulebook: 27 pierres)."""
PLANKS_PER_COLOUR = len(SIZES)


class Phase(Enum):
    SETUP = "setup"
    PROGRAMMING = "programming"
    RESOLUTION = "resolution"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Bridge:
    """A plank on the board, resting on two supports (sorted by name)."""

    plank: str
    ends: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Task:
    """How far the acting seat has got with its current card."""

    done: int = 0
    """Stones or planks already placed (or planks lost) by this card."""
    retry: str | None = None
    """A plank that was too short where it was tried and must now go elsewhere."""
    tried: tuple[tuple[str, str], ...] = ()
    """The supports where ``retry`` was already tried."""


NO_TASK = Task()


@dataclass(frozen=True, slots=True)
class MekongState:
    variant: str
    colours: tuple[str, ...]
    """Colour of each seat, in seat (clockwise) order."""
    round_limit: int
    phase: Phase = Phase.SETUP
    round: int = 1
    first: int = 0
    """The seat holding the first-player marker."""
    programmes: tuple[tuple[Card, ...], ...] = ()
    """Each seat's 5 programmed cards this round, () until it has programmed."""
    position: int = 0
    """The position being resolved, 1 to 5; 0 while programming."""
    acted: tuple[bool, ...] = ()
    """Which seats are done with the card at ``position``."""
    task: Task = NO_TASK
    stones: tuple[Site, ...] = ()
    """Stones on the board, in ``stone_order``."""
    stone_reserve: int = STONES
    drops: tuple[Site, ...] = ()
    """Challenge variant: every stone dropped so far, in order, even those removed since (the board's
    geometry grows with them). A name taken back is dropped again (``building.stone_name``): the
    geometry finds a name at its latest drop."""
    bridges: tuple[Bridge, ...] = ()
    """Planks on the board, sorted by plank."""
    reserves: tuple[tuple[str, ...], ...] = ()
    """Each seat's planks in reserve, sorted."""
    lost: tuple[str, ...] = ()
    """Planks removed from the game because they fitted nowhere."""
    pawns: tuple[str | None, ...] = ()
    """Each seat's spot; None once the seat has left."""
    left: tuple[int, ...] = ()
    """Seats that left, in the order they left."""
    winner: int | None = None
    ending: str | None = None
    """Why the game ended: "crossing", "last-standing" or "round-limit"."""

    @property
    def edition(self) -> Edition:
        return EDITIONS[self.variant]

    @property
    def seats(self) -> int:
        return len(self.colours)

    def start(self, seat: int) -> str:
        """The village a seat's pawn starts from (and falls back to)."""
        return self.colours[seat]

    def destination(self, seat: int) -> str:
        rim = self.edition.rim
        return rim[(rim.index(self.colours[seat]) + 3) % 6]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return hand(self.colours[seat], self.colours)

    def card(self, seat: int) -> Card | None:
        """The seat's card at the current position, once revealed."""
        if self.phase is not Phase.RESOLUTION or not self.programmes[seat]:
            return None
        return self.programmes[seat][self.position - 1]

    def in_play(self, seat: int) -> bool:
        return seat not in self.left

    def turn_order(self) -> tuple[int, ...]:
        """Seats still playing, clockwise from the first player."""
        n = self.seats
        return tuple(s for k in range(n) if (s := (self.first + k) % n) not in self.left)


def stone_order(stone: Site) -> tuple[int, str]:
    """Stones sort by number (``i2`` before ``i10``, ``s2`` before ``s10``)."""
    return len(stone.name), stone.name


def plank_name(colour: str, size: int) -> str:
    return f"{colour}-{size}"


def plank_colour(plank: str) -> str:
    return plank.rpartition("-")[0]


def plank_size(plank: str) -> int:
    return int(plank.rpartition("-")[2])


def starting_reserve(colour: str) -> tuple[str, ...]:
    """Each player's 6 planks of their colour, sizes 1 to 6."""
    return tuple(plank_name(colour, s) for s in SIZES)
