"""What the board of a state allows: standing supports, their loads, open spans, pawn steps.

A ``Layout`` is derived from a state's stones and planks and kept in a small
module-level cache keyed by those (immutable) tuples, so that listing moves,
deciding and bots share one computation per board position.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from domain.kernel import RuleRef
from domain.mekong import rulebook as rb
from domain.mekong.board import ISLAND_RADIUS, ISLANDS, STONE_RADIUS, VILLAGE_RADIUS, Site, villages
from domain.mekong.geometry import Geometry, Span, geometry, point_segment_distance, segments_clash
from domain.mekong.state import Bridge, MekongState
from domain.mekong.variants import EDITIONS

MAX_LOAD = 3
"""A stone or a village bears at most 3 planks (rulebook)."""
_CACHE_SIZE = 512


class Layout:
    """The board of one position: supports standing, planks on them, where a plank may go."""

    __slots__ = (
        "_open",
        "blocked",
        "covered",
        "ends",
        "geometry",
        "load",
        "memo",
        "planks_at",
        "present",
        "stones",
        "village_names",
    )

    def __init__(
        self, variant: str, stones: tuple[Site, ...], bridges: tuple[Bridge, ...], drops: tuple[Site, ...]
    ) -> None:
        self.geometry = board_geometry(variant, drops)
        g = self.geometry
        self.village_names = frozenset(s.name for s in g.sites[: g.villages])
        self.stones = tuple(g.index[s.name] for s in stones)
        present = (1 << g.villages) - 1
        for i in self.stones:
            present |= 1 << i
        self.present = present
        load = [0] * len(g.sites)
        planks_at: list[list[str]] = [[] for _ in g.sites]
        self.ends: dict[str, tuple[int, int]] = {}
        blocked = covered = 0
        for b in bridges:
            i, j = g.index[b.ends[0]], g.index[b.ends[1]]
            span = g.span_between[(i, j)]
            self.ends[b.plank] = (i, j)
            load[i] += 1
            load[j] += 1
            planks_at[i].append(b.plank)
            planks_at[j].append(b.plank)
            blocked |= g.clash(span.index)
            covered |= g.over[span.index]
        self.load = tuple(load)
        self.planks_at = tuple(tuple(p) for p in planks_at)
        self.blocked = blocked
        self.covered = covered
        self._open: tuple[Span, ...] | None = None
        self.memo: dict[object, Any] = {}
        """Other facts derived from this board (stone spots, route fields), filled on demand."""

    def is_village(self, name: str) -> bool:
        return name in self.village_names

    def open_spans(self) -> tuple[Span, ...]:
        """Spans a new plank may take: both supports standing and below 3 planks,
        no crossing, no stone passed over."""
        if self._open is None:
            present, blocked, load, over = self.present, self.blocked, self.load, self.geometry.over
            self._open = tuple(
                s for s in self.geometry.spans
                if present >> s.a & 1 and present >> s.b & 1 and load[s.a] < MAX_LOAD and load[s.b] < MAX_LOAD
                and not blocked >> s.index & 1 and not over[s.index] & present
            )  # fmt: skip
        return self._open

    def span_fault(self, a: str, b: str) -> tuple[str, RuleRef] | None:
        """Why no plank, whatever its size, may rest on supports ``a`` and ``b`` (and the rule), or None.

        Only what anyone can see of the place counts: two different supports on
        the board (not two villages), room on both, no plank and no third support
        in the way. How far apart they are never refuses a plank: a gap wider than
        the plank named, even wider than the longest plank, makes the attempt fail
        (``decide``), it does not refuse it."""
        g = self.geometry
        if a == b:
            return "a plank needs two different supports", rb.PLANK_SUPPORTS
        for name in (a, b):
            i = g.index.get(name)
            if i is None or not self.present >> i & 1:
                return f"{name!r} is neither a village nor a stone on the board", rb.PLANK_SUPPORTS
        i, j = g.index[a], g.index[b]
        if i < g.villages and j < g.villages:
            return "a plank rests on two stones, or on a village and a stone, never on two villages", rb.PLANK_SUPPORTS
        for k, name in ((i, a), (j, b)):
            if self.load[k] >= MAX_LOAD:
                rule = rb.PLANK_THREE_VILLAGE if k < g.villages else rb.PLANK_THREE
                return f"{name} already bears {MAX_LOAD} planks", rule
        crosses, over = self._in_the_way(i, j)
        if crosses:
            return f"a plank from {a} to {b} would cross or lie on another plank", rb.PLANK_CROSSING
        if over:
            return (
                f"a plank from {a} to {b} would pass over {g.sites[(over & -over).bit_length() - 1].name}",
                rb.PLANK_OVER_STONE,
            )
        return None

    def _in_the_way(self, i: int, j: int) -> tuple[bool, int]:
        """Whether a plank from site ``i`` to site ``j`` would clash with a plank on the board, and the
        supports standing (a bit mask) it would pass over. Spans within reach are looked up; a wider
        gap (no span) is measured here."""
        g = self.geometry
        span = g.span_between.get((i, j))
        if span is not None:
            return bool(self.blocked >> span.index & 1), g.over[span.index] & self.present
        p, q = g.point(i), g.point(j)
        crosses = any(segments_clash(p, q, g.point(x), g.point(y)) for x, y in self.ends.values())
        over = 0
        for k in range(len(g.sites)):
            if k != i and k != j and self.present >> k & 1 and point_segment_distance(g.point(k), p, q) < g.radius[k]:
                over |= 1 << k
        return crosses, over

    def need(self, a: str, b: str) -> int | None:
        """The smallest plank size that spans supports ``a`` and ``b``, or None when no plank does."""
        g = self.geometry
        span = g.span_between.get((g.index[a], g.index[b]))
        return None if span is None else span.need

    def ordered(self, a: str, b: str) -> tuple[str, str]:
        """Two supports in board order (villages clockwise from the top, then islands by number, or stones in
        the order they were dropped)."""
        return (a, b) if self.geometry.index[a] < self.geometry.index[b] else (b, a)

    def span(self, a: str, b: str) -> Span:
        g = self.geometry
        return g.span_between[(g.index[a], g.index[b])]

    def free_islands(self) -> tuple[str, ...]:
        """Islands with no stone and no plank passing over them (island boards)."""
        g = self.geometry
        taken = self.present | self.covered
        return tuple(g.sites[i].name for i in range(g.villages, len(g.sites)) if not taken >> i & 1)

    def neighbours(self, spot: str) -> tuple[str, ...]:
        """Spots one step from ``spot``: planks sharing a support with it, and the villages it rests on."""
        g = self.geometry
        if spot in self.village_names:
            return self.planks_at[g.index[spot]]
        ends = self.ends.get(spot)
        if ends is None:
            return ()
        out: list[str] = []
        for i in ends:
            if i < g.villages:
                out.append(g.sites[i].name)
            out.extend(p for p in self.planks_at[i] if p != spot)
        return tuple(out)

    def far_end(self, plank: str, near: str) -> int | None:
        """The support of ``plank`` away from ``near`` (a village or a plank meeting it at one support)."""
        g = self.geometry
        ends = self.ends[plank]
        if near in self.village_names:
            shared = {g.index[near]}
        else:
            shared = set(self.ends.get(near, ())) & set(ends)
        rest = [i for i in ends if i not in shared]
        return rest[0] if len(rest) == 1 else None


def board_geometry(variant: str, drops: tuple[Site, ...] = ()) -> Geometry:
    """The geometry of an edition's board: its islands, or in the challenge variant every stone dropped."""
    edition = EDITIONS[variant]
    rim = villages(edition.rim)
    if edition.islands:
        return geometry(rim, ISLANDS, VILLAGE_RADIUS, ISLAND_RADIUS)
    return geometry(rim, drops, VILLAGE_RADIUS, STONE_RADIUS)


_Key = tuple[tuple[Site, ...], tuple[Bridge, ...], tuple[Site, ...]]
_cache: dict[tuple[int, int, int, str], tuple[_Key, Layout]] = {}


def layout(state: MekongState) -> Layout:
    """The layout of ``state``'s board, shared by every state holding the same stone and plank tuples.

    Looked up first by the identity of those tuples (states derived from one
    another share them; the entry keeps them alive, so an identity cannot be
    reused while cached), then by value."""
    parts = (state.stones, state.bridges, state.drops)
    key = (id(state.stones), id(state.bridges), id(state.drops), state.variant)
    hit = _cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], parts, strict=True)):
        return hit[1]
    built = _layout(state.variant, *parts)
    if len(_cache) >= _CACHE_SIZE:
        _cache.clear()
    _cache[key] = (parts, built)
    return built


@lru_cache(maxsize=_CACHE_SIZE)
def _layout(variant: str, stones: tuple[Site, ...], bridges: tuple[Bridge, ...], drops: tuple[Site, ...]) -> Layout:
    return Layout(variant, stones, bridges, drops)
