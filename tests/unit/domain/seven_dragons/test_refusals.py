"""Refusals: each cites the rule it enforces, and tells the mover nothing its seat cannot know.

A refused command writes nothing, but its answer (accepted or not, the message,
the rule) reaches the mover. That answer must be a function of what the mover
knows: the same in the true state and in any state the mover cannot tell from it
(``observe`` resamples everything hidden from the seat: other hands and goals,
the unused goals, the deck order).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from domain.kernel import Command, MalformedMove, Rng, RuleError
from domain.kernel.rules import JOINING, MOVE_SHAPE
from domain.seven_dragons import RULESET
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import CARDS
from domain.seven_dragons.commands import (
    Direction,
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

from .helpers import dragon, play_random, start, table

GAMES = [("full", 2), ("full", 4), ("single-action", 3), ("basic", 3), ("connections", 2)]
POSITIONS = 6
"""Positions checked per random game."""
COMMANDS = 120
"""Commands tried per position, most of them refused."""


def _answer(state: Any, seat: int, command: Command) -> tuple[Any, ...]:
    """What the mover learns from submitting ``command``: accepted, or the refusal's kind, message and rule."""
    try:
        RULESET.decide(state, seat, command, Rng(b"refusals", "r"))
    except RuleError as e:
        return (type(e).__name__, e.message, e.rule)
    return ("accepted",)


def _commands(state: Any, seat: int, rng: random.Random) -> list[Command]:
    """Commands a player might send: cards held or not, cells on and off the layout, any seat or goal."""
    cards = [*state.hands[seat], *rng.sample(range(len(CARDS)), 6)]
    cells = [(p.x + dx, p.y + dy) for p in state.layout for dx, dy in ((0, 0), (1, 0), (0, -1), (1, 1))]
    layout = [p.card for p in state.layout] + [rng.randrange(len(CARDS))]
    out: list[Command] = []
    for _ in range(COMMANDS):
        card = rng.choice(cards)
        x, y = rng.choice(cells)
        turn = rng.choice((0, 180, 90))
        discard = rng.choice(tuple(Discard))
        other = rng.randrange(-1, state.seats + 1)
        out.append(
            rng.choice(
                (
                    PlaceDragon(card, x, y, turn),
                    TradeHands(card, other, discard),
                    TradeGoals(card, seat=other, discard=discard),
                    TradeGoals(card, unused=rng.randrange(-1, 4), discard=discard),
                    TradeGoals(card, discard=discard),
                    RotateGoals(card, rng.choice(tuple(Direction)), discard),
                    MoveCard(card, rng.choice(layout), x, y, turn, discard),
                    ZapCard(card, rng.choice(layout), discard),
                    DiscardAction(card),
                    SetAside(card),
                )
            )
        )
    return out


def _positions(variant: str, seats: int, seed: int) -> list[Any]:
    _, seen = play_random(start(variant, seats=seats, seed=seed), seed)
    running = [s for s in seen if not RULESET.is_over(s)]
    return random.Random(seed).sample(running, min(POSITIONS, len(running)))


@pytest.mark.parametrize(("variant", "seats"), GAMES, ids=[f"{v}-{n}p" for v, n in GAMES])
def test_a_refusal_tells_the_mover_nothing_its_seat_cannot_know(variant: str, seats: int) -> None:
    """Issue 20 (rule errors): refusals never reveal hidden information. For every seat, awaited or not,
    each command gets the same answer in the true state and in states the seat cannot tell from it."""
    for seed in range(2):
        for state in _positions(variant, seats, seed):
            rng = random.Random(seed)
            for seat in range(state.seats):
                twins = [RULESET.observe(state, seat, random.Random(k)) for k in range(2)]
                for command in _commands(state, seat, rng):
                    answer = _answer(state, seat, command)
                    assert all(_answer(twin, seat, command) == answer for twin in twins), (seat, command, answer)


@pytest.mark.parametrize(("variant", "seats"), GAMES, ids=[f"{v}-{n}p" for v, n in GAMES])
def test_every_refusal_cites_a_rule_the_game_declares(variant: str, seats: int) -> None:
    """Style: every RuleError passes a declared RuleRef, so that the arbiter can open the book there."""
    for state in _positions(variant, seats, 7):
        seat = RULESET.awaiting(state)[0]
        for command in _commands(state, seat, random.Random(7)):
            answer = _answer(state, seat, command)
            assert answer == ("accepted",) or answer[2] in RULESET.rules, answer


def test_a_command_of_another_game_is_refused_as_malformed() -> None:
    """Platform: a move is one of the game's commands, with exactly its fields and their types."""

    @dataclass(frozen=True, slots=True)
    class Roll(Command):
        dice: int

    with pytest.raises(MalformedMove) as info:
        RULESET.decide(table(hands=[[dragon("RRRR")], [], []]), 0, Roll(2), Rng(b"r", "r"))
    assert info.value.rule == MOVE_SHAPE and MOVE_SHAPE in RULESET.rules


def test_a_newcomer_is_kept_out_by_the_rule_that_applies() -> None:
    """Rulebook FAQ: a newcomer joins "en supposant bien sûr qu'il y avait moins de 5 joueurs"; designed:
    only while the deck has a card; platform: only while the game runs."""
    cases = [
        (start(seats=5), rb.JOIN_FULL),
        (table(seats=3, deck=()), rb.JOIN_DECK),
        (RULESET.initial(RULESET.configure("full", None, 3)), JOINING),
    ]
    for state, rule in cases:
        assert not RULESET.can_join(state)
        with pytest.raises(RuleError) as info:
            RULESET.join(state, Rng(b"join", "j"))
        assert info.value.rule == rule
