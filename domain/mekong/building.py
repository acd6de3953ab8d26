"""Stones and planks: where they may go, what may be taken back, and the listed choices.

Placing a plank is done "à vue de nez": the player names a plank and two
supports, and naming them is the attempt (README, "Placing a plank without a
trial"). So a too-short attempt is a legal submission, however wide the gap,
even wider than the longest plank reaches; it is refused only for what anyone
can see of the place (a support missing or full, a plank or a third support in
the way: ``Layout.span_fault``). To keep listings short, they hold every
placement that fits and, per open span, one too-short attempt: the longest
plank of the reserve that falls short there (designed); attempts on gaps
wider than any plank are accepted but not listed. After a failed attempt only
the placements that fit are listed.
"""

from __future__ import annotations

import math
from functools import lru_cache

from domain.kernel import RuleRef
from domain.mekong import rulebook as rb
from domain.mekong.board import BOARD_RADIUS, STONE_RADIUS, VILLAGE_RADIUS, villages
from domain.mekong.geometry import point_segment_distance
from domain.mekong.layout import Layout, layout
from domain.mekong.pawns import is_plank
from domain.mekong.state import MekongState, plank_colour, plank_size

DROP_GRID = 12.0
"""Designed: the challenge variant lists stone drops on the points of a square grid
of this spacing, through the centre; any other point of the water may be submitted."""


# ---------------------------------------------------------------- stones


def stone_spots(state: MekongState) -> tuple[str, ...]:
    """Islands a stone may go on (island boards); computed once per board."""
    lay = layout(state)
    spots = lay.memo.get("islands")
    if spots is None:
        spots = lay.memo["islands"] = lay.free_islands()
    return spots


def drop_fault(state: MekongState, x: float, y: float) -> str | None:
    """Why a stone cannot be dropped at ``(x, y)`` (challenge variant), or None."""
    if not (math.isfinite(x) and math.isfinite(y)) or math.hypot(x, y) + STONE_RADIUS > BOARD_RADIUS:
        return "a stone must lie in the water, on the board"
    for v in villages(state.edition.rim):
        if math.dist((x, y), (v.x, v.y)) < VILLAGE_RADIUS + STONE_RADIUS:
            return f"a stone cannot overlap the {v.name} village"
    for s in state.stones:
        if math.dist((x, y), (s.x, s.y)) < 2 * STONE_RADIUS:
            return f"a stone cannot overlap stone {s.name}"
    lay = layout(state)
    for plank, (i, j) in lay.ends.items():
        if point_segment_distance((x, y), lay.geometry.point(i), lay.geometry.point(j)) < STONE_RADIUS:
            return f"a stone cannot go under plank {plank}"
    return None


@lru_cache(maxsize=8)
def _open_water(rim: tuple[str, ...]) -> tuple[tuple[tuple[int, int], tuple[float, float]], ...]:
    """Grid cells (by index, with their point) in the water and clear of every village."""
    steps = int(BOARD_RADIUS // DROP_GRID)
    rim_sites = villages(rim)
    cells = []
    for j in range(-steps, steps + 1):
        for i in range(-steps, steps + 1):
            x, y = i * DROP_GRID, j * DROP_GRID
            if math.hypot(x, y) + STONE_RADIUS <= BOARD_RADIUS and all(
                math.dist((x, y), (v.x, v.y)) >= VILLAGE_RADIUS + STONE_RADIUS for v in rim_sites
            ):
                cells.append(((i, j), (x, y)))
    return tuple(cells)


def _cells_near(x0: float, y0: float, x1: float, y1: float, margin: float) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i in range(math.floor((x0 - margin) / DROP_GRID), math.ceil((x1 + margin) / DROP_GRID) + 1)
        for j in range(math.floor((y0 - margin) / DROP_GRID), math.ceil((y1 + margin) / DROP_GRID) + 1)
    ]


# The grid cells a stone or a plank keeps free depend only on its coordinates, so they are
# cached by coordinates (thread-safe: ``lru_cache`` locks its bookkeeping, the values are frozen).


