"""``decide`` and the automatic steps: what a command causes, until a decision is awaited.

A turn: the active player has drawn (automatically, when the turn started) and
plays one card. Then the win check runs for every player, and the next turn
starts: the next seat in order draws one card, or, once the deck is empty, the
next seat still holding cards plays without drawing. When every hand and the
deck are empty, the groups closest to the target win.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Command, Emitter, Event, GameOver, IllegalMove, NotYourTurn, Rng
from domain.kernel.rules import GAME_ENDED, JOINING, LEAVING, TURN_ORDER
from domain.seven_dragons import events as ev
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import ACTION_OF, ACTIONS, COLOURS, DRAGONS, RAINBOW, oriented
from domain.seven_dragons.checks import board, check
from domain.seven_dragons.commands import (
    Discard,
    DiscardAction,
    MoveCard,
    PlaceDragon,
    RotateGoals,
    SetAside,
    TradeGoals,
    TradeHands,
    ZapCard,
)
from domain.seven_dragons.evolve import evolve
from domain.seven_dragons.state import Phase, SevenDragonsState

State = SevenDragonsState
_INDEX = {c: i for i, c in enumerate(COLOURS)}
HAND_SIZE = 3
MAX_PLAYERS = 5


class _Fold:
    """What ``Emitter`` needs: the ruleset's ``evolve``."""

    evolve = staticmethod(evolve)


def setup(state: State, rng: Rng) -> list[Event]:
    """Goals dealt, the layout started, the deck shuffled, 3 cards each, and seat 0's first turn.

    Without the Silver Dragon the first card turned up starts the layout; designed: it is drawn at
    random from the dragons before the deck is shuffled, so that nothing about the deck's order shows.
    """
    out = Emitter(_Fold, state)
    table = state.table
    if table.goals:
        goals = rng.shuffle(COLOURS)
        for seat in range(state.seats):
            out.emit(ev.GoalDealt(seat, goals[seat]))
        if state.seats < len(goals):
            out.emit(ev.UnusedGoalsLaidAside(goals[state.seats :]))
    dragons = [c for c in DRAGONS if table.rainbow or c != RAINBOW]
    if table.silver:
        out.emit(ev.SilverDragonPlaced())
    else:
        first = rng.choice(dragons)
        dragons.remove(first)
        out.emit(ev.FirstCardTurnedUp(first))
    actions = [c for c in ACTIONS if ACTION_OF[c] in table.actions]
    out.emit(ev.DeckShuffled(rng.shuffle(dragons + actions)))
    if not table.turn_up:
        for seat in range(state.seats):
            out.emit(ev.CardsDealt(seat, out.state.deck[:HAND_SIZE]))
    _start_turn(out, 0)
    return out.events


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """The events of ``seat`` playing ``command``, then the win check and the next turn."""
    if state.over:
        raise GameOver(f"{command}: the game is over", GAME_ENDED)
    if state.phase is not Phase.PLAY or seat != state.turn:
        raise NotYourTurn(f"{command}: it is seat {state.turn}'s turn, not seat {seat}'s", TURN_ORDER)
    check(state, seat, command)
    out = Emitter(_Fold, state)
    _PLAY[type(command)](out, seat, command)
    if not _check_win(out, seat):
        _next_turn(out, seat)
    return out.events


# ------------------------------------------------------------------ playing a card


def _place(out: Emitter[State], seat: int, command: PlaceDragon) -> None:
    """The dragon joins the layout; connecting k distinct non-wild colours draws k-1 cards.

    Designed: Dragon connections draws no bonus, as nobody holds a hand there.
    """
    state = out.state
    own = oriented(command.card, command.orientation)
    colours = board(state).bonus(own, (command.x, command.y))
    out.emit(ev.DragonPlaced(seat, command.card, command.x, command.y, command.orientation))
    draws = min(colours - 1, len(state.deck)) if not state.table.turn_up else 0
    if draws > 0:
        out.emit(ev.BonusDrawn(seat, state.deck[:draws]))


