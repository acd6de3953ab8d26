"""Invariants over random games of every seat count and both variants (hypothesis).

* the 36 tiles are always all accounted for: pile, middle, bases, lairs, removed
  (and a tile won with six dice that waits for its row);
* eggs are conserved: 36 between the supply and the players;
* every lair row is valid at all times;
* the view says dice may be set aside (``may_set_aside``) exactly when the listing has a set-aside;
* with 2 players, a tile is removed only from a middle of 4;
* every listed legal move is accepted, and a move that is not listed is refused;
* every game ends within ``max_decisions``, and the same seeds replay the same game.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.kernel import Command, Event, Rng, RuleError, choose_move
from domain.tarasque import lair
from domain.tarasque.bots import GreedyBot
from domain.tarasque.commands import (
    EndTurn,
    MoveLairTile,
    RemoveTile,
    Roll,
    SetAside,
    Stop,
    StoreTile,
    TakeTile,
)
from domain.tarasque.queries import may_set_aside
from domain.tarasque.state import Phase, TarasqueState
from domain.tarasque.tiles import DECKS, EGGS
from tests.support.runs import count
from tests.unit.domain.tarasque.helpers import RULES, new_game, play, tiles_everywhere

VARIANTS = st.sampled_from(["dragon-dice", "numbered"])
SEATS = st.integers(2, 6)
SEEDS = st.integers(0, 2**32 - 1)


def check_invariants(state: TarasqueState) -> None:
    deck = state.deck
    seat = state.turn.seat
    if seat not in state.left:  # a seat gone plays no listing (``absence``)
        asides = any(isinstance(m, SetAside) for m in RULES.legal_moves(state, seat))
        assert may_set_aside(state) is asides, "the view's may_set_aside is not the listing's"
    assert sorted(tiles_everywhere(state)) == sorted(deck.tiles), "a tile is missing or duplicated"
    assert 0 <= state.turn.rolls <= 6, "at most 6 rolls a turn"
    board = state.board
    if state.turn.phase is Phase.REMOVE:
        assert len(board.middle) == 4, "2 players: a tile is removed only from a middle of 4"
    assert board.supply >= 0 and min(board.eggs) >= 0
    assert sum(board.eggs) + board.supply == EGGS, "eggs are not conserved"
    for rows in board.lairs:
        for row in rows:
            assert row and all(lair.fits(row[:i], t, deck) for i, t in enumerate(row) if i), f"bad row {row}"


def chance(seed: int, decision: int) -> Rng:
    """The platform's generator for a decision: the game seed and the stream ``v{N}``."""
    return Rng(seed.to_bytes(8, "big"), f"v{decision}")


def play_random(
    variant: str,
    seats: int,
    seed: int,
    *,
    leave_rate: float = 0.0,
    skip_rate: float = 0.0,
    greedy_rate: float = 0.0,
    on_state: Any = None,
) -> tuple[TarasqueState, list[Event], int]:
    """A random game (uniform legal moves, or greedy ones at ``greedy_rate``, with optional
    leaves and skips); returns the final state, all events and the decision count."""
    chooser = random.Random(seed)
    greedy = GreedyBot()
    state, history = new_game(variant, seats, seed.to_bytes(8, "big"))
    decisions = 0
    while RULES.awaiting(state):
        assert decisions < RULES.max_decisions, "the game did not end within max_decisions"
        if on_state is not None:
            on_state(state)
        seat = RULES.awaiting(state)[0]
        rng = chance(seed, decisions)
        roll = chooser.random()
        events = None
        if roll < leave_rate:
            events = RULES.leave(state, chooser.choice([s for s in range(seats) if s not in state.left]), rng)
        elif roll < leave_rate + skip_rate:
            events = RULES.skip(state, seat, rng)
        if events is None and chooser.random() < greedy_rate:
            events = RULES.decide(state, seat, choose_move(RULES, greedy, state, seat, chooser), rng)
        if events is None:
            moves = RULES.legal_moves(state, seat)
            events = RULES.decide(state, seat, chooser.choice(moves), rng)
        state = RULES.fold(state, events)
        history.extend(events)
        decisions += 1
    return state, history, decisions


