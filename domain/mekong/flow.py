"""The automatic steps of a round, emitted by ``decide`` until a decision is awaited again.

Revealing a position, cancelling by dragons, losing an action that cannot be
done (with the reason), falling into the water, ending the round, and the
round limit: none of these asks anyone anything.
"""

from __future__ import annotations

from domain.kernel import Emitter, Event
from domain.mekong.building import bare_stones, drop_spots, stone_spots, takeable_planks
from domain.mekong.cards import PLANK_CARDS, PROGRAMME_LENGTH, STONE_CARDS, Card
from domain.mekong.events import (
    ActionCancelled,
    PawnFell,
    PlankActionLost,
    PositionRevealed,
    RemoveActionLost,
    RoundEnded,
    RoundLimitReached,
    StoneActionLost,
)
from domain.mekong.evolve import evolve
from domain.mekong.layout import layout
from domain.mekong.pawns import fall_reason, jumps, move_paths
from domain.mekong.state import MekongState, Phase
from domain.mekong.turns import all_programmed, cancellers, current_actor, next_first


class _Fold:
    """What ``Emitter`` needs: the game's ``evolve``."""

    evolve = staticmethod(evolve)


FOLD = _Fold()


def emitter(state: MekongState) -> Emitter[MekongState]:
    return Emitter(FOLD, state)


def revealed(state: MekongState, position: int) -> tuple[Card | None, ...]:
    """Every seat's card at ``position`` (None for a seat that left)."""
    return tuple(p[position - 1] if p and state.in_play(s) else None for s, p in enumerate(state.programmes))


def advance(out: Emitter[MekongState]) -> None:
    """Emits the automatic steps until a seat must decide or the game is over."""
    while True:
        state = out.state
        if state.phase is Phase.OVER or state.phase is Phase.SETUP:
            return
        if state.phase is Phase.PROGRAMMING:
            if not all_programmed(state):
                return
            out.emit(PositionRevealed(1, revealed(state, 1)))
            continue
        actor = current_actor(state)
        if actor is None:
            if state.position < PROGRAMME_LENGTH:
                out.emit(PositionRevealed(state.position + 1, revealed(state, state.position + 1)))
            else:
                out.emit(RoundEnded(state.round, next_first(state)))
                if state.round >= state.round_limit:
                    out.emit(RoundLimitReached(state.round))
            continue
        event = without_choice(state, actor)
        if event is None:
            return
        out.emit(event)


def without_choice(state: MekongState, seat: int) -> Event | None:
    """The event settling ``seat``'s card when it leaves no choice, else None (the seat decides)."""
    card = state.card(seat)
    assert card is not None
    if state.task.done == 0 and state.task.retry is None:
        by = cancellers(state, seat)
        if by:
            return ActionCancelled(seat, card, by)
    if card in STONE_CARDS:
        if state.stone_reserve == 0:
            return StoneActionLost(seat, card, "the stone reserve is empty")
        if state.edition.islands and not stone_spots(state):
            return StoneActionLost(seat, card, "no free island is left")
        if not state.edition.islands and not drop_spots(state):
            return StoneActionLost(seat, card, "no room is left in the water")
    elif card in PLANK_CARDS:
        if not state.reserves[seat]:
            return PlankActionLost(seat, card, "no plank in reserve")
        if not layout(state).open_spans():
            return PlankActionLost(seat, card, "no two supports can take another plank")
    elif card is Card.REMOVE:
        if not takeable_planks(state, seat) and not bare_stones(state):
            return RemoveActionLost(seat, card, "no plank or stone can be removed")
    elif card is Card.JUMP:
        if not jumps(state, seat):
            return PawnFell(seat, card, fall_reason(card))
    elif not move_paths(state, seat, card):
        return PawnFell(seat, card, fall_reason(card))
    return None
