"""Dragon groups: the cards joined by panels of one colour across their edges.

Functions of a layout's panel masks (``Board.masks``: cell -> TL, TR, BL, BR
masks) and one colour bit. Geometry as in ``board``: across the right edge a
card's TR touches the neighbour's TL and its BR the neighbour's BL; across the
bottom edge its BL touches the TL below and its BR the TR below.
"""

from __future__ import annotations

Cell = tuple[int, int]
Masks = tuple[int, int, int, int]
Numbering = tuple[dict[Cell, int], list[int]]
"""Each card of a colour's groups: its group's number; and each group's size, by number."""
SIDES: tuple[tuple[int, int, tuple[tuple[int, int], tuple[int, int]]], ...] = (
    (1, 0, ((1, 0), (3, 2))),
    (-1, 0, ((0, 1), (2, 3))),
    (0, 1, ((2, 0), (3, 1))),
    (0, -1, ((0, 2), (1, 3))),
)
"""Per side: the neighbour's offset and the (own panel, neighbour panel) pairs touching across it
(``group`` writes the same four sides out, for speed)."""


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


def numbered(masks: dict[Cell, Masks], bit: int) -> Numbering:
    """The ``bit``-coloured groups, numbered: each card's group and each group's size."""
    group_of: dict[Cell, int] = {}
    sizes: list[int] = []
    for cell, own in masks.items():
        if cell not in group_of and (own[0] | own[1] | own[2] | own[3]) & bit:
            members = group(masks, cell, bit)
            group_of.update(dict.fromkeys(members, len(sizes)))
            sizes.append(len(members))
    return group_of, sizes


def joined(masks: dict[Cell, Masks], numbering: Numbering, cell: Cell, own: Masks, bit: int) -> int:
    """The cards of the ``bit``-coloured group through the empty ``cell`` once a card with panels
    ``own`` fills it: that card and the groups it touches in that colour (``numbering``, of
    ``masks``), since every path from it leaves through a neighbour it joins."""
    group_of, sizes = numbering
    x, y = cell
    touched: set[int] = set()
    size = 1
    for dx, dy, ((a, b), (c, d)) in SIDES:
        n = (x + dx, y + dy)
        q = masks.get(n)
        if q is not None and (own[a] & q[b] | own[c] & q[d]) & bit and (g := group_of[n]) not in touched:
            touched.add(g)
            size += sizes[g]
    return size