@lru_cache(maxsize=4096)
def _cells_under_stone(x: float, y: float) -> frozenset[tuple[int, int]]:
    """Grid cells too close to the stone at ``(x, y)`` for another stone."""
    reach = 2 * STONE_RADIUS
    return frozenset(
        c for c in _cells_near(x, y, x, y, reach) if math.dist((c[0] * DROP_GRID, c[1] * DROP_GRID), (x, y)) < reach
    )


@lru_cache(maxsize=4096)
def _cells_under_plank(p: tuple[float, float], q: tuple[float, float]) -> frozenset[tuple[int, int]]:
    """Grid cells under the plank from ``p`` to ``q`` (a stone there would touch it)."""
    box = (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
    return frozenset(
        c
        for c in _cells_near(*box, STONE_RADIUS)
        if point_segment_distance((c[0] * DROP_GRID, c[1] * DROP_GRID), p, q) < STONE_RADIUS
    )


def drop_spots(state: MekongState) -> tuple[tuple[float, float], ...]:
    """Grid points where a stone may be dropped (challenge variant); computed once per board."""
    lay = layout(state)
    spots = lay.memo.get("drops")
    if spots is None:
        blocked: set[tuple[int, int]] = set()
        for s in state.stones:
            blocked |= _cells_under_stone(s.x, s.y)
        for i, j in lay.ends.values():
            blocked |= _cells_under_plank(lay.geometry.point(i), lay.geometry.point(j))
        spots = lay.memo["drops"] = tuple(
            point for cell, point in _open_water(state.edition.rim) if cell not in blocked
        )
    return spots


def stone_name(state: MekongState) -> str:
    """The name of the next dropped stone: the lowest of ``s1``, ``s2``, ... that no stone in the
    water bears (a stone taken back frees its name). So the names never pass ``s27``, the reserve's
    size, however long the game: every drop has its action in the learning environments."""
    taken = {s.name for s in state.stones}
    return next(name for n in range(1, len(taken) + 2) if (name := f"s{n}") not in taken)


# ---------------------------------------------------------------- planks


def fits_somewhere(lay: Layout, plank: str) -> bool:
    size = plank_size(plank)
    return any(s.need <= size for s in lay.open_spans())


def plank_choices(state: MekongState, seat: int) -> list[tuple[str, tuple[str, str]]]:
    """The listed plank placements of ``seat`` (see the module docstring)."""
    lay = layout(state)
    names = lay.geometry.sites
    retry = state.task.retry
    planks = (retry,) if retry is not None else state.reserves[seat]
    sizes = [(p, plank_size(p)) for p in planks]
    out: list[tuple[str, tuple[str, str]]] = []
    for span in lay.open_spans():
        ends = (names[span.a].name, names[span.b].name)
        if retry is not None and ends in state.task.tried:
            continue
        short = None
        for plank, size in sizes:
            if size >= span.need:
                out.append((plank, ends))
            elif retry is None and (short is None or size > plank_size(short)):
                short = plank
        if short is not None:
            out.append((short, ends))
    return out


# ---------------------------------------------------------------- removing


def reserve_fault(reserve: tuple[str, ...], plank: str) -> tuple[str, RuleRef] | None:
    """Why ``plank`` cannot join ``reserve`` (two of one size, more than two colours), or None."""
    size = plank_size(plank)
    if any(plank_size(p) == size for p in reserve):
        return f"your reserve already holds a plank of size {size}", rb.RESERVE_SIZES
    colours = {plank_colour(p) for p in reserve} | {plank_colour(plank)}
    if len(colours) > 2:
        return "your reserve would hold planks of more than two colours", rb.RESERVE_COLOURS
    return None


def takeable_planks(state: MekongState, seat: int) -> list[str]:
    """Planks ``seat`` may take: no pawn on them, and the reserve rules kept."""
    standing = {p for p in state.pawns if p is not None and is_plank(p)}
    reserve = state.reserves[seat]
    return [b.plank for b in state.bridges if b.plank not in standing and reserve_fault(reserve, b.plank) is None]


def bare_stones(state: MekongState) -> list[str]:
    """Stones on which no plank rests."""
    lay = layout(state)
    return [s.name for s, i in zip(state.stones, lay.stones, strict=True) if lay.load[i] == 0]
