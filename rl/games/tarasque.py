"""Tarasque's action space: tiles by name, lair rows up to the most a lair can hold.

Every move is discrete. ``row`` runs 0 to ``ROWS - 1`` or ``None`` (a new row)."""

from __future__ import annotations

from domain import tarasque
from domain.tarasque.tiles import COLOURS, DICE, LANDSCAPES, NUMBERS
from rl.actions import Values
from rl.specs import GameSpec, register_spec

ROWS = 12
"""Designed: more lair rows than a game has been seen to build (random games reach 7)."""

TILES = Values(f"{c}-{s}" for c in COLOURS for s in (*LANDSCAPES, *NUMBERS))
SYMBOLS = Values((*COLOURS, *NUMBERS))
ROW = Values((*range(ROWS), None))
DICE_COUNT = Values(range(1, DICE + 1))
TAKE_DICE = Values(range(1, DICE + 2))
"""A tile may be taken with every die of its symbol set aside, the die on the egg counting 2."""

register_spec(
    GameSpec(
        tarasque.RULESET.slug,
        {
            "remove_tile": {"tile": TILES},
            "store_tile": {"tile": TILES, "row": ROW},
            "set_aside": {"symbol": SYMBOLS, "count": DICE_COUNT, "egg": Values((False, True))},
            "take_tile": {"tile": TILES, "dice": TAKE_DICE},
            "move_lair_tile": {"tile": TILES, "row": ROW},
        },
        max_chance_outcomes=72,
    )
)
