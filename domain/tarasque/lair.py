"""The dragon lair: which rows a tile may join, the egg move, and the score.

A row is either one colour with all marks different, or one mark with all
colours different ("des rangées de dragons de couleurs identiques avec des
paysages différents et/ou des rangées de dragons de couleurs différentes avec
des paysages identiques"). As each colour-mark pair exists once, a row is
valid exactly when all its tiles share a colour or all share a mark, and every
part of a valid row is valid, so tiles may enter a lair in any order.
"""

from __future__ import annotations

from domain.tarasque.state import Lair, Tiles
from domain.tarasque.tiles import Deck

ROW_POINTS = (0, 1, 4, 9, 16, 25, 36)
"""Points of a row by its length (rulebook, Evaluation finale)."""


def fits(row: Tiles, tile: str, deck: Deck) -> bool:
    """Whether ``tile`` may extend ``row``: all share its colour, or all share its mark."""
    colour, mark = deck.colour, deck.mark
    c = colour[tile]
    if all(colour[t] == c for t in row):
        return True
    m = mark[tile]
    return all(mark[t] == m for t in row)


def compatible_rows(lair: Lair, tile: str, deck: Deck) -> tuple[int, ...]:
    """Indices of the rows ``tile`` may extend, in order."""
    return tuple(i for i, row in enumerate(lair) if fits(row, tile, deck))


def add(lair: Lair, tile: str, row: int) -> Lair:
    """``lair`` with ``tile`` at the end of row ``row``; ``row == len(lair)`` opens a new row."""
    if row == len(lair):
        return (*lair, (tile,))
    return (*lair[:row], (*lair[row], tile), *lair[row + 1 :])


def move(lair: Lair, tile: str, row: int) -> Lair:
    """``lair`` with ``tile`` moved to the end of row ``row`` (index before the move), or into a new
    last row when ``row == len(lair)``; empty rows close ("On comble les espaces vacants")."""
    rows = [(*r, tile) if i == row else tuple(t for t in r if t != tile) for i, r in enumerate(lair)]
    if row == len(lair):
        rows.append((tile,))
    return tuple(r for r in rows if r)


def moves(lair: Lair, deck: Deck) -> tuple[tuple[str, int | None], ...]:
    """Every (tile, row) egg move, in lair order: a tile into another row it fits, then
    (``None``) into a new row if its row holds another tile."""
    out: list[tuple[str, int | None]] = []
    for i, row in enumerate(lair):
        for tile in row:
            for j, other in enumerate(lair):
                if j != i and fits(other, tile, deck):
                    out.append((tile, j))
            if len(row) > 1:
                out.append((tile, None))
    return tuple(out)


def has_move(lair: Lair, deck: Deck) -> bool:
    """Whether some lair tile may move (cheaper than listing them): any row of two tiles or more
    lets one open a new row; otherwise a lone tile must fit another row."""
    if any(len(row) > 1 for row in lair):
        return True
    return any(j != i and fits(other, row[0], deck) for i, row in enumerate(lair) for j, other in enumerate(lair))


def score(lair: Lair) -> int:
    """The lair's points: each row scores its length squared."""
    return sum(ROW_POINTS[len(r)] for r in lair)
