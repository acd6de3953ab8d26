"""The automatic steps: what happens without a decision, until one is awaited again.

``decide``, ``setup``, ``leave`` and ``skip`` call ``advance`` after their own
events. It starts turns, refills the middle, makes the forced choice (a lair
row when only a new row fits),
rolls the first roll of a turn, ends rolling when no die is valid or none is
left, ends a turn when nothing can be done, and ends the game.
"""

from __future__ import annotations

from domain.kernel import Emitter, Event, Rng
from domain.tarasque import lair
from domain.tarasque.events import (
    DiceRolled,
    GameEnded,
    MiddleRefilled,
    RollingEnded,
    TileStored,
    TurnEnded,
    TurnStarted,
)
from domain.tarasque.queries import (
    can_move_in_lair,
    can_take,
    has_valid_die,
    middle_size,
    scores,
    settled,
    staying,
    tile_to_store,
)
from domain.tarasque.state import Phase, TarasqueState

LAST_TILE = "the last tile entered a lair"
LAST_SEAT = "one seat left"


def advance(out: Emitter[TarasqueState], rng: Rng) -> None:
    """Emits the automatic steps until a decision is awaited or the game is over."""
    while True:
        event = _automatic(out.state, rng)
        if event is None:
            return
        out.emit(event)


def _automatic(state: TarasqueState, rng: Rng) -> Event | None:
    """The next automatic event, or None when a decision is awaited (or the game is over)."""
    turn = state.turn
    phase = turn.phase
    if phase is Phase.OVER:
        return None
    if state.seats - len(state.left) <= 1:
        return GameEnded(scores(state), LAST_SEAT)
    if settled(state):
        return GameEnded(scores(state), LAST_TILE)
    seat = turn.seat
    if phase is Phase.NEXT:
        return next_turn(state)
    if phase is Phase.REFILL:
        board = state.board
        return MiddleRefilled(board.pile[: middle_size(state) - len(board.middle)])
    if phase is Phase.STORE or phase is Phase.PLACE:
        tile = tile_to_store(state)
        assert tile is not None
        mine = state.board.lairs[seat]
        return None if lair.compatible_rows(mine, tile, state.deck) else TileStored(seat, tile, len(mine))
    if phase is Phase.ROLL:
        return DiceRolled(seat, rng.roll(state.deck.faces, turn.dice))
    if phase is Phase.SELECT:
        return None if has_valid_die(state) else RollingEnded(seat, "no valid die")
    if phase is Phase.CONTINUE:
        return None if turn.dice else RollingEnded(seat, "no dice left")
    if phase is Phase.TAKE:
        return None if can_take(state) or can_move_in_lair(state) else TurnEnded(seat)
    if phase is Phase.REMOVE:
        return None  # 2 players: a choice among 4 tiles, always the player's (``removal_due``)
    raise AssertionError(f"no automatic step from phase {phase}")


def next_turn(state: TarasqueState) -> TurnStarted:
    """The next turn: the same seat again after six dice won a tile, else the next seat still playing.

    A round ends when play wraps around to a lower seat; seat 0 (or the first
    seat still playing) starts the first round.
    """
    turn = state.turn
    if turn.round == 0:
        return TurnStarted(staying(state)[0], 1, False)
    if turn.extra and turn.seat not in state.left:
        return TurnStarted(turn.seat, turn.round, True)
    n = state.seats
    nxt = next((turn.seat + k) % n for k in range(1, n + 1) if (turn.seat + k) % n not in state.left)
    return TurnStarted(nxt, turn.round + (nxt <= turn.seat), False)
