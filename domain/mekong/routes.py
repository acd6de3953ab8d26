"""The planner's heuristic: how much work a pawn still needs to reach its destination.

The work of a route is counted in action units: a stone to place, a plank to
place, a step to walk (each 1). ``field`` runs Dijkstra backwards from the
destination over the supports of the board (villages, stones, and on island
boards the free islands, which cost a stone). Built planks cost a step; open
spans cost a plank and a step, and a little more the longer they are (a seat
holds one plank of each size, so long spans are scarce). In the challenge
variant, where stones may go anywhere, a support also gets the cost of
bridging the straight gap to the destination.

Then the planks the route still needs are matched with the reserve, longest
need first: each need no plank of the reserve can meet costs one more action
(a plank must first be taken from the board).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from domain.mekong.board import REACH
from domain.mekong.layout import MAX_LOAD, Layout, layout
from domain.mekong.pawns import is_plank
from domain.mekong.state import MekongState, plank_size

STEP = 1.0
STONE = 1.0
PLANK = 1.0
NEED_BIAS = 0.15
"""Designed: extra cost per plank size a span needs (long planks are scarce)."""
TAKE = 1.0
"""The cost of a plank the reserve lacks, or of a stone when the common reserve is empty:
one removal to take it from the board first."""
CROWDED = 1.0
"""Designed: extra cost of walking onto a plank another pawn stands on."""
NO_ROUTE = 60.0
"""Designed: the cost of a pawn with no route at all (plus a tenth of its distance to go)."""
GAP_REACH = REACH[5]
"""Designed: the gap one plank is assumed to bridge when stones may go anywhere (challenge)."""


@dataclass(frozen=True, slots=True)
class Field:
    """Work still needed from each support to the destination; ``toward[i]`` is the next support."""

    cost: tuple[float, ...]
    toward: tuple[int, ...]
    via: tuple[int, ...]
    """The span taken from each support toward the destination (-1 at the end)."""


def field(state: MekongState, seat: int) -> Field:
    """The work-to-go field of ``seat`` (cached per board, destination and other pawns)."""
    lay = layout(state)
    crowded = frozenset(p for s, p in enumerate(state.pawns) if s != seat and p is not None and is_plank(p))
    stone = STONE + (TAKE if state.stone_reserve == 0 else 0.0)
    key = ("field", state.destination(seat), crowded, stone)
    found = lay.memo.get(key)
    if found is None:
        found = lay.memo[key] = _dijkstra(state, lay, state.destination(seat), crowded, stone)
    return found


def _gap_cost(gap: float) -> float:
    """Work to bridge a straight gap with new stones and planks (challenge boards)."""
    if gap <= 1e-9:
        return 0.0
    spans = math.ceil(gap / GAP_REACH)
    return spans * (PLANK + STEP) + (spans - 1) * STONE


def _dijkstra(state: MekongState, lay: Layout, goal: str, crowded: frozenset[str], stone: float) -> Field:
    g = lay.geometry
    n = len(g.sites)
    islands = state.edition.islands
    present, covered, blocked, load = lay.present, lay.covered, lay.blocked, lay.load
    stone_cost = [0.0 if present >> i & 1 else stone for i in range(n)]
    usable = [bool(present >> i & 1) or (islands and not covered >> i & 1) for i in range(n)]
    built = {g.span_between[ends].index: plank for plank, ends in lay.ends.items()}
    cost = [math.inf] * n
    toward = [-1] * n
    via = [-1] * n
    target = g.index[goal]
    heap: list[tuple[float, int]] = []
    if islands:
        cost[target] = 0.0
        heap.append((0.0, target))
    else:
        gx, gy = g.point(target)
        for i in range(n):
            if present >> i & 1:
                cost[i] = _gap_cost(math.dist(g.point(i), (gx, gy)))
                heap.append((cost[i], i))
        heapq.heapify(heap)
    while heap:
        d, u = heapq.heappop(heap)
        if d > cost[u]:
            continue
        extra = d + stone_cost[u]
        for s in g.spans_at[u]:
            span = g.spans[s]
            w = span.b if span.a == u else span.a
            if not usable[w]:
                continue
            plank = built.get(s)
            if plank is not None:
                step = STEP + (CROWDED if plank in crowded else 0.0)
            elif blocked >> s & 1 or load[u] >= MAX_LOAD or load[w] >= MAX_LOAD or g.over[s] & present:
                continue
            else:
                step = PLANK + STEP + NEED_BIAS * span.need
            nd = extra + step
            if nd < cost[w]:
                cost[w], toward[w], via[w] = nd, u, s
                heapq.heappush(heap, (nd, w))
    return Field(tuple(cost), tuple(toward), tuple(via))


def work_to_go(state: MekongState, seat: int) -> float:
    """The heuristic value of ``seat``'s position: 0 at the destination, lower is better."""
    spot = state.pawns[seat]
    if spot is None:
        return math.inf
    goal = state.destination(seat)
    if spot == goal:
        return 0.0
    f = field(state, seat)
    lay = layout(state)
    best = min(f.cost[i] for i in _footing(lay, spot))
    if math.isinf(best):
        target = lay.geometry.point(lay.geometry.index[goal])
        return NO_ROUTE + min(math.dist(lay.geometry.point(i), target) for i in _footing(lay, spot)) / 10
    return best + STEP + TAKE * len(missing_planks(state, seat))


def missing_planks(state: MekongState, seat: int) -> list[int]:
    """The plank sizes the route needs that the reserve cannot provide (longest need first)."""
    lay = layout(state)
    built = {lay.geometry.span_between[e].index for e in lay.ends.values()}
    needs = sorted((lay.geometry.spans[s].need for s, _ in route(state, seat) if s not in built), reverse=True)
    sizes = sorted(plank_size(p) for p in state.reserves[seat])
    missing = []
    for need in needs:
        fit = next((size for size in sizes if size >= need), None)
        if fit is None:
            missing.append(need)
        else:
            sizes.remove(fit)
    return missing


def _footing(lay: Layout, spot: str) -> tuple[int, ...]:
    """The supports a pawn can go on from: its village, or both ends of its plank."""
    if is_plank(spot):
        return lay.ends[spot]
    return (lay.geometry.index[spot],)


def route(state: MekongState, seat: int) -> list[tuple[int, int]]:
    """The cheapest route from ``seat``'s pawn toward its destination, as (span, support reached) pairs.

    On a challenge board the route may stop short of the destination, at the
    support from which the open water is to be bridged."""
    spot = state.pawns[seat]
    if spot is None or spot == state.destination(seat):
        return []
    f = field(state, seat)
    lay = layout(state)
    here = min(_footing(lay, spot), key=lambda i: f.cost[i])
    out: list[tuple[int, int]] = []
    while f.via[here] >= 0 and len(out) < len(f.cost):
        out.append((f.via[here], f.toward[here]))
        here = f.toward[here]
    return out


def route_start(state: MekongState, seat: int) -> int | None:
    """The support the route of ``seat`` leaves from (its village, or the better end of its plank)."""
    spot = state.pawns[seat]
    if spot is None:
        return None
    f = field(state, seat)
    return min(_footing(layout(state), spot), key=lambda i: f.cost[i])
