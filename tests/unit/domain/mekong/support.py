"""Builders for Mekong test positions: a table, a board, programmes, a position being resolved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.kernel import Command, Event, Rng
from domain.mekong import RULESET
from domain.mekong.board import ISLANDS, Site
from domain.mekong.cards import Card
from domain.mekong.events import FirstPlayerDrawn
from domain.mekong.flow import advance, emitter
from domain.mekong.layout import layout
from domain.mekong.state import Bridge, MekongState, Phase, plank_colour, plank_size, stone_order

ISLAND = {s.name: s for s in ISLANDS}
RNG = Rng(b"mekong-tests", "v0")

# Cards that do nothing to the board when nothing is possible (a pawn in its village with no plank).
C = Card


def table(variant: str = "river-dragons", seats: int = 2, first: int = 0, round_limit: int = 30) -> MekongState:
    """A fresh game, first player chosen, everyone about to program."""
    config = RULESET.configure(variant, {"round_limit": round_limit}, seats)
    return RULESET.evolve(RULESET.initial(config), FirstPlayerDrawn(first))


def seat_of(state: MekongState, colour: str) -> int:
    return state.colours.index(colour)


def board(
    state: MekongState,
    stones: tuple[str, ...] | None = None,
    planks: tuple[tuple[str, str, str], ...] = (),
    pawns: dict[str, str] | None = None,
    reserves: dict[str, tuple[str, ...]] | None = None,
) -> MekongState:
    """``state`` with stones on the named islands (if given), planks ``(plank, support, support)`` on the board
    (taken from their colour's reserve when that colour plays), pawns by colour at spots, and reserves by colour."""
    if stones is not None:
        sites = tuple(sorted((ISLAND[name] for name in stones), key=stone_order))
        state = replace(state, stones=sites, stone_reserve=27 - len(sites))
    lay = layout(state)
    bridges = tuple(sorted((Bridge(p, lay.ordered(a, b)) for p, a, b in planks), key=lambda b: b.plank))
    _check_planks(state, bridges)
    placed = {p for p, _, _ in planks}
    reserves_now = [tuple(p for p in r if p not in placed) for r in state.reserves]
    for colour, planks_held in (reserves or {}).items():
        reserves_now[seat_of(state, colour)] = tuple(sorted(planks_held))
    spots = list(state.pawns)
    for colour, spot in (pawns or {}).items():
        spots[seat_of(state, colour)] = spot
    return replace(state, bridges=bridges, reserves=tuple(reserves_now), pawns=tuple(spots))


def _check_planks(state: MekongState, bridges: tuple[Bridge, ...]) -> None:
    """Fails loudly when a test sets planks where the rules could never have put them."""
    lay = layout(state)
    for n, b in enumerate(bridges):
        fault = lay.span_fault(*b.ends)
        assert fault is None, f"{b.plank} on {b.ends}: {fault[0]}"
        assert plank_size(b.plank) >= lay.span(*b.ends).need, f"{b.plank} does not reach {b.ends}"
        lay = layout(replace(state, bridges=bridges[: n + 1]))


def dropped(state: MekongState, *points: tuple[float, float]) -> MekongState:
    """Challenge: ``state`` with stones s1, s2, ... dropped at ``points``."""
    sites = tuple(Site(f"s{i}", x, y) for i, (x, y) in enumerate(points, start=1))
    return replace(state, stones=sites, drops=sites, stone_reserve=27 - len(sites))


def at_position(
    state: MekongState, position: int, programmes: dict[str, tuple[Card, ...]]
) -> tuple[MekongState, list[Event]]:
    """Reveals ``position`` with the given programmes (by colour) and runs the automatic steps.

    Returns the state awaiting the first decision (or after the position, if none is needed) and the events."""
    progs: list[tuple[Card, ...]] = [()] * state.seats
    for colour, cards in programmes.items():
        progs[seat_of(state, colour)] = cards
    ready = replace(
        state, programmes=tuple(progs), phase=Phase.RESOLUTION, position=position - 1, acted=(True,) * state.seats
    )
    out = emitter(ready)
    advance(out)
    return out.state, out.events


def play(state: MekongState, seat: int, command: Command) -> tuple[MekongState, list[Event]]:
    events = RULESET.decide(state, seat, command, RNG)
    return RULESET.fold(state, events), events


FILLERS = (C.PLACE_STONE, C.PLACE_2_STONES, C.PLACE_PLANK, C.PLACE_2_PLANKS, C.REMOVE, C.MOVE_1, C.MOVE_2, C.JUMP)


def slot(position: int, card: Card) -> tuple[Card, ...]:
    """A legal programme with ``card`` at ``position`` (1 to 5) and other actions elsewhere."""
    rest = [c for c in FILLERS if c is not card][:4]
    rest.insert(position - 1, card)
    return tuple(rest)


def names(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def of_type(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def colours_of(planks: tuple[str, ...]) -> set[str]:
    return {plank_colour(p) for p in planks}