def _set_aside(out: Emitter[State], seat: int, command: SetAside) -> None:
    out.emit(ev.CardSetAside(seat, command.card))


def _discard_action(out: Emitter[State], seat: int, command: DiscardAction) -> None:
    out.emit(ev.ActionPlayed(seat, command.card))
    out.emit(ev.ActionDiscarded(seat, command.card, Discard.TOP, False))


def _trade_hands(out: Emitter[State], seat: int, command: TradeHands) -> None:
    """The whole hand, the card just drawn included, goes to the other player."""
    out.emit(ev.ActionPlayed(seat, command.card))
    hands = out.state.hands
    out.emit(ev.HandsTraded(seat, command.seat, hands[command.seat], hands[seat]))
    out.emit(ev.ActionDiscarded(seat, command.card, command.discard, True))


def _trade_goals(out: Emitter[State], seat: int, command: TradeGoals) -> None:
    out.emit(ev.ActionPlayed(seat, command.card))
    state = out.state
    if command.seat is not None:
        theirs = state.goal_of(command.seat)
    else:
        theirs = state.ring[state.unused_slots()[command.unused or 0]].goal
    mine = state.goal_of(seat)
    assert theirs is not None and mine is not None  # Trade Goals is in the full game only, its goals dealt
    out.emit(ev.GoalsTraded(seat, command.seat, command.unused, theirs, mine))
    out.emit(ev.ActionDiscarded(seat, command.card, command.discard, True))


def _rotate_goals(out: Emitter[State], seat: int, command: RotateGoals) -> None:
    out.emit(ev.ActionPlayed(seat, command.card))
    out.emit(ev.GoalsRotated(seat, command.direction))
    out.emit(ev.ActionDiscarded(seat, command.card, command.discard, True))


def _move_card(out: Emitter[State], seat: int, command: MoveCard) -> None:
    out.emit(ev.ActionPlayed(seat, command.card))
    out.emit(ev.CardMoved(seat, command.target, command.x, command.y, command.orientation))
    out.emit(ev.ActionDiscarded(seat, command.card, command.discard, True))


def _zap_card(out: Emitter[State], seat: int, command: ZapCard) -> None:
    out.emit(ev.ActionPlayed(seat, command.card))
    out.emit(ev.CardZapped(seat, command.target))
    out.emit(ev.ActionDiscarded(seat, command.card, command.discard, True))


_PLAY: dict[type[Command], Callable[[Emitter[State], int, Any], None]] = {
    PlaceDragon: _place,
    SetAside: _set_aside,
    DiscardAction: _discard_action,
    TradeHands: _trade_hands,
    TradeGoals: _trade_goals,
    RotateGoals: _rotate_goals,
    MoveCard: _move_card,
    ZapCard: _zap_card,
}


# ------------------------------------------------------------------ after the play


def reached(state: State) -> list[int]:
    """The seats whose goal colour has a group at least as large as their target, in seat order."""
    if not state.table.goals:
        return []
    largest = board(state).largest()
    out = []
    for slot in state.ring:
        if slot.seat is not None and slot.goal is not None and largest[_INDEX[slot.goal]] >= state.targets[slot.seat]:
            out.append(slot.seat)
    return sorted(out)


def _check_win(out: Emitter[State], active: int) -> bool:
    """Every player's goal is checked; the active player wins first, then the first in seat order.

    An unused goal's colour reaching the target wins nothing (it has no seat).
    """
    winners = reached(out.state)
    if not winners:
        return False
    seat = active if active in winners else winners[0]
    goal = out.state.goal_of(seat)
    assert goal is not None  # reached() lists only seats holding a goal
    out.emit(ev.GameWon(seat, goal, board(out.state).largest()[COLOURS.index(goal)]))
    return True


def _start_turn(out: Emitter[State], seat: int) -> None:
    out.emit(ev.TurnStarted(seat))
    state = out.state
    if state.deck:
        top = state.deck[0]
        out.emit(ev.CardTurnedUp(seat, top) if state.table.turn_up else ev.CardDrawn(seat, top))


