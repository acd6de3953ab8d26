"""Les Dragons du Mékong's action space: places by name, a programme as five cards in order.

* ``Program``: five cards in order, each one of the card kinds (15^5 actions; the hand
  allows a few thousand of them at a time).
* ``PlaceStoneAt`` (challenge variant): the drop point on the engine's own grid
  (``building.DROP_GRID``, 12 units) from -96 to 96 on each axis.
* Supports are villages (by colour), islands (``i0``...) and dropped stones (``s1``...,
  up to ``DROPS``); a path is one or two steps among planks and villages.
"""

from __future__ import annotations

from domain import mekong
from domain.mekong.board import BOARD_RADIUS, ISLANDS, SIZES
from domain.mekong.building import DROP_GRID
from domain.mekong.cards import Card
from domain.mekong.state import plank_name
from rl.actions import Grid, Path, Seq, Values
from rl.specs import GameSpec, register_spec

DROPS = 40
"""Designed: more stones than the reserve holds (27)."""

COLOURS = tuple(c.dragon for c in Card if c.dragon is not None)
PLANKS = Values(plank_name(c, s) for c in COLOURS for s in SIZES)
STONES = Values((*(i.name for i in ISLANDS), *(f"s{n}" for n in range(1, DROPS + 1))))
SUPPORTS = Values((*COLOURS, *STONES.values))
SPOTS = Values((*PLANKS.values, *COLOURS))
_EDGE = (BOARD_RADIUS // DROP_GRID) * DROP_GRID
DROP = Grid(-_EDGE, _EDGE, DROP_GRID)

register_spec(
    GameSpec(
        mekong.RULESET.slug,
        {
            "program": {"cards": Seq(Values(Card), 5)},
            "place_stone": {"island": STONES},
            "place_stone_at": {"x": DROP, "y": DROP},
            "place_plank": {"plank": PLANKS, "ends": Seq(SUPPORTS, 2)},
            "remove_plank": {"plank": PLANKS},
            "remove_stone": {"stone": STONES},
            "move": {"path": Path(SPOTS, 2)},
            "jump": {"over": PLANKS, "to": SPOTS},
        },
        max_chance_outcomes=256,
    )
)
