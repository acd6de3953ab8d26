"""Whose turn it is: programming, then position by position clockwise from the first player."""

from __future__ import annotations

from domain.mekong.cards import dragon_of
from domain.mekong.state import MekongState, Phase


def all_programmed(state: MekongState) -> bool:
    return all(state.programmes[s] for s in range(state.seats) if state.in_play(s))


def current_actor(state: MekongState) -> int | None:
    """The seat whose card is being carried out, or None when the position is done.

    Seats that left and seats that revealed a dragon have nothing to do (a
    dragon's work is to cancel).
    """
    if state.phase is not Phase.RESOLUTION:
        return None
    for seat in state.turn_order():
        if not state.acted[seat]:
            card = state.card(seat)
            if card is not None and card.dragon is None:
                return seat
    return None


def cancellers(state: MekongState, seat: int) -> tuple[int, ...]:
    """Seats whose card at this position is the dragon of ``seat``'s colour.

    Dragons never cancel dragons, so several may apply at one position.
    """
    dragon = dragon_of(state.colours[seat])
    return tuple(o for o in range(state.seats) if o != seat and state.card(o) is dragon)


def next_first(state: MekongState) -> int:
    """The seat to the left of the first player (the next in clockwise order), skipping those who left."""
    n = state.seats
    for k in range(1, n + 1):
        seat = (state.first + k) % n
        if state.in_play(seat):
            return seat
    return state.first