def _next_turn(out: Emitter[State], after: int) -> None:
    """The next seat in order that can play starts its turn; the game ends when none can."""
    state = out.state
    n = state.seats
    if state.table.turn_up:
        if not state.deck:
            out.emit(ev.LastCardPlaced(state.last_placer))
            return
        candidates = [(after + k) % n for k in range(1, n + 1)]
        _start_turn(out, next(s for s in candidates if s not in state.left))
        return
    for k in range(1, n + 1):
        seat = (after + k) % n
        if seat not in state.left and (state.deck or state.hands[seat]):
            _start_turn(out, seat)
            return
    out.emit(ev.AllCardsPlayed(exhaustion_winners(state)))


def progress(state: State) -> dict[int, int]:
    """Each playing seat's largest group of its goal colour, capped at its target, minus the target."""
    largest = board(state).largest()
    out = {}
    for slot in state.ring:
        if slot.seat is not None and slot.goal is not None:
            target = state.targets[slot.seat]
            out[slot.seat] = min(largest[COLOURS.index(slot.goal)], target) - target
    return out


def exhaustion_winners(state: State) -> tuple[int, ...]:
    """The seats whose largest goal group is closest to their target; ties share the win."""
    scores = progress(state)
    best = max(scores.values())
    return tuple(sorted(s for s, v in scores.items() if v == best))


# ------------------------------------------------------------------ seats


def can_join(state: State) -> bool:
    """A newcomer may join a running game of fewer than 5 players.

    Designed: only while the deck still has a card, so that the newcomer has something to play.
    """
    try:
        _check_join(state)
    except IllegalMove:
        return False
    return True


def _check_join(state: State) -> None:
    """Raises unless a newcomer may join now, citing the rule that keeps them out."""
    if state.phase is not Phase.PLAY:
        raise IllegalMove("no newcomer may join: the game is not running", JOINING)
    if len(state.active()) >= MAX_PLAYERS:
        raise IllegalMove(f"no newcomer may join: {MAX_PLAYERS} players are playing", rb.JOIN_FULL)
    if not state.deck:
        raise IllegalMove("no newcomer may join: the deck is empty", rb.JOIN_DECK)


def join(state: State, rng: Rng) -> list[Event]:
    """The newcomer takes an unused goal at random, draws 3 cards and sits last in turn order.

    Designed: a newcomer whose goal is already complete wins at once, as any player does the moment
    their goal is fulfilled. In Dragon connections (no goals, no hands) a newcomer only takes turns.
    """
    _check_join(state)
    out = Emitter(_Fold, state)
    seat = state.seats
    if state.table.goals:
        unused = rng.below(len(state.unused_slots()))
        out.emit(ev.SeatJoined(seat, unused, state.ring[state.unused_slots()[unused]].goal))
        out.emit(ev.CardsDealt(seat, state.deck[:HAND_SIZE]))
        _check_win(out, state.turn)
    else:
        out.emit(ev.SeatJoined(seat, None, None))
    return out.events


def leave(state: State, seat: int, rng: Rng) -> list[Event]:
    """The leaver's hand is set aside face up and their goal becomes unused; two seats keep playing.

    Designed: the hand leaves the game rather than going under the discard pile, where a dragon card
    could one day lie on top and leave the Silver Dragon without a colour.
    """
    if state.over:
        raise GameOver("the game is over", GAME_ENDED)
    if not 0 <= seat < state.seats or seat in state.left:
        raise IllegalMove(f"seat {seat} is not playing", LEAVING)
    out = Emitter(_Fold, state)
    if state.hands[seat]:
        out.emit(ev.HandSetAside(seat, state.hands[seat]))
    out.emit(ev.SeatLeft(seat))
    staying = out.state.active()
    if len(staying) == 1:
        out.emit(ev.LastSeatStanding(staying[0]))
    elif seat == state.turn and state.phase is Phase.PLAY:
        _next_turn(out, seat)
    return out.events
