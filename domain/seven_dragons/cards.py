"""The 72 cards of Seven Dragons, as data (``shared/rules/seven-dragons-deck.md``).

* 51 Dragon cards, each a 2×2 grid of panels TL, TR, BL, BR; a region of one
  colour on a card is one dragon, and no card has two regions of one colour.
* 15 Action cards, three of each action, each with the colour the Silver Dragon
  takes while it lies on top of the discard pile.
* 5 Goal cards, one per colour: they are ``Colour`` values, not numbered cards.
* The Silver Dragon, the starting card, which never moves.

Dragons, actions and the Silver Dragon are numbered ``0..66`` in the order of the
card list; commands and events name them by that number.

Colours are bits so that matching is one ``&``: a panel's *mask* holds the bits
of every colour it counts as. The Rainbow Dragon and the Silver Dragon while the
discard pile is empty are *wild*: every bit is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Colour(Enum):
    """The five dragon colours, which are also the five goals."""

    RED = "red"
    GOLD = "gold"
    BLUE = "blue"
    GREEN = "green"
    BLACK = "black"


COLOURS: tuple[Colour, ...] = tuple(Colour)
BIT: dict[Colour, int] = {c: 1 << i for i, c in enumerate(COLOURS)}
"""The bit of each colour in a panel mask."""
COLOUR_OF_BIT: dict[int, Colour] = {b: c for c, b in BIT.items()}
WILD = (1 << len(COLOURS)) - 1
"""The mask of a panel that counts as every colour (Rainbow, wild Silver)."""


class Action(Enum):
    """The five actions; the value is the wire name of the command that plays it."""

    ZAP_A_CARD = "zap_card"
    TRADE_GOALS = "trade_goals"
    ROTATE_GOALS = "rotate_goals"
    MOVE_A_CARD = "move_card"
    TRADE_HANDS = "trade_hands"


ACTION_COLOUR: dict[Action, Colour] = {
    Action.ZAP_A_CARD: Colour.RED,
    Action.TRADE_GOALS: Colour.GOLD,
    Action.ROTATE_GOALS: Colour.BLUE,
    Action.MOVE_A_CARD: Colour.GREEN,
    Action.TRADE_HANDS: Colour.BLACK,
}
COPIES_PER_ACTION = 3

_LETTERS = {"R": Colour.RED, "Y": Colour.GOLD, "B": Colour.BLUE, "G": Colour.GREEN, "K": Colour.BLACK}

RAINBOW_CODE = "****"
DRAGON_CODES: tuple[str, ...] = (
    # Rainbow, whole card.
    RAINBOW_CODE,
    # One dragon, whole card: two of each.
    "RRRR", "RRRR", "YYYY", "YYYY", "BBBB", "BBBB", "GGGG", "GGGG", "KKKK", "KKKK",
    # Halves, top/bottom.
    "RRYY", "RRBB", "YYGG", "YYKK", "BBYY", "BBKK", "GGRR", "GGBB", "KKRR", "KKGG",
    # Halves, left/right.
    "RYRY", "RKRK", "YBYB", "YGYG", "BRBR", "BKBK", "GRGR", "GBGB", "KYKY", "KGKG",
    # Three dragons: top half and two quarters.
    "RRKG", "YYRK", "BBYR", "GGBY", "KKGB",
    # Three dragons: left half and two quarters.
    "RYRB", "YBYG", "BGBK", "GKGR", "KRKY",
    # Four quarters.
    "RKBG", "YBRK", "YGBR", "YKGB", "BRGK", "BKYR", "GRYB", "GRKY", "GYBK", "KGYR",
)  # fmt: skip
"""Each dragon card's panels as letters TL TR BL BR (R Red, Y Gold, B Blue, G Green, K Black, * Rainbow)."""


class Kind(Enum):
    DRAGON = "dragon"
    ACTION = "action"
    SILVER = "silver"


@dataclass(frozen=True, slots=True)
class Card:
    """One numbered card."""

    id: int
    kind: Kind
    name: str
    """``RRYY`` for a dragon, the action's name, or ``silver``."""
    panels: tuple[int, int, int, int] = (0, 0, 0, 0)
    """A dragon's panel masks upright (orientation 0), TL TR BL BR."""
    action: Action | None = None
    colour: Colour | None = None
    """An action card's colour, which the Silver Dragon takes from the top of the discard pile."""

    @property
    def rainbow(self) -> bool:
        return self.kind is Kind.DRAGON and self.name == RAINBOW_CODE


def _panels(code: str) -> tuple[int, int, int, int]:
    a, b, c, d = (WILD if letter == "*" else BIT[_LETTERS[letter]] for letter in code)
    return (a, b, c, d)


def _build() -> tuple[Card, ...]:
    cards = [Card(i, Kind.DRAGON, code, _panels(code)) for i, code in enumerate(DRAGON_CODES)]
    for action in Action:
        for _ in range(COPIES_PER_ACTION):
            cards.append(Card(len(cards), Kind.ACTION, action.value, action=action, colour=ACTION_COLOUR[action]))
    cards.append(Card(len(cards), Kind.SILVER, "silver", (WILD,) * 4))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
SILVER: int = CARDS[-1].id
"""The Silver Dragon's number."""
RAINBOW: int = DRAGON_CODES.index(RAINBOW_CODE)
DRAGONS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind is Kind.DRAGON)
ACTIONS: tuple[int, ...] = tuple(c.id for c in CARDS if c.kind is Kind.ACTION)
IS_DRAGON: tuple[bool, ...] = tuple(c.kind is Kind.DRAGON for c in CARDS)
ACTION_OF: tuple[Action | None, ...] = tuple(c.action for c in CARDS)
ACTION_OF_CARD: dict[int, Action] = {c.id: c.action for c in CARDS if c.action is not None}
"""The action of each action card: ``ACTION_OF`` for the cards that have one."""
COLOUR_BIT: tuple[int, ...] = tuple(BIT[c.colour] if c.colour is not None else 0 for c in CARDS)
"""An action card's colour as a mask bit (what the Silver Dragon takes from it); 0 for other cards."""

ORIENTATIONS: tuple[int, int] = (0, 180)
"""A card stands upright or is turned 180°, never 90°."""


def turned(panels: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The panels after a 180° turn: TL, TR, BL, BR becomes BR, BL, TR, TL."""
    return (panels[3], panels[2], panels[1], panels[0])


ORIENTED: tuple[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], ...] = tuple(
    (c.panels, turned(c.panels)) for c in CARDS
)
"""``ORIENTED[card][0 or 1]``: a card's panel masks upright and turned 180°."""


def oriented(card: int, orientation: int) -> tuple[int, int, int, int]:
    """The panel masks of ``card`` in ``orientation`` (0 or 180)."""
    return ORIENTED[card][orientation == 180]


def colours_of(mask: int) -> tuple[Colour, ...]:
    """The colours a mask counts as, in colour order."""
    return tuple(c for c in COLOURS if mask & BIT[c])
