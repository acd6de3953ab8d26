"""view(): the only code that decides what a viewer sees of a state.

Everything on the table is public: the board, the reserves, the pawns and the
revealed cards. A seat's programmed cards are face down until their position
is revealed: others see only that 5 cards are placed. A seat's hand (the cards
it owns, played or not) is public, as it follows from the colours in play.
``Viewer.everyone()`` sees them all.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from domain.mekong.board import (
    BOARD_RADIUS,
    ISLAND_RADIUS,
    ISLANDS,
    REACH,
    STONE_RADIUS,
    VILLAGE_RADIUS,
    villages,
)
from domain.mekong.decide import awaiting
from domain.mekong.state import MekongState, Phase, plank_colour, plank_size
from domain.mekong.turns import current_actor


def revealed_count(state: MekongState) -> int:
    """How many cards of each programme are face up."""
    return state.position if state.phase in (Phase.RESOLUTION, Phase.OVER) else 0


def view(state: MekongState, viewer: Viewer) -> dict[str, Any]:
    """The table as ``viewer`` may see it (JSON-native)."""
    actor = current_actor(state)
    card = state.card(actor) if actor is not None else None
    return {
        "variant": state.variant,
        "phase": state.phase.value,
        "round": state.round,
        "round_limit": state.round_limit,
        "first": state.first,
        "position": state.position,
        "awaiting": list(awaiting(state)),
        "card": None if card is None else card.value,
        "task": {"done": state.task.done, "retry": state.task.retry, "tried": [list(t) for t in state.task.tried]},
        "seats": [_seat(state, s, viewer) for s in range(state.seats)],
        "board": board_view(state),
        "stones": [{"name": s.name, "x": s.x, "y": s.y} for s in state.stones],
        "stone_reserve": state.stone_reserve,
        "planks": [
            {"plank": b.plank, "colour": plank_colour(b.plank), "size": plank_size(b.plank), "ends": list(b.ends)}
            for b in state.bridges
        ],
        "lost": list(state.lost),
        "winner": state.winner,
        "ending": state.ending,
    }


def _seat(state: MekongState, seat: int, viewer: Viewer) -> dict[str, Any]:
    programme = state.programmes[seat] if state.programmes else ()
    shown = len(programme) if viewer.sees(seat) else revealed_count(state)
    return {
        "colour": state.colours[seat],
        "start": state.start(seat),
        "destination": state.destination(seat),
        "pawn": state.pawns[seat] if state.pawns else None,
        "reserve": list(state.reserves[seat]) if state.reserves else [],
        "left": not state.in_play(seat),
        "hand": [c.value for c in state.hand(seat)],
        "programmed": len(programme),
        "programme": [c.value if i < shown else None for i, c in enumerate(programme)],
    }


def board_view(state: MekongState) -> dict[str, Any]:
    """The fixed board: water, villages and islands (none in the challenge variant), sizes and reach."""
    return {
        "radius": BOARD_RADIUS,
        "village_radius": VILLAGE_RADIUS,
        "island_radius": ISLAND_RADIUS,
        "stone_radius": STONE_RADIUS,
        "villages": [{"name": v.name, "x": v.x, "y": v.y} for v in villages(state.edition.rim)],
        "islands": [{"name": i.name, "x": i.x, "y": i.y} for i in ISLANDS] if state.edition.islands else [],
        "reach": {str(size): reach for size, reach in REACH.items()},
    }
