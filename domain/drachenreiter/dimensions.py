"""Every designed measure of the game, in one place.

No public source gives the geometry of Chevaliers des dragons
(``shared/rules/README.md``: "Designed, because no public source gives it:
template lengths and turn limits"). All values here are **designed**; lengths
are in board units (about a millimetre), angles in degrees.
"""

from __future__ import annotations

SPEEDS: tuple[int, ...] = (100, 200, 300, 400, 500, 600, 700, 800)
"""The eight dragon speeds (VD), one trajectory template each (fact)."""

SPEED_STEP = 100
MAX_SPEED_CHANGE = 300
"""Règle de base: a speed changes by at most 300 per round (fact)."""

TEMPLATE_LENGTH: dict[int, float] = {
    100: 40.0,
    200: 70.0,
    300: 100.0,
    400: 130.0,
    500: 160.0,
    600: 190.0,
    700: 220.0,
    800: 250.0,
}
"""Designed: a template's length grows by 30 per 100 of speed, so that a race on
the default circuit (about 4,100 long) takes 14 to 18 rounds at sensible speeds."""

NOTCH: dict[int, float] = {
    100: 135.0,
    200: 105.0,
    300: 80.0,
    400: 60.0,
    500: 45.0,
    600: 35.0,
    700: 25.0,
    800: 15.0,
}
"""Designed: the turn each notched end allows, either way. Start plus end gives
the total turn: 270° at 100 (the fact) down to 30° at 800."""

TEMPLATE_WIDTH = 16.0
"""Designed: the width of a template bar."""

BASE_LENGTH = 50.0
"""Designed: a dragon base, from its rear point to its front point."""
BASE_WIDTH = 34.0
"""Designed: a dragon base across; the hexagon has its two points on the long axis."""

TRACK_WIDTH = 200.0
"""Designed: the width of the track between its borders."""

FIELD_RADIUS = 28.0
"""Designed: an energy field is a disc of this radius."""
SYMBOL_RADIUS = 16.0
"""Designed: a magic-card symbol is a disc of this radius."""
TRAP_RADIUS = 11.0
"""Designed: a trap token is a disc of this radius."""

YELLOW_SPACING = 200.0
"""Designed: a yellow distance line crosses the track every 200 of progress."""

GRID_SPACING = 45.0
"""Designed: start places step back 45 each, alternating right and left."""
GRID_LATERAL = 45.0
"""Designed: start places sit 45 right and left of the centre line."""

SETTLE_LATERAL_STEP = 4.0
"""Designed: when a dragon is put back inside, places across the track are tried every 4."""
SETTLE_BACK_STEP = 10.0
"""Designed: when no place at a height is free, the dragon slides back 10 at a time."""
SETTLE_CLEARANCE = 1.0
"""Designed: the gap left between a placed dragon and what it must not touch."""

RANGE_DIRECTIONS = 24
"""Designed: how many directions a range template is tried in toward its target
(the player would aim it; the search stands for the player's hand)."""
