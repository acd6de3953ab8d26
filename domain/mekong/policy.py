"""The planner's choice for each action card, and a quick way to play it out.

Each choice follows the cheapest route of ``routes``: stones go on the first
island of the route that lacks one, planks on the first span of the route with
both stones in place (with the smallest plank that reaches), the pawn moves
where the work left is least. Where the route needs nothing, the compulsory
action is done where it harms least. ``play_out`` applies a choice to a state
without the rules' bookkeeping, for searching programmes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from domain.kernel import Command, Event
from domain.mekong.board import ISLANDS, REACH
from domain.mekong.building import (
    bare_stones,
    drop_spots,
    plank_choices,
    stone_name,
    stone_spots,
    takeable_planks,
)
from domain.mekong.cards import PLANK_CARDS, STONE_CARDS, Card
from domain.mekong.commands import Jump, Move, PlacePlank, PlaceStone, PlaceStoneAt, RemovePlank, RemoveStone
from domain.mekong.events import (
    PawnFell,
    PawnJumped,
    PawnMoved,
    PlankLost,
    PlankPlaced,
    PlankTaken,
    StonePlaced,
    StoneRemoved,
)
from domain.mekong.evolve import evolve
from domain.mekong.layout import layout
from domain.mekong.pawns import fall_reason, jumps, move_paths
from domain.mekong.routes import field, missing_planks, route, route_start, work_to_go
from domain.mekong.state import MekongState, plank_colour, plank_size

_ISLAND_SITES = {s.name: s for s in ISLANDS}


def choose(state: MekongState, seat: int, card: Card, thorough: bool) -> Command | None:
    """The planner's command for ``card``, or None when the card leaves no choice."""
    if card in STONE_CARDS:
        return choose_stone(state, seat)
    if card in PLANK_CARDS:
        return choose_plank(state, seat, thorough)
    if card is Card.REMOVE:
        return choose_removal(state, seat, thorough)
    return choose_move(state, seat, card)


# ---------------------------------------------------------------- stones


def choose_stone(state: MekongState, seat: int) -> Command | None:
    if state.stone_reserve == 0:
        return None
    if not state.edition.islands:
        return _choose_drop(state, seat)
    free = stone_spots(state)
    if not free:
        return None
    lay = layout(state)
    names = lay.geometry.sites
    for _, node in route(state, seat):
        if names[node].name in free:
            return PlaceStone(names[node].name)
    f = field(state, seat)
    goal = _goal_point(state, seat)
    return PlaceStone(
        min(
            free,
            key=lambda i: (f.cost[lay.geometry.index[i]], math.dist((_ISLAND_SITES[i].x, _ISLAND_SITES[i].y), goal)),
        )
    )


def _goal_point(state: MekongState, seat: int) -> tuple[float, float]:
    g = layout(state).geometry
    return g.point(g.index[state.destination(seat)])


def _choose_drop(state: MekongState, seat: int) -> Command | None:
    """Challenge: drop the next stone from the route's last support straight toward the destination."""
    spots = drop_spots(state)
    if not spots:
        return None
    g = layout(state).geometry
    steps = route(state, seat)
    start = steps[-1][1] if steps else route_start(state, seat)
    origin = g.point(start if start is not None else g.index[state.colours[seat]])
    goal = _goal_point(state, seat)
    longest = max((plank_size(p) for p in state.reserves[seat]), default=1)
    reach = REACH[longest]
    near = [p for p in spots if math.dist(p, origin) <= reach]
    pool = near or spots
    x, y = min(pool, key=lambda p: (math.dist(p, goal) + 0.1 * math.dist(p, origin), p))
    return PlaceStoneAt(x, y)


# ---------------------------------------------------------------- planks


def choose_plank(state: MekongState, seat: int, thorough: bool) -> Command | None:
    options = plank_choices(state, seat)
    if not options:
        return None
    lay = layout(state)
    g = lay.geometry
    fits = [(p, e) for p, e in options if plank_size(p) >= lay.span(*e).need]
    if not fits:  # the plank named will be lost: name the smallest
        retry = state.task.retry
        plank = retry if retry is not None else min(state.reserves[seat], key=plank_size)
        ends = next((e for p, e in options if p == plank), options[0][1])
        return PlacePlank(plank, ends)
    by_span: dict[tuple[str, str], list[str]] = {}
    for plank, ends in fits:
        by_span.setdefault(ends, []).append(plank)
    for span, _ in route(state, seat):
        s = g.spans[span]
        ends = (g.sites[s.a].name, g.sites[s.b].name)
        if ends in by_span:
            return PlacePlank(min(by_span[ends], key=lambda p: (plank_size(p), p)), ends)
    if thorough:
        return min((PlacePlank(p, e) for p, e in fits), key=lambda c: (_after(state, seat, c), plank_size(c.plank)))
    on_route = {s for s, _ in route(state, seat)}
    clear = [(p, e) for p, e in fits if not any(g.clash(lay.span(*e).index) >> s & 1 for s in on_route)]
    plank, ends = min(clear or fits, key=lambda o: (plank_size(o[0]), o))
    return PlacePlank(plank, ends)


