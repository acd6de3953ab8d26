"""A seat that leaves, a seat that times out, and what a seat cannot see.

**Leaving (designed).** The seat is out for good. Its tiles outside its lair
(its base, and a tile won with six still waiting for a row) are removed from
the game, and its eggs return to the supply; its lair stays, out of play.
Removing the base tiles is the fairest choice: left stealable, they would go
to whoever next rolls their symbol (luck of the seating order, not play), and
they would never enter a lair, so the game could not end. Returning the eggs
keeps them available to the victims of thefts. If it was the seat's turn, the
turn ends and the next seat plays. With one seat left the game ends; leavers
rank last, the first to leave lowest.

**Skipping.** A timed-out seat loses what the rules let it lose: after a roll
it has set dice aside from, it stops rolling; when taking tiles, it ends the
turn, taking nothing more and making no egg move. Compulsory choices (the
2-player removal, a lair row, the first set-aside of a roll) cannot be lost:
``skip`` returns None for them.

**Observing.** Nothing is hidden but the order of the pile (and the dice not
yet rolled, which no state holds): every seat sees the middle, the bases, the
lairs, the removed tiles, the eggs and the dice, so it knows which tiles the
pile holds, never in what order. ``observe`` therefore deals the pile's tiles
again from a canonical order (sorted), never from the true one, so that the
observation is a function of what the seat knows (platform decision 2).
"""

from __future__ import annotations

import random
from dataclasses import replace

from domain.kernel import LEAVING, Emitter, Event, Evolves, GameOver, IllegalMove, Rng
from domain.kernel.rules import GAME_ENDED
from domain.tarasque.advance import advance
from domain.tarasque.events import RollingStopped, SeatLeft, TurnEnded
from domain.tarasque.state import Phase, TarasqueState


def leave(ruleset: Evolves[TarasqueState], state: TarasqueState, seat: int, rng: Rng) -> list[Event]:
    """The events of ``seat`` leaving the game, then the automatic steps."""
    if state.turn.phase is Phase.OVER:
        raise GameOver(f"seat {seat} cannot leave: the game is over", GAME_ENDED)
    if not 0 <= seat < state.seats or seat in state.left:
        raise IllegalMove(f"seat {seat} is not playing", LEAVING)
    removed = tuple(t for side in state.board.bases[seat] for t in side)
    pending = state.turn.pending
    if seat == state.turn.seat and pending is not None:
        removed = (*removed, pending)
    out = Emitter(ruleset, state)
    out.emit(SeatLeft(seat, removed, state.board.eggs[seat]))
    advance(out, rng)
    return out.events


def skip(ruleset: Evolves[TarasqueState], state: TarasqueState, seat: int, rng: Rng) -> list[Event] | None:
    """The events of ``seat`` losing its pending decision, or None if it is compulsory."""
    turn = state.turn
    if seat != turn.seat or seat in state.left:
        return None
    if turn.phase is Phase.CONTINUE:
        event: Event = RollingStopped(seat)
    elif turn.phase is Phase.TAKE:
        event = TurnEnded(seat)
    else:
        return None
    out = Emitter(ruleset, state)
    out.emit(event)
    advance(out, rng)
    return out.events


def observe(state: TarasqueState, seat: int, rng: random.Random) -> TarasqueState:
    """``state`` with the pile reshuffled from its sorted tiles: what any seat may know of it.

    Shuffling the true order instead would make the observation depend on it: for the
    same generator, two piles in different orders would come out different.
    """
    pile = sorted(state.board.pile)
    if len(pile) < 2:
        return state
    rng.shuffle(pile)
    return replace(state, board=replace(state.board, pile=tuple(pile)))
