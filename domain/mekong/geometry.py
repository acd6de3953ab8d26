"""Where a plank may rest: the spans between supports, and which spans exclude each other.

A *span* is a pair of supports (two stones, or a village and a stone) no farther
apart than the longest plank reaches. Two spans *clash* when their planks would
cross, lie on one another, or touch anywhere but at a shared support (rulebook:
"En aucun cas, une planche ne peut croiser une autre planche"). A span *passes
over* a site when its segment comes within the site's radius, other than at its
own ends: a plank never rests on a third stone, and no stone goes under a plank.

A ``Geometry`` is computed once per set of sites and cached: once for each
island board, and in the challenge variant once per stone dropped. There it is
*extended* from the geometry before it (the stones dropped in a game form a
growing list): the new stone's spans are appended, and the parent's lookups
(spans by support, sites passed over) are copied and completed rather than
recomputed, so a drop costs what the new stone adds, not the whole board.
Clash masks are filled in lazily, span by span. A geometry is otherwise never
changed once built, and filling a clash mask twice on two threads stores the
same value, so geometries are safely shared between threads.
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

    __slots__ = (
        "_boxes",
        "_clash",
        "_parent",
        "_points",
        "index",
        "over",
        "radius",
        "sites",
        "span_between",
        "spans",
        "spans_at",
        "villages",
    )

    def __init__(
        self, sites: Sequence[Site], villages: int, radius: Sequence[float], parent: Geometry | None = None
    ) -> None:
        """The geometry of ``sites``; given ``parent``, the geometry of all sites but the last,
        only what the last site adds is computed (the rest is the parent's, extended)."""
        self.sites = tuple(sites)
        self.villages = villages
        self.radius = tuple(radius)
        self._parent = parent
        if parent is None:
            self._points = tuple((s.x, s.y) for s in self.sites)
            self.index = {s.name: i for i, s in enumerate(self.sites)}
            spans: list[Span] = []
            for j in range(villages, len(self.sites)):
                self._add_spans(spans, j)
            self._index_spans(spans, (), {}, [])
            self.over = tuple(self._sites_under(s) for s in spans)
        else:
            last = len(self.sites) - 1
            self._points = (*parent._points, (self.sites[last].x, self.sites[last].y))
            self.index = parent.index | {self.sites[last].name: last}
            spans = list(parent.spans)
            self._add_spans(spans, last)
            self._index_spans(spans, parent._boxes, parent.span_between, list(parent.spans_at))
            self.over = parent._over_with(last, self._points[last], self.radius[last]) + tuple(
                self._sites_under(s) for s in spans[len(parent.spans) :]
            )
        self._clash: list[int | None] = [None] * len(spans)

    def _add_spans(self, spans: list[Span], j: int) -> None:
        """Appends the spans from earlier sites to site ``j``."""
        here = self._points[j]
        for i in range(j):
            gap = math.dist(self._points[i], here)
            need = smallest_size(gap)
            if need is not None:
                spans.append(Span(len(spans), i, j, gap, need))

    def _index_spans(
        self,
        spans: list[Span],
        boxes: tuple[tuple[float, float, float, float], ...],
        between: dict[tuple[int, int], Span],
        at: list[tuple[int, ...]],
    ) -> None:
        """Sets ``spans`` and the lookups by support, given those of the spans before ``len(boxes)``."""
        new = spans[len(boxes) :]
        self.spans = tuple(spans)
        self.span_between = between | {(s.a, s.b): s for s in new} | {(s.b, s.a): s for s in new}
        at.extend(() for _ in range(len(self.sites) - len(at)))
        for s in new:  # in index order, so each support's spans stay sorted
            at[s.a] += (s.index,)
            at[s.b] += (s.index,)
        self.spans_at = tuple(at)
        self._boxes = boxes + tuple(_box(self._points[s.a], self._points[s.b]) for s in new)

    def _over_with(self, k: int, site: tuple[float, float], r: float) -> tuple[int, ...]:
        """``over`` of these spans once site ``k`` (an end of none of them) is added at ``site``."""
        over = list(self.over)
        x, y = site
        bit = 1 << k
        points, spans = self._points, self.spans
        for i, (x0, x1, y0, y1) in enumerate(self._boxes):
            if x0 - r < x < x1 + r and y0 - r < y < y1 + r:
                span = spans[i]
                if point_segment_distance(site, points[span.a], points[span.b]) < r:
                    over[i] |= bit
        return tuple(over)

    def point(self, i: int) -> tuple[float, float]:
        return self._points[i]

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
        """The sites (as a bit mask) that ``span`` passes over, its own ends aside."""
        mask = 0
        p, q = self._points[span.a], self._points[span.b]
        x0, x1, y0, y1 = self._boxes[span.index]
        for k, (site, r) in enumerate(zip(self._points, self.radius, strict=True)):
            if (
                k != span.a
                and k != span.b
                and x0 - r < site[0] < x1 + r
                and y0 - r < site[1] < y1 + r
                and point_segment_distance(site, p, q) < r
            ):
                mask |= 1 << k
        return mask

    def _clashes(self, span: Span, start: int = 0) -> int:
        """The clash mask of ``span`` against the spans from index ``start`` on."""
        mask = 1 << span.index
        points, spans = self._points, self.spans
        p, q = points[span.a], points[span.b]
        x0, x1, y0, y1 = self._boxes[span.index]
        x0, x1, y0, y1 = x0 - EPSILON, x1 + EPSILON, y0 - EPSILON, y1 + EPSILON
        for i in range(start, len(spans)):
            ox0, ox1, oy0, oy1 = self._boxes[i]
            if ox1 < x0 or ox0 > x1 or oy1 < y0 or oy0 > y1 or i == span.index:
                continue
            other = spans[i]
            if segments_clash(p, q, points[other.a], points[other.b]):
                mask |= 1 << i
        return mask


def _box(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float, float, float]:
    """The bounding box ``(x0, x1, y0, y1)`` of the segment ``pq``."""
    return min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])


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
def geometry(
    villages: tuple[Site, ...], others: tuple[Site, ...], village_radius: float, other_radius: float
) -> Geometry:
    """The geometry of ``villages`` then ``others``, cached. It is built from the geometry of
    ``others[:-1]`` (stones are added one at a time, the newest last), so each new stone only
    costs the spans it adds."""
    radius = [village_radius] * len(villages) + [other_radius] * len(others)
    parent = geometry(villages, others[:-1], village_radius, other_radius) if others else None
    return Geometry((*villages, *others), len(villages), radius, parent)
