"""Magic cards, start cards, damage dice and trap tokens (counts from README.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Magic(StrEnum):
    """The kinds of magic card. Range cards carry their range in the name."""

    FIREBALL_400 = "fireball-400"
    FIREBALL_600 = "fireball-600"
    FIREBALL_800 = "fireball-800"
    LASSO = "lasso"
    ALLIANCE = "alliance"
    TRAP = "magic-trap"
    ENERGY = "magic-energy"
    FORCE = "dragon-force"
    COUNTER_WIND = "counter-wind"
    AMULET = "amulet"


DECK: dict[Magic, int] = {
    Magic.FIREBALL_400: 4,
    Magic.FIREBALL_600: 4,
    Magic.FIREBALL_800: 3,
    Magic.LASSO: 4,
    Magic.ALLIANCE: 4,
    Magic.TRAP: 4,
    Magic.ENERGY: 4,
    Magic.FORCE: 4,
    Magic.COUNTER_WIND: 4,
    Magic.AMULET: 3,
}
"""Designed (README.md): the split of the 38 magic cards."""

DECK_SIZE = sum(DECK.values())
assert DECK_SIZE == 38

FIREBALL_RANGE: dict[Magic, int] = {Magic.FIREBALL_400: 400, Magic.FIREBALL_600: 600, Magic.FIREBALL_800: 800}
LASSO_RANGE = 600
ENERGY_RANGE = 600
ALLIANCE_RANGE = 400
"""Ranges (rulebook): measured with the template of that speed."""

AFTER_MOVE: frozenset[Magic] = frozenset({*FIREBALL_RANGE, Magic.LASSO, Magic.TRAP, Magic.ENERGY})
"""Cards played after the move (rulebook: "après son déplacement")."""
TEMPLATE_CARDS: frozenset[Magic] = frozenset({Magic.FORCE, Magic.COUNTER_WIND})
"""Cards played before the move: they change the template used, not the dial."""
CARD_SHIFT = 300
"""Dragon force and counter-wind change the template by up to 300 (rulebook)."""

HAND_LIMIT = 4
"""At most four magic cards in hand; the laid card does not count (rulebook)."""
ENERGY_LIMIT = 4
"""At most four energy tokens (rulebook)."""
ENERGY_TOKENS = 26
"""26 energy tokens in the game (rulebook, README.md)."""


@dataclass(frozen=True, slots=True)
class StartCard:
    """An Avolatio card: grid place, energy, magic cards and starting speed."""

    number: int
    energy: int
    cards: int
    speed: int


START_CARDS: tuple[StartCard, ...] = (
    StartCard(1, 2, 1, 500),
    StartCard(2, 2, 2, 500),
    StartCard(3, 3, 2, 400),
    StartCard(4, 3, 3, 400),
    StartCard(5, 4, 3, 300),
    StartCard(6, 4, 4, 300),
)
"""Card 1 is the rulebook's example; cards 2 to 6 are designed (README.md)."""

DAMAGE_DIE: tuple[int, ...] = (0, 0, 0, 1, 1, 2)
"""Designed (README.md): dragon heads on the six faces of a damage die."""
DAMAGE_DICE = 2

TRAP_TOKENS: tuple[int, ...] = (2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0)
"""README.md: 12 traps, 3 worth 2, 6 worth 1, 3 worth 0; they start in the stock."""
TRAPS_PER_CARD = 3

DEBILITATUS_SPEED = 300
DEBILITATUS_ENERGY = 2
DEBILITATUS_SPEED_CAP = 500
"""An exhausted dragon restarts at 300 with 2 energy and may not exceed 500 (rulebook)."""

ROUND_LIMIT = 60
"""Designed safety stop (no rule): a race still running after 60 rounds ends as if
a dragon had crossed the line. Races last 14 to 20 rounds; only aimless play gets here."""


def full_deck() -> tuple[Magic, ...]:
    """The 38 cards in a fixed order (shuffled at setup)."""
    return tuple(kind for kind in Magic for _ in range(DECK[kind]))
