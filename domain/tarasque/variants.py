"""The two ways to play Tarasque; the first is the default. Neither has options."""

from __future__ import annotations

from domain.kernel import NoOptions, Variant

MIN_SEATS = 2
MAX_SEATS = 6

DRAGON_DICE = Variant(
    "dragon-dice",
    "Dragon dice",
    MIN_SEATS,
    MAX_SEATS,
    NoOptions,
    "Six dragon dice showing the six colours; 36 tiles, each a colour and a landscape. "
    "Dice of a colour take tiles of that colour.",
)
NUMBERED = Variant(
    "numbered",
    "Numbered tiles",
    MIN_SEATS,
    MAX_SEATS,
    NoOptions,
    "The adapted rule: six ordinary dice; 36 tiles of six colours numbered 1 to 6. "
    "The number a die shows picks the tiles with that number.",
)

VARIANTS = (DRAGON_DICE, NUMBERED)
