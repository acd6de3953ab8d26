"""Bots decide only from what their seat may know.

Server bots also play for timed-out humans (the ``auto`` policy), so a bot that
read the true state would play with information its seat does not have. For
every game, variant and bot, at random points of random games, and for every
awaited seat:

* ``observe`` is a function of what the seat knows: two states the seat cannot
  tell apart (the true one, and one with everything hidden from the seat
  resampled) give the same observation for the same generator;
* hence every bot's decision is unchanged when what its seat cannot see is
  resampled.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel import Rng, Viewer, all_games, choose_move
from tests.support.runs import count
from tests.support.toygame import DICE_RACE

GAMES = [DICE_RACE, *all_games()]
CASES = [
    pytest.param(g, v.name, n, id=f"{g.slug}-{v.name}-{n}p")
    for g in GAMES
    for v in g.variants
    for n in sorted({v.min_seats, v.max_seats})
]
CHECKS = count(2, 4)
"""Positions checked per random game (the search bot's decisions at a 6-seat Mékong position take
seconds each: ``make test`` checks two, ``--thorough`` four)."""


def _positions(ruleset: Any, variant: str, seats: int, seed: int) -> list[Any]:
    """States met along one random game, a few of them kept at random."""
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.configure(variant, None, seats), Rng(b"bots-see-only", f"{seed}"))
    kept = []
    for decision in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        if rng.random() < 0.15:
            kept.append(state)
        seat = rng.choice(ruleset.awaiting(state))
        moves = ruleset.legal_moves(state, seat)
        state = ruleset.fold(
            state,
            ruleset.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"bots-see-only", f"{seed}:{decision}")),
        )
    return rng.sample(kept, min(CHECKS, len(kept)))


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
@settings(max_examples=count(1, 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_a_bot_decides_the_same_when_what_its_seat_cannot_see_is_resampled(
    ruleset: Any, variant: str, seats: int, seed: int
) -> None:
    for state in _positions(ruleset, variant, seats, seed):
        for seat in ruleset.awaiting(state):
            twin = ruleset.observe(state, seat, random.Random(seed + 1))
            assert ruleset.view(twin, Viewer.of(seat)) == ruleset.view(state, Viewer.of(seat))
            assert ruleset.observe(twin, seat, random.Random(seed + 2)) == ruleset.observe(
                state, seat, random.Random(seed + 2)
            ), f"seat {seat}'s observation depends on something hidden from it"
            for name in sorted(ruleset.bots):
                bot = ruleset.bot(name)
                mine = choose_move(ruleset, bot, state, seat, random.Random(seed + 3))
                theirs = choose_move(ruleset, ruleset.bot(name), twin, seat, random.Random(seed + 3))
                assert mine == theirs, f"bot {name!r} of seat {seat} decides on something hidden from it"
