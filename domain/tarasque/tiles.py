"""The material: 36 tiles, 6 dice, 36 eggs, and the two decks that name them.

Every tile combines one of 6 colours with one of 6 *marks* (a landscape in the
``dragon-dice`` game, a number 1 to 6 in the ``numbered`` adaptation), each
pair once. A die face is a *symbol*: in ``dragon-dice`` the symbol of a tile is
its colour, in ``numbered`` its number. Both games are therefore the same game
under a different naming, and the rules below only ever ask a tile for its
symbol, colour and mark.

Tile ids are readable strings, ``"<colour>-<mark>"``: ``"red-forest"`` or
``"red-3"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

COLOURS = ("red", "yellow", "green", "blue", "purple", "black")
"""Designed: the rulebook says only "6 dragons de couleurs différentes"."""

LANDSCAPES = ("desert", "forest", "glacier", "meadow", "sea", "volcano")
"""Designed: the rulebook says only "6 paysages différents"."""

NUMBERS = ("1", "2", "3", "4", "5", "6")
"""The numbered tiles and the faces of an ordinary die (adapted rule)."""

DICE = 6
"""The player rolls the 6 dice (rulebook, Matériel)."""

EGGS = 36
"""Dragon eggs in the game, supply and players together (rulebook, Matériel)."""

START_EGGS = 1
"""Eggs each player receives at the start (rulebook, Préparatifs)."""

SIDES = (2, 3, 4, 5)
"""The sides of a dragon base: the number of dice that won the tiles there."""

LAIR_DICE = 6
"""A tile won with this many dice of one symbol or more goes straight into the lair."""

MIDDLE_SIZE = 3
"""Tiles face up in the middle at the start of a turn."""

TWO_PLAYER_MIDDLE_SIZE = 4
"""Tiles face up in the middle in the 2-player game, before one is removed."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The tiles and dice of one variant, and what each tile shows."""

    name: str
    mark_name: str
    """What the second attribute is called in views: ``landscape`` or ``number``."""
    faces: tuple[str, ...]
    """The die faces (symbols), in the order moves are listed."""
    tiles: tuple[str, ...]
    symbol: Mapping[str, str]
    """The symbol dice must show to take the tile."""
    colour: Mapping[str, str]
    mark: Mapping[str, str]
    face_index: Mapping[str, int]
    """Position of each symbol in ``faces``."""

    def describe(self, tile: str) -> dict[str, str]:
        """A tile's attributes, JSON-native, for views."""
        return {"colour": self.colour[tile], self.mark_name: self.mark[tile], "symbol": self.symbol[tile]}


def _deck(name: str, mark_name: str, marks: tuple[str, ...], symbol_is_colour: bool) -> Deck:
    tiles = tuple(f"{c}-{m}" for c in COLOURS for m in marks)
    colour = {f"{c}-{m}": c for c in COLOURS for m in marks}
    mark = {f"{c}-{m}": m for c in COLOURS for m in marks}
    symbol = colour if symbol_is_colour else mark
    faces = COLOURS if symbol_is_colour else marks
    return Deck(
        name,
        mark_name,
        faces,
        tiles,
        MappingProxyType(dict(symbol)),
        MappingProxyType(colour),
        MappingProxyType(mark),
        MappingProxyType({f: i for i, f in enumerate(faces)}),
    )


DRAGON_DICE = _deck("dragon-dice", "landscape", LANDSCAPES, symbol_is_colour=True)
"""Dragon dice show the 6 colours; a tile is taken with dice of its colour."""

NUMBERED = _deck("numbered", "number", NUMBERS, symbol_is_colour=False)
"""Ordinary dice show 1 to 6; "le nombre de points ... détermine les numéros des tuiles"."""

DECKS: Mapping[str, Deck] = MappingProxyType({d.name: d for d in (DRAGON_DICE, NUMBERED)})
