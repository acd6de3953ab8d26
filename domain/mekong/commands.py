"""The moves of Les Dragons du Mékong.

Programming is one ``Program`` (secret); every choice an action needs in
resolution is one command of the acting seat. Names are those of ``state``:
planks ``"red-3"``, supports ``"green"`` / ``"i7"`` / ``"s12"``, spots are planks or villages.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import Command
from domain.mekong.cards import Card


@dataclass(frozen=True, slots=True)
class Program(Command):
    """Place 5 cards of the hand face down, in order (at most one dragon)."""

    cards: tuple[Card, ...]
    SECRET = ("cards",)


@dataclass(frozen=True, slots=True)
class PlaceStone(Command):
    """Put a stone from the common reserve on a free island."""

    island: str


@dataclass(frozen=True, slots=True)
class PlaceStoneAt(Command):
    """Challenge variant: drop a stone in the water at board coordinates ``(x, y)``, in whole
    units (``rulebook.DROP_RESOLUTION``)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class PlacePlank(Command):
    """Name a plank of the reserve and the two supports it should rest on (no trial)."""

    plank: str
    ends: tuple[str, str]


@dataclass(frozen=True, slots=True)
class RemovePlank(Command):
    """Take a plank from the board into one's reserve."""

    plank: str


@dataclass(frozen=True, slots=True)
class RemoveStone(Command):
    """Return a stone bearing no plank to the common reserve."""

    stone: str


@dataclass(frozen=True, slots=True)
class Move(Command):
    """Move the pawn along ``path``: one step for Move 1, two for Move 2 (one if it reaches the destination)."""

    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Jump(Command):
    """Jump over the pawn on plank ``over``, landing on ``to`` beyond it."""

    over: str
    to: str


COMMANDS = (Program, PlaceStone, PlaceStoneAt, PlacePlank, RemovePlank, RemoveStone, Move, Jump)
