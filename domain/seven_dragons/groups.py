"""Dragon groups: the cards joined by panels of one colour across their edges.

Functions of a layout's panel masks (``Board.masks``: cell -> TL, TR, BL, BR
masks) and one colour bit. Geometry as in ``board``: across the right edge a
card's TR touches the neighbour's TL and its BR the neighbour's BL; across the
bottom edge its BL touches the TL below and its BR the TR below.
"""

from __future__ import annotations

Cell = tuple[int, int]
Masks = tuple[int, int, int, int]


def group(masks: dict[Cell, Masks], start: Cell, bit: int) -> set[Cell]:
    """The cells of the ``bit``-coloured group through ``start`` (the four sides written out, for speed)."""
    get = masks.get
    seen = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        x, y = cell
        own = masks[cell]
        n = (x + 1, y)
        if n not in seen and (q := get(n)) is not None and (own[1] & q[0] | own[3] & q[2]) & bit:
            seen.add(n)
            stack.append(n)
        n = (x - 1, y)
        if n not in seen and (q := get(n)) is not None and (own[0] & q[1] | own[2] & q[3]) & bit:
            seen.add(n)
            stack.append(n)
        n = (x, y + 1)
        if n not in seen and (q := get(n)) is not None and (own[2] & q[0] | own[3] & q[1]) & bit:
            seen.add(n)
            stack.append(n)
        n = (x, y - 1)
        if n not in seen and (q := get(n)) is not None and (own[0] & q[2] | own[1] & q[3]) & bit:
            seen.add(n)
            stack.append(n)
    return seen


def largest(masks: dict[Cell, Masks], bit: int) -> int:
    """The number of cards in the largest ``bit``-coloured group (0 without any)."""
    best = 0
    done: set[Cell] = set()
    for cell, own in masks.items():
        if cell in done or not (own[0] | own[1] | own[2] | own[3]) & bit:
            continue
        found = group(masks, cell, bit)
        done |= found
        best = max(best, len(found))
    return best


def groups(masks: dict[Cell, Masks], bit: int) -> list[set[Cell]]:
    """Every group of colour ``bit``, largest first (ties by smallest cell)."""
    out: list[set[Cell]] = []
    done: set[Cell] = set()
    for cell in sorted(masks):
        own = masks[cell]
        if cell not in done and (own[0] | own[1] | own[2] | own[3]) & bit:
            found = group(masks, cell, bit)
            done |= found
            out.append(found)
    out.sort(key=lambda g: (-len(g), min(g)))
    return out
