"""Where a pawn may go: moves of 1 and 2, jumps, and when it falls into the water.

A step goes from a village to a plank resting on it, or from a plank to a plank
sharing one of its supports or into a village it rests on. A plank with another
pawn on it is not free; a village always is (rulebook: "un village peut contenir
un nombre illimité de pions").
"""

from __future__ import annotations

from domain.mekong.cards import Card
from domain.mekong.layout import Layout, layout
from domain.mekong.state import MekongState


def is_plank(spot: str) -> bool:
    return "-" in spot


def taken_planks(state: MekongState, seat: int) -> frozenset[str]:
    """Planks on which another seat's pawn stands."""
    return frozenset(p for s, p in enumerate(state.pawns) if s != seat and p is not None and is_plank(p))


def _steps(lay: Layout, spot: str, taken: frozenset[str]) -> list[str]:
    return [n for n in lay.neighbours(spot) if n not in taken]


def move_paths(state: MekongState, seat: int, card: Card) -> list[tuple[str, ...]]:
    """The paths a Move 1 or Move 2 card allows, in a fixed order.

    Move 2 is two steps; a first step into the destination ends the game at
    once, so that path has one step. Coming back to the start is allowed in the
    River Dragons edition, and in the classic one only when nothing else is possible.
    """
    lay = layout(state)
    here = state.pawns[seat]
    if here is None:
        return []
    taken = taken_planks(state, seat)
    first = _steps(lay, here, taken)
    if card is Card.MOVE_1:
        return [(a,) for a in first]
    goal = state.destination(seat)
    onward: list[tuple[str, ...]] = []
    back: list[tuple[str, ...]] = []
    for a in first:
        if a == goal:
            onward.append((a,))
            continue
        for b in _steps(lay, a, taken):
            (back if b == here else onward).append((a, b))
    if state.edition.free_return:
        return onward + back
    return onward or back


def jumps(state: MekongState, seat: int) -> list[tuple[str, str]]:
    """The jumps allowed: over a pawn on a neighbouring plank, landing at that plank's far end
    on a free plank or in the village there (designed reading of "par dessus")."""
    lay = layout(state)
    here = state.pawns[seat]
    if here is None:
        return []
    taken = taken_planks(state, seat)
    g = lay.geometry
    out: list[tuple[str, str]] = []
    for over in lay.neighbours(here):
        if over not in taken:
            continue
        far = lay.far_end(over, here)
        if far is None:
            continue
        if far < g.villages:
            out.append((over, g.sites[far].name))
        out.extend((over, p) for p in lay.planks_at[far] if p != over and p not in taken)
    return out


def fall_reason(card: Card) -> str:
    if card is Card.JUMP:
        return "no pawn on a neighbouring plank with room to land beyond it"
    return "no free plank or village within reach"
