"""The state of a Tarasque game: immutable, JSON-round-trippable, free of caches."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.tarasque.tiles import DECKS, DICE, SIDES, Deck

Tiles = tuple[str, ...]
Base = tuple[Tiles, ...]
"""A dragon base: the tiles at each side, in ``SIDES`` order (2, 3, 4, 5)."""
Lair = tuple[Tiles, ...]
"""A lair: its rows, each a tuple of tiles in the order they arrived."""

NO_DICE = (0,) * DICE


class Phase(StrEnum):
    """Where the turn stands. Awaiting phases need a decision of the active seat;
    the others are passed through at once by the automatic steps."""

    SETUP = "setup"
    NEXT = "next"
    """Automatic: the next turn starts."""
    REFILL = "refill"
    """Automatic: the middle is refilled."""
    REMOVE = "remove"
    """2 players: remove a middle tile."""
    STORE = "store"
    """Move the base tiles into the lair, one at a time."""
    ROLL = "roll"
    """Automatic: the first roll of the turn."""
    SELECT = "select"
    """Set aside at least one valid die from the roll."""
    CONTINUE = "continue"
    """Set aside more, roll again or stop."""
    TAKE = "take"
    """Take tiles with the dice set aside; end the turn (optionally with the egg move)."""
    PLACE = "place"
    """Choose the lair row of a tile won with six dice."""
    OVER = "over"


AWAITING = frozenset({Phase.REMOVE, Phase.STORE, Phase.SELECT, Phase.CONTINUE, Phase.TAKE, Phase.PLACE})


@dataclass(frozen=True, slots=True)
class Board:
    """Where the 36 tiles and 36 eggs are."""

    pile: Tiles
    """Face down, top first: the only hidden thing in the game."""
    middle: Tiles
    removed: Tiles
    """Out of the game for good (2 players, and the base tiles of a seat that left)."""
    bases: tuple[Base, ...]
    lairs: tuple[Lair, ...]
    eggs: tuple[int, ...]
    supply: int


@dataclass(frozen=True, slots=True)
class Turn:
    """The active seat's turn: its dice and what is pending."""

    seat: int = 0
    round: int = 0
    phase: Phase = Phase.SETUP
    dice: int = DICE
    """Dice in hand (not set aside)."""
    rolls: int = 0
    showing: Tiles = ()
    """The faces of the dice in hand as last rolled."""
    chosen: Tiles = ()
    """Symbols set aside from the current roll (each symbol once per roll)."""
    aside: tuple[int, ...] = NO_DICE
    """Dice set aside this turn, per symbol (in the deck's face order)."""
    egg: str | None = None
    """The symbol of the die placed on an egg this turn."""
    spent: tuple[int, ...] = NO_DICE
    """Dice already spent on tiles, per symbol; the egg's die counts 2."""
    pending: str | None = None
    """A tile won with six dice, waiting for its lair row."""
    extra: bool = False
    """An extra turn is earned."""


@dataclass(frozen=True, slots=True)
class TarasqueState:
    variant: str
    seats: int
    board: Board
    turn: Turn
    left: tuple[int, ...] = ()
    """Seats that left, first to leave first."""
    result: str = ""
    """Why the game ended, once it has."""

    @property
    def deck(self) -> Deck:
        return DECKS[self.variant]


def new_state(variant: str, seats: int, start_eggs: int, supply: int) -> TarasqueState:
    """Before the pile is shuffled: empty bases and lairs, one egg each."""
    board = Board(
        pile=(),
        middle=(),
        removed=(),
        bases=((((),) * len(SIDES)),) * seats,
        lairs=((),) * seats,
        eggs=(start_eggs,) * seats,
        supply=supply,
    )
    return TarasqueState(variant, seats, board, Turn())
