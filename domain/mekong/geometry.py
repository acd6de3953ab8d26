"""Where a plank may rest: the spans between supports, and which spans exclude each other.

A *span* is a pair of supports (two stones, or a village and a stone) no farther
apart than the longest plank reaches. Two spans *clash* when their planks would
cross, lie on one another, or touch anywhere but at a shared support (rulebook:
"En aucun cas, une planche ne peut croiser une autre planche"). A span *passes
over* a site when its segment comes within the site's radius, other than at its
own ends: a plank never rests on a third stone, and no stone goes under a plank.

A ``Geometry`` is computed once per set of sites and cached: once for each
island board, and in the challenge variant once per stone dropped (from the
geometry before it, the stones dropped in a game forming a growing list).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from domain.mekong.board import Site, smallest_size

EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Span:
    """A place for a plank between sites ``a`` and ``b`` (indices into the geometry's sites)."""

    index: int
    a: int
    b: int
    gap: float
    """Distance between the two support centres."""
    need: int
    """The smallest plank size that spans the gap."""


class Geometry:
    """Sites (villages first, then islands or stones), their spans and the exclusions between spans."""

    __slots__ = ("_clash", "_parent", "index", "over", "radius", "sites", "span_between", "spans", "spans_at",
                 "villages")

    def __init__(self, sites: Sequence[Site], villages: int, radius: Sequence[float],
                 parent: Geometry | None = None) -> None:
        """The geometry of ``sites``; given ``parent``, the geometry of all sites but the last,
        only what the last site adds is computed."""
        self.sites = tuple(sites)
        self.villages = villages
        self.radius = tuple(radius)
        self.index = {s.name: i for i, s in enumerate(self.sites)}
        known = parent.spans if parent is not None else ()
        spans = list(known)
        for j in range(len(self.sites) - 1 if known else villages, len(self.sites)):
            for i in range(j):
                gap = math.dist((self.sites[i].x, self.sites[i].y), (self.sites[j].x, self.sites[j].y))
                need = smallest_size(gap)
                if need is not None:
                    spans.append(Span(len(spans), i, j, gap, need))
        self.spans = tuple(spans)
        self.span_between = {(s.a, s.b): s for s in spans} | {(s.b, s.a): s for s in spans}
        self.spans_at = tuple(tuple(s.index for s in spans if i in (s.a, s.b)) for i in range(len(self.sites)))
        if parent is None:
            self.over = tuple(self._sites_under(s) for s in spans)
        else:
            last = len(self.sites) - 1
            self.over = tuple(
                parent.over[s.index] | self._site_under(last, s) << last if s.index < len(known)
                else self._sites_under(s)
                for s in spans
            )
        self._clash: list[int | None] = [None] * len(spans)
        self._parent = parent

    def point(self, i: int) -> tuple[float, float]:
        return self.sites[i].x, self.sites[i].y

    def clash(self, span: int) -> int:
        """The spans (as a bit mask of indices) that may not hold a plank while ``span`` does, itself included."""
        mask = self._clash[span]
        if mask is None:
            parent = self._parent
            if parent is not None and span < len(parent.spans):
                mask = parent.clash(span) | self._clashes(self.spans[span], len(parent.spans))
            else:
                mask = self._clashes(self.spans[span])
            self._clash[span] = mask
        return mask

    def _sites_under(self, span: Span) -> int:
        mask = 0
        for k in range(len(self.sites)):
            mask |= self._site_under(k, span) << k
        return mask

    def _site_under(self, k: int, span: Span) -> int:
        """1 if site ``k`` (not an end of ``span``) lies under it, else 0."""
        if k in (span.a, span.b):
            return 0
        p, q = self.point(span.a), self.point(span.b)
        site, r = self.sites[k], self.radius[k]
        inside_x = min(p[0], q[0]) - r < site.x < max(p[0], q[0]) + r
        if not (inside_x and min(p[1], q[1]) - r < site.y < max(p[1], q[1]) + r):
            return 0
        return int(point_segment_distance((site.x, site.y), p, q) < r)

    def _clashes(self, span: Span, start: int = 0) -> int:
        """The clash mask of ``span`` against the spans from index ``start`` on."""
        mask = 1 << span.index
        p, q = self.point(span.a), self.point(span.b)
        x0, x1, y0, y1 = min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])
        for other in self.spans[start:]:
            r, s = self.point(other.a), self.point(other.b)
            if (max(r[0], s[0]) < x0 - EPSILON or min(r[0], s[0]) > x1 + EPSILON
                    or max(r[1], s[1]) < y0 - EPSILON or min(r[1], s[1]) > y1 + EPSILON):
                continue
            if other.index != span.index and segments_clash(p, q, r, s):
                mask |= 1 << other.index
        return mask


def point_segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from point ``p`` to the segment ``ab``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_clash(
    p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]
) -> bool:
    """Whether planks ``pq`` and ``rs`` would cross or lie on one another.

    Planks sharing one support meet there and do not clash, unless they leave it
    in the same direction (one would lie on the other).
    """
    shared = [x for x in (p, q) for y in (r, s) if math.dist(x, y) < EPSILON]
    if shared:
        if len(shared) > 1:
            return True
        hub = shared[0]
        u = q if p == hub else p
        v = s if r == hub else r
        cross = _orient(hub, u, v)
        dot = (u[0] - hub[0]) * (v[0] - hub[0]) + (u[1] - hub[1]) * (v[1] - hub[1])
        return abs(cross) <= EPSILON * max(1.0, dot) and dot > 0
    d1, d2 = _orient(r, s, p), _orient(r, s, q)
    d3, d4 = _orient(p, q, r), _orient(p, q, s)
    if ((d1 > EPSILON and d2 < -EPSILON) or (d1 < -EPSILON and d2 > EPSILON)) and (
        (d3 > EPSILON and d4 < -EPSILON) or (d3 < -EPSILON and d4 > EPSILON)
    ):
        return True
    return any(
        abs(d) <= EPSILON and _within(x, a, b)
        for d, x, a, b in ((d1, p, r, s), (d2, q, r, s), (d3, r, p, q), (d4, s, p, q))
    )


def _within(x: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    return min(a[0], b[0]) - EPSILON <= x[0] <= max(a[0], b[0]) + EPSILON and (
        min(a[1], b[1]) - EPSILON <= x[1] <= max(a[1], b[1]) + EPSILON
    )


@lru_cache(maxsize=1024)
def geometry(villages: tuple[Site, ...], others: tuple[Site, ...], village_radius: float,
             other_radius: float) -> Geometry:
    """The geometry of ``villages`` then ``others``, cached. It is built from the geometry of
    ``others[:-1]`` (stones are added one at a time, the newest last), so each new stone only
    costs the spans it adds."""
    radius = [village_radius] * len(villages) + [other_radius] * len(others)
    parent = geometry(villages, others[:-1], village_radius, other_radius) if others else None
    return Geometry((*villages, *others), len(villages), radius, parent)
