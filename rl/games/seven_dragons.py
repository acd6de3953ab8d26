"""Seven Dragons' action space: cards by number, cells on a square grid around the Silver Dragon.

Cells run from ``-REACH`` to ``REACH`` on both axes; a placement farther out (a layout
stretched in one line beyond 12 cards from the centre) is legal but has no action, so it
is left out of the mask. An action card's command numbers only the copies of that action
(three cards each), which keeps Move a Card's block to 3 x 67 x 25 x 25 x 2 x 2 actions.
"""

from __future__ import annotations

from domain import seven_dragons
from domain.seven_dragons.cards import ACTION_OF_CARD, CARDS, DRAGONS, ORIENTATIONS, SILVER
from domain.seven_dragons.commands import Direction, Discard
from domain.seven_dragons.variants import MAX_SEATS
from rl.actions import Values
from rl.specs import GameSpec, register_spec

REACH = 12
"""Designed: random games stay within 9 cells of the centre."""

CELL = Values(range(-REACH, REACH + 1))
ANY_CARD = Values(range(len(CARDS)))
SEAT = Values(range(MAX_SEATS))
TURN = Values(ORIENTATIONS)
PILE = Values(Discard)


def _copies(command: str) -> Values:
    return Values(sorted(c for c, a in ACTION_OF_CARD.items() if a.value == command))


ACTION_CARDS = Values(sorted(ACTION_OF_CARD))

register_spec(
    GameSpec(
        seven_dragons.RULESET.slug,
        {
            "place_dragon": {"card": Values((*DRAGONS, SILVER)), "x": CELL, "y": CELL, "orientation": TURN},
            "trade_hands": {"card": _copies("trade_hands"), "seat": SEAT, "discard": PILE},
            "trade_goals": {
                "card": _copies("trade_goals"),
                "seat": Values((*range(MAX_SEATS), None)),
                "unused": Values((*range(MAX_SEATS), None)),
                "discard": PILE,
            },
            "rotate_goals": {"card": _copies("rotate_goals"), "direction": Values(Direction), "discard": PILE},
            "move_card": {
                "card": _copies("move_card"),
                "target": ANY_CARD,
                "x": CELL,
                "y": CELL,
                "orientation": TURN,
                "discard": PILE,
            },
            "zap_card": {"card": _copies("zap_card"), "target": ANY_CARD, "discard": PILE},
            "discard_action": {"card": ACTION_CARDS},
            "set_aside": {"card": ANY_CARD},
        },
        max_chance_outcomes=len(CARDS),
    )
)
