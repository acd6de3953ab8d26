"""A game's configuration: what ``Ruleset.configure`` checks and ``Ruleset.initial`` needs.

In a module of its own so that the narration can be told a game's configuration
(``narration.Audience.config``) without importing the ruleset contract, which imports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What ``initial`` needs: the variant, its validated options and the seat count."""

    variant: str
    options: Any
    """An instance of the variant's ``options`` dataclass: which one is known only once the
    variant is (each game reads its own fields; ``Any`` spares it a cast)."""
    seats: int