@settings(max_examples=count(20, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANTS, seats=SEATS, seed=SEEDS)
def test_tiles_and_eggs_are_conserved_and_every_game_ends(variant: str, seats: int, seed: int) -> None:
    """Issue checks: the 36 tiles are always accounted for, eggs are conserved, games end within a bound."""
    final, _, decisions = play_random(variant, seats, seed, on_state=check_invariants)
    check_invariants(final)
    assert RULES.outcome(final) is not None
    assert decisions < RULES.max_decisions


@settings(max_examples=count(10, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANTS, seats=SEATS, seed=SEEDS)
def test_invariants_hold_with_seats_leaving_and_timing_out(variant: str, seats: int, seed: int) -> None:
    """Leaving removes tiles and returns eggs without losing any; skipping keeps the game going."""
    final, _, _ = play_random(variant, seats, seed, leave_rate=0.004, skip_rate=0.1, on_state=check_invariants)
    check_invariants(final)
    outcome = RULES.outcome(final)
    assert outcome is not None
    for seat in final.left:
        assert all(outcome.places[seat] > outcome.places[s] for s in range(seats) if s not in final.left)


@settings(max_examples=count(4, 12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(variant="dragon-dice", seats=2, seed=1)
@example(variant="numbered", seats=6, seed=2)
@given(variant=VARIANTS, seats=SEATS, seed=SEEDS)
def test_invariants_hold_in_games_played_well(variant: str, seats: int, seed: int) -> None:
    """Greedy play reaches what random play rarely does (six-dice tiles, extra turns, thefts,
    long rows); the invariants hold there too, and greedy's moves are legal."""
    final, _, _ = play_random(variant, seats, seed, greedy_rate=0.8, skip_rate=0.02, on_state=check_invariants)
    check_invariants(final)
    assert RULES.outcome(final) is not None


def accepted(state: TarasqueState, seat: int, command: Command) -> bool:
    try:
        play(state, seat, command)
    except RuleError:
        return False
    return True


def near_misses(state: TarasqueState, moves: list[Command], rng: random.Random) -> list[Command]:
    """Commands close to the legal ones, and a few arbitrary ones."""
    deck = DECKS[state.variant]
    tile = rng.choice(deck.tiles)
    face = rng.choice(deck.faces)
    out: list[Command] = [
        Roll(),
        Stop(),
        EndTurn(),
        RemoveTile(tile),
        TakeTile(tile, rng.randint(0, 8)),
        SetAside(face, rng.randint(0, 7), rng.random() < 0.5),
        StoreTile(tile, None),
        StoreTile(tile, rng.randint(-1, 4)),
        MoveLairTile(tile, rng.randint(-1, 4)),
        MoveLairTile(tile, None),
    ]
    for m in moves:
        if isinstance(m, TakeTile):
            out += [TakeTile(m.tile, m.dice - 1), TakeTile(m.tile, m.dice + 1)]
        elif isinstance(m, SetAside):
            out += [SetAside(m.symbol, m.count + 1, m.egg), SetAside(m.symbol, m.count, not m.egg)]
        elif isinstance(m, StoreTile):
            out += [StoreTile(m.tile, (m.row or 0) + 1), StoreTile(tile, m.row)]
        elif isinstance(m, MoveLairTile):
            row = len(state.board.lairs[state.turn.seat]) if m.row is None else m.row
            out += [MoveLairTile(m.tile, row + 1), MoveLairTile(m.tile, row - 1), MoveLairTile(m.tile, None)]
    return out


@settings(max_examples=count(8, 25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(variant="dragon-dice", seats=2, seed=1)
@example(variant="numbered", seats=6, seed=2)
@given(variant=VARIANTS, seats=SEATS, seed=SEEDS)
def test_decide_accepts_exactly_the_listed_moves(variant: str, seats: int, seed: int) -> None:
    """Issue check: every listed legal move is accepted as is; and nothing else is."""
    rng = random.Random(seed)

    def check(state: TarasqueState) -> None:
        seat = RULES.awaiting(state)[0]
        moves = list(RULES.legal_moves(state, seat))
        assert moves and len(moves) == len(set(moves)), "moves are listed once each"
        for m in moves:
            assert accepted(state, seat, m), f"listed move {m} refused"
        for m in near_misses(state, moves, rng):
            assert accepted(state, seat, m) == (m in moves), f"{m} is accepted: {m not in moves}"
        other = (seat + 1) % seats
        assert not accepted(state, other, moves[0])

    play_random(variant, seats, seed, greedy_rate=0.5, on_state=check)


@settings(max_examples=count(4, 10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(variant="dragon-dice", seats=2, seed=1)
@example(variant="numbered", seats=6, seed=2)
@given(variant=VARIANTS, seats=SEATS, seed=SEEDS)
def test_the_same_seeds_replay_the_same_game(variant: str, seats: int, seed: int) -> None:
    """Determinism: same seeds, same events; replaying the events rebuilds the same state."""
    final, events, _ = play_random(variant, seats, seed, skip_rate=0.05)
    again, events_again, _ = play_random(variant, seats, seed, skip_rate=0.05)
    assert events == events_again and final == again
    initial = RULES.initial(RULES.configure(variant, None, seats))
    assert RULES.fold(initial, events) == final
