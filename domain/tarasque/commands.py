"""The moves of Tarasque, one decision each (imperative names, flat wire form).

A turn reads: (2 players) ``RemoveTile``; from the second round ``StoreTile``
for each base tile; the first roll is automatic, then after each roll one or
more ``SetAside`` and ``Roll`` or ``Stop``; then ``TakeTile`` as the dice allow,
and ``EndTurn`` or ``MoveLairTile`` (which ends the turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class RemoveTile(Command):
    """2 players: remove this middle tile from the game for good."""

    tile: str


@dataclass(frozen=True, slots=True)
class StoreTile(Command):
    """Put ``tile`` (the next base tile, or the tile won with six dice) into lair row ``row``.

    ``row`` indexes the lair's rows from 0; ``None`` opens a new row.
    """

    tile: str
    row: int | None


@dataclass(frozen=True, slots=True)
class SetAside(Command):
    """Set aside ``count`` dice showing ``symbol`` from the current roll, one of them on the egg if ``egg``."""

    symbol: str
    count: int
    egg: bool


@dataclass(frozen=True, slots=True)
class Roll(Command):
    """Roll the dice still in hand again."""


@dataclass(frozen=True, slots=True)
class Stop(Command):
    """Stop rolling and use the dice set aside."""


@dataclass(frozen=True, slots=True)
class TakeTile(Command):
    """Spend ``dice`` set-aside dice of the tile's symbol to take ``tile`` (middle or another base)."""

    tile: str
    dice: int


@dataclass(frozen=True, slots=True)
class MoveLairTile(Command):
    """Return an egg to move ``tile`` into lair row ``row`` (its index now); this ends the turn.

    ``None`` opens a new row, as in ``StoreTile``.
    """

    tile: str
    row: int | None


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """End the turn, taking nothing more."""


COMMANDS = (RemoveTile, StoreTile, SetAside, Roll, Stop, TakeTile, MoveLairTile, EndTurn)
