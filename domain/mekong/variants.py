"""The three ways to play: the two editions and the challenge variant, with their seat tables.

Seat tables and colours come from the rulebooks (``shared/rules/README.md``,
"Colours and seats"); seats take the colours in the order the tables list them,
and play passes clockwise in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel import OptionError, Variant
from domain.mekong.board import RIM

CLASSIC = "classic"
RIVER_DRAGONS = "river-dragons"
CHALLENGE = "challenge"

ROUND_LIMIT = 30
"""Designed: the rulebooks set no limit, but a game must end. After this many
rounds without a crossing, the pawn nearest its destination wins (ties share)."""
MAX_ROUND_LIMIT = 60
"""Designed: the largest round limit a table may choose (keeps games within ``max_decisions``)."""


@dataclass(frozen=True, slots=True)
class Edition:
    """What differs between the ways to play."""

    name: str
    rim: tuple[str, ...]
    """Village colours clockwise from the top."""
    seat_table: dict[int, tuple[str, ...]]
    """Colours in play by number of players, in seat order."""
    islands: bool
    """True when stones go on the islands; False when they are dropped in the water."""
    free_return: bool
    """True when a move of 2 may always come back to its start (River Dragons);
    False when only if nothing else is possible (classic)."""


CLASSIC_EDITION = Edition(
    CLASSIC,
    RIM,
    {
        2: ("black", "white"),
        3: ("red", "blue", "white"),
        4: ("red", "green", "blue", "yellow"),
        5: ("red", "green", "blue", "yellow", "white"),
        6: ("yellow", "red", "green", "blue", "black", "white"),
    },
    islands=True,
    free_return=False,
)
_RIVER_RIM = tuple("pink" if c == "white" else c for c in RIM)
_RIVER_TABLE = {
    2: ("pink", "black"),
    3: ("blue", "red", "yellow"),
    4: ("blue", "green", "red", "yellow"),
    5: ("blue", "green", "red", "yellow", "pink"),
    6: ("blue", "green", "red", "yellow", "pink", "black"),
}
RIVER_DRAGONS_EDITION = Edition(RIVER_DRAGONS, _RIVER_RIM, _RIVER_TABLE, islands=True, free_return=True)
CHALLENGE_EDITION = Edition(CHALLENGE, _RIVER_RIM, _RIVER_TABLE, islands=False, free_return=True)
EDITIONS = {e.name: e for e in (CLASSIC_EDITION, RIVER_DRAGONS_EDITION, CHALLENGE_EDITION)}


@dataclass(frozen=True, slots=True)
class MekongOptions:
    round_limit: int = field(
        default=ROUND_LIMIT,
        metadata={
            "label": "Rounds before the game ends",
            "doc": "After this many rounds the pawn nearest its destination wins (a designed rule; 1 to 60).",
            "range": (1, MAX_ROUND_LIMIT),
        },
    )

    def __post_init__(self) -> None:
        if not 1 <= self.round_limit <= MAX_ROUND_LIMIT:
            raise OptionError("round_limit", f"round_limit is 1 to {MAX_ROUND_LIMIT}, not {self.round_limit}")


VARIANTS = (
    Variant(
        CLASSIC,
        "Classic edition (Descartes 2000)",
        2,
        6,
        MekongOptions,
        "Black, white, red, blue, green and yellow; a move of 2 returns to its start only if it must.",
    ),
    Variant(
        RIVER_DRAGONS,
        "River Dragons edition (Matagot 2012)",
        2,
        6,
        MekongOptions,
        "Pink replaces white; a move of 2 may always go there and back.",
    ),
    Variant(
        CHALLENGE,
        "Challenge: the board without rocks",
        2,
        6,
        MekongOptions,
        "River Dragons rules; stones are dropped anywhere in the water, by coordinates.",
    ),
)
