"""The designed board: villages, islands and plank reach, as data in one place.

No public source gives the geometry of the Mekong delta board, so everything
here is **designed** (``shared/rules/README.md``, "Board (designed)") and may be
changed in this module alone; ``tests/unit/domain/mekong/test_board.py`` checks
the properties the design must keep:

* 6 villages evenly spaced on the rim, each opposite its destination;
* 27 islands between them (classic and River Dragons boards);
* plank sizes 1 to 6 of increasing reach, every size needed by some pair of supports;
* no village reaches its opposite in fewer than 5 planks;
* every crossing can be made with one colour's six planks (sizes 1 to 6 once
  each), on routes of 6 planks: the reserve's sizes are a puzzle, not a wall.

Units are board units: the water is a disc of radius 100 centred on (0, 0), x
grows rightwards and y downwards (as in SVG). The layout has the symmetry of a
triangle with its mirror images, so that every crossing is the same trip: a
central ring of 6 islands and three clusters of 7 between pairs of villages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

BOARD_RADIUS = 100.0
"""Designed: the radius of the water disc."""
VILLAGE_DISTANCE = 82.0
"""Designed: distance from the centre to a village's landing point (where planks rest)."""
VILLAGE_RADIUS = 9.0
"""Designed: the radius of a village's land, drawn and kept free of stones."""
ISLAND_RADIUS = 5.0
"""Designed: the radius of an island; a stone covers it, a plank passing within it passes over it."""
STONE_RADIUS = 3.0
"""Designed: the radius of a stone dropped in the water (challenge variant)."""

SIZES = (1, 2, 3, 4, 5, 6)
"""The six plank sizes of every colour (rulebook: numbered 1 to 6)."""
REACH = {1: 20.0, 2: 24.0, 3: 28.0, 4: 32.0, 5: 36.0, 6: 40.0}
"""Designed: the longest gap between two support centres that a plank of each size spans.

Four planks of size 6 do not span the 164 units between opposite villages, so a
crossing takes at least 5 planks; the six sizes of one colour together reach
just far enough for a nearly straight crossing of 6 planks."""
LONGEST_REACH = REACH[6]

RIM = ("red", "blue", "black", "green", "yellow", "white")
"""Village colours clockwise from the top, classic edition; slot ``i`` faces slot ``i + 3``.

This gives the pairs of the rules: red and green, blue and yellow, black and
white (pink in the River Dragons edition, which takes the white slot)."""


@dataclass(frozen=True, slots=True)
class Site:
    """A named place on the board: a village's landing point or an island's centre."""

    name: str
    x: float
    y: float


def _rim_point(slot: int) -> tuple[float, float]:
    angle = math.radians(60 * slot)
    return round(VILLAGE_DISTANCE * math.sin(angle), 1), round(-VILLAGE_DISTANCE * math.cos(angle), 1)


ISLANDS: tuple[Site, ...] = tuple(
    Site(f"i{n}", x, y)
    for n, (x, y) in enumerate(
        [
            # the central ring (radius 17.5)
            (0.9, -17.5), (14.7, -9.5), (14.7, 9.5), (0.9, 17.5), (-15.6, 8.0), (-15.6, -8.0),
            # the middle ring (radius 45 to 47)
            (0.3, -44.9), (23.5, -40.6), (38.7, -22.7), (38.7, 22.7), (23.5, 40.6), (0.3, 44.9),
            (-39.0, 22.2), (-46.9, 0.0), (-39.0, -22.2),
            # the outer ring (radius 64 to 67)
            (5.2, -66.4), (20.9, -60.2), (41.7, -48.2), (54.9, -37.7), (54.9, 37.7), (41.7, 48.2),
            (20.9, 60.2), (5.2, 66.4), (-60.2, 28.7), (-62.6, 12.0), (-62.6, -12.0), (-60.2, -28.7),
        ],
        start=1,
    )
)  # fmt: skip
"""Designed: the 27 islands, numbered ring by ring, clockwise from the top."""


@lru_cache(maxsize=8)
def villages(rim: tuple[str, ...] = RIM) -> tuple[Site, ...]:
    """The six villages of an edition, named by colour, in rim order."""
    return tuple(Site(name, *_rim_point(slot)) for slot, name in enumerate(rim))


def opposite(rim: tuple[str, ...], colour: str) -> str:
    """The destination of a pawn: the village across the board from its start."""
    return rim[(rim.index(colour) + 3) % 6]


def smallest_size(gap: float) -> int | None:
    """The smallest plank size whose reach spans ``gap``, or None if none does."""
    for size in SIZES:
        if gap <= REACH[size] + 1e-9:
            return size
    return None