# ---------------------------------------------------------------- removal


def choose_removal(state: MekongState, seat: int, thorough: bool) -> Command | None:
    """Take what the route lacks (a plank of a missing size, a stone when none is left in
    reserve), else what the route does not use, another colour's plank first."""
    lay = layout(state)
    g = lay.geometry
    steps = route(state, seat)
    used_spans = {s for s, _ in steps}
    used_sites = {n for _, n in steps}
    options: list[Command] = [
        RemovePlank(p) for p in takeable_planks(state, seat) if g.span_between[lay.ends[p]].index not in used_spans
    ]
    options += [RemoveStone(s) for s in bare_stones(state) if g.index[s] not in used_sites]
    if not options:
        options = [RemovePlank(p) for p in takeable_planks(state, seat)] + [RemoveStone(s) for s in bare_stones(state)]
    if not options:
        return None
    colour = state.colours[seat]
    missing = missing_planks(state, seat)
    wants_stone = state.stone_reserve == 0 and any(not lay.present >> n & 1 for n in used_sites)

    def preference(c: Command) -> tuple[int, int, str]:
        if isinstance(c, RemovePlank):
            size = plank_size(c.plank)
            if missing and size >= missing[0]:
                return 0, size, c.plank
            return (3 if plank_colour(c.plank) != colour else 4), -size, c.plank
        stone = c.stone if isinstance(c, RemoveStone) else ""
        return (1 if wants_stone else 5), 0, stone

    if thorough:
        return min(options, key=lambda c: (_after(state, seat, c), preference(c)))
    return min(options, key=preference)


# ---------------------------------------------------------------- moves


def choose_move(state: MekongState, seat: int, card: Card) -> Command | None:
    if card is Card.JUMP:
        options: list[Command] = [Jump(o, t) for o, t in jumps(state, seat)]
    else:
        options = [Move(p) for p in move_paths(state, seat, card)]
    if not options:
        return None
    return min(options, key=lambda c: _after(state, seat, c))


# ---------------------------------------------------------------- playing out


def play_out(
    state: MekongState, seat: int, card: Card, chooser: Callable[[MekongState, int, Card], Command | None]
) -> MekongState:
    """``state`` after ``seat`` does ``card`` as ``chooser`` says (a search shortcut:
    no turn bookkeeping, a too-short plank is simply lost)."""
    for _ in range(card.count):
        command = chooser(state, seat, card)
        if command is None:
            if card in (Card.MOVE_1, Card.MOVE_2, Card.JUMP):
                return evolve(state, PawnFell(seat, card, fall_reason(card)))
            return state
        state = apply(state, seat, command)
    return state


def apply(state: MekongState, seat: int, command: Command) -> MekongState:
    for event in _events(state, seat, command):
        state = evolve(state, event)
    return state


def _events(state: MekongState, seat: int, command: Command) -> list[Event]:
    match command:
        case PlaceStone(island=island):
            site = _ISLAND_SITES[island]
            return [StonePlaced(seat, island, site.x, site.y)]
        case PlaceStoneAt(x=x, y=y):
            return [StonePlaced(seat, stone_name(state), x, y)]
        case PlacePlank(plank=plank, ends=ends):
            if plank_size(plank) >= layout(state).span(*ends).need:
                return [PlankPlaced(seat, plank, ends)]
            return [PlankLost(seat, plank)]
        case RemovePlank(plank=plank):
            return [PlankTaken(seat, plank)]
        case RemoveStone(stone=stone):
            return [StoneRemoved(seat, stone)]
        case Move(path=path):
            return [PawnMoved(seat, path)]
        case Jump(over=over, to=to):
            return [PawnJumped(seat, over, to)]
    raise TypeError(f"not an action command: {command!r}")


def _after(state: MekongState, seat: int, command: Command) -> float:
    return work_to_go(apply(state, seat, command), seat)


def sim_root(state: MekongState) -> MekongState:
    """A copy of ``state`` on which ``apply`` may fold events during a search."""
    return replace(state, acted=(False,) * state.seats)
