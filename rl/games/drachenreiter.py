"""Drachenreiter's action space, with its continuous decisions on a grid.

The grid (documented in docs/rl.md):

* ``Move``: the template's speed (100 to 800), and its start and end turns every
  ``TURN_STEP`` (1°) from -135° to 135° (the widest notch). The rules take turns in whole
  degrees (``rulebook.RESOLUTION``), so every flight a player or a bot may fly has an
  action of its own.
* ``Face``: the heading every ``HEADING_STEP`` (1°) from -360° to 360°. The rules take a
  whole heading, or the heading as placed (any angle), which the engine lists first: it
  snaps to the nearest degree, whose whole heading the rules refuse (within half a degree
  of the one as placed), so that action is the heading as placed's alone.
* ``LayTraps`` (a choice of spots among geometric layouts) and ``Discard`` (a set of
  cards) are numbered by their place in the listing (``Listed``): the k-th listed.
"""

from __future__ import annotations

from domain import drachenreiter
from domain.drachenreiter.cards import DECK, Magic
from domain.drachenreiter.dimensions import NOTCH, SPEEDS
from rl.action_fields import Grid, Listed, Values
from rl.specs import GameSpec, register_spec

TURN_STEP = 1.0
HEADING_STEP = 1.0
WIDEST = max(NOTCH.values())
SEATS = max(v.max_seats for v in drachenreiter.RULESET.variants)
SPEED = Values(SPEEDS)
TURN = Grid(-WIDEST, WIDEST, TURN_STEP)

register_spec(
    GameSpec(
        drachenreiter.RULESET.slug,
        {
            "set_speed": {"speed": SPEED, "card": Values((None, *Magic))},
            "move": {"speed": SPEED, "turn_in": TURN, "turn_out": TURN},
            "face": {"heading": Grid(-360.0, 360.0, HEADING_STEP)},
            "draw": {"count": Values(range(8))},
            "discard": Listed(64),
            "aim": {"target": Values(range(SEATS))},
            "lay_traps": Listed(128),
        },
        max_chance_outcomes=sum(DECK.values()),
    )
)
