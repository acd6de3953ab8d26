"""Building Seven Dragons positions for tests: cards by name, tables by hand."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from domain.kernel import Command, Event, Rng, RuleError
from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import CARDS, COLOURS, SILVER, Action, Colour, Kind
from domain.seven_dragons.ruleset import goal_ring
from domain.seven_dragons.state import GoalSlot, Phase, Placed, SevenDragonsState

State = SevenDragonsState
R, Y, B, G, K = COLOURS


def dragon(code: str, copy: int = 0) -> int:
    """The number of dragon card ``code`` (``RRYY``; ``****`` is the Rainbow)."""
    return [c.id for c in CARDS if c.kind is Kind.DRAGON and c.name == code][copy]


def action(kind: Action, copy: int = 0) -> int:
    return [c.id for c in CARDS if c.action is kind][copy]


def start(variant: str = "full", seats: int = 3, seed: int = 0, **options: Any) -> State:
    """A fresh game after its opening events."""
    config = RULESET.configure(variant, options, seats)
    state, _ = RULESET.new_game(config, Rng(f"test-{seed}".encode(), "setup"))
    return state


def table(
    *,
    variant: str = "full",
    seats: int = 3,
    layout: Iterable[tuple[int, ...]] = (),
    hands: Sequence[Sequence[int]] | None = None,
    goals: Sequence[Colour] | None = None,
    deck: Sequence[int] = (),
    discard: Sequence[int] = (),
    turn: int = 0,
    targets: Sequence[int] | None = None,
    **options: Any,
) -> State:
    """A position in play, built by hand.

    ``layout`` lists ``(card, x, y[, orientation[, by]])``; the Silver Dragon is
    put at the origin first when the variant has it. ``goals`` gives each seat's
    goal; the unused goals are the other colours, in colour order, around the ring.
    """
    config = RULESET.configure(variant, options, seats)
    state = RULESET.initial(config)
    cards = []
    if state.table.silver:
        cards.append(Placed(SILVER, 0, 0, 0, None))
    for spec in layout:
        card, x, y, *rest = spec
        cards.append(Placed(card, x, y, rest[0] if rest else 0, rest[1] if len(rest) > 1 else None))
    ring = ()
    seen: tuple[frozenset[Colour], ...] = (frozenset(),) * seats
    if state.table.goals:
        goals = list(goals or COLOURS[:seats])
        unused = iter([c for c in COLOURS if c not in goals])
        ring = tuple(
            GoalSlot(slot.seat, goals[slot.seat] if slot.seat is not None else next(unused))
            for slot in goal_ring(seats, len(COLOURS))
        )
        seen = tuple(frozenset({g}) for g in goals)
    return replace(
        state,
        phase=Phase.PLAY,
        turn=turn,
        deck=tuple(deck),
        hands=tuple(tuple(h) for h in (hands or [()] * seats)),
        layout=tuple(cards),
        discard=tuple(discard),
        ring=ring,
        seen_goals=seen,
        targets=tuple(targets) if targets else state.targets,
    )


def act(state: State, seat: int, command: Command, stream: str = "t") -> tuple[list[Event], State]:
    """The events of ``command`` and the state after them."""
    events = RULESET.decide(state, seat, command, Rng(b"test", stream))
    return events, RULESET.fold(state, events)


def refused(state: State, seat: int, command: Command) -> RuleError:
    """The refusal of ``command``; fails the test if it is accepted."""
    with pytest.raises(RuleError) as info:
        RULESET.decide(state, seat, command, Rng(b"test", "t"))
    return info.value


def of_type(events: Iterable[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def play_random(state: State, seed: int, limit: int = 5_000) -> tuple[State, list[State]]:
    """Plays uniformly random legal moves to the end; returns the final state and every state met."""
    rng = random.Random(seed)
    seen = [state]
    for n in range(limit):
        if RULESET.is_over(state):
            break
        seat = RULESET.awaiting(state)[0]
        moves = RULESET.legal_moves(state, seat)
        state = RULESET.fold(state, RULESET.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"r", f"{n}")))
        seen.append(state)
    return state, seen
