"""The bots: ``random`` and ``greedy`` (issue: Bots). The full 400-game count is in ``bench/tarasque_bots.py``."""

from __future__ import annotations

import random

from domain.kernel import Rng, choose_move
from domain.tarasque.bots import GreedyBot
from domain.tarasque.commands import RemoveTile, SetAside, StoreTile, TakeTile
from domain.tarasque.state import Phase
from tests.unit.domain.tarasque.helpers import RULES, aside, base, make

SAMPLE = 40
THRESHOLD = 0.85
"""The issue's target; with these seeds greedy wins all 40 games, so the margin is wide."""


def greedy_share(game: int) -> float:
    """One 2-player game, greedy against random, starting seats and variants alternating."""
    greedy_seat = game % 2
    bots = {greedy_seat: RULES.bot("greedy"), 1 - greedy_seat: RULES.bot("random")}
    variant = RULES.variants[(game // 2) % 2].name
    rng = random.Random(game)
    state, _ = RULES.new_game(RULES.configure(variant, None, 2), Rng(b"bots-%d" % game, "setup"))
    version = 0
    while awaited := RULES.awaiting(state):
        move = choose_move(RULES, bots[awaited[0]], state, awaited[0], rng)
        state = RULES.fold(state, RULES.decide(state, awaited[0], move, Rng(b"bots-%d" % game, f"v{version}")))
        version += 1
    outcome = RULES.outcome(state)
    assert outcome is not None
    return 1 / len(outcome.winners) if greedy_seat in outcome.winners else 0.0


def test_greedy_beats_random_in_a_fixed_seed_sample() -> None:
    """Issue: greedy must beat random at least 85% of the time (here on 40 fixed-seed games)."""
    wins = sum(greedy_share(g) for g in range(SAMPLE))
    assert wins / SAMPLE >= THRESHOLD


def test_the_default_bot_is_greedy() -> None:
    """The timed-out seat's stand-in is the strong bot."""
    assert RULES.default_bot == "greedy" and set(RULES.bots) == {"random", "beginner", "greedy", "search"}


def test_greedy_takes_the_tile_with_all_its_dice_when_nothing_else_is_worth_them() -> None:
    """Greedy: more dice put a tile on a higher side, which is harder to steal."""
    state = make(seats=3, middle=("red-desert",), aside=aside(red=5))
    assert GreedyBot().choose(state, 0, random.Random(1)) == TakeTile("red-desert", 5)


def test_greedy_extends_its_longest_fitting_row() -> None:
    """Greedy: a tile scores most at the end of a long row."""
    state = make(
        seats=3,
        phase=Phase.STORE,
        middle=("blue-sea",),
        bases={0: base(s2=["red-desert"])},
        lairs={0: [["red-forest"], ["red-sea", "red-volcano"]]},
    )
    assert GreedyBot().choose(state, 0, random.Random(1)) == StoreTile("red-desert", 1)


def test_greedy_keeps_every_die_of_the_one_symbol_it_can_use() -> None:
    """Greedy: a die set aside is sure, a die rolled again only might show red."""
    state = make(
        seats=3,
        phase=Phase.SELECT,
        middle=("red-desert",),
        dice=6,
        rolls=1,
        showing=("red", "red", "red", "blue", "black", "black"),
        eggs=(0, 1, 1),
    )
    assert GreedyBot().choose(state, 0, random.Random(1)) == SetAside("red", 3, False)


def test_greedy_keeps_just_enough_for_one_tile_and_rolls_the_rest_for_another() -> None:
    """Greedy: two red dice win the red tile; the third is worth more rolled again for the blue tile."""
    state = make(
        seats=3,
        phase=Phase.SELECT,
        middle=("red-desert", "blue-sea"),
        dice=6,
        rolls=1,
        showing=("red", "red", "red", "blue", "black", "black"),
        eggs=(0, 1, 1),
    )
    assert GreedyBot().choose(state, 0, random.Random(1)) == SetAside("red", 2, False)


def test_greedy_removes_the_tile_its_opponent_wants_most() -> None:
    """Greedy, 2 players: remove what completes the opponent's row, not what suits its own lair."""
    state = make(
        seats=2,
        phase=Phase.REMOVE,
        middle=("red-desert", "blue-sea", "green-glacier", "black-meadow"),
        lairs={0: [["blue-forest", "blue-desert"]], 1: [["green-sea", "green-forest", "green-volcano"]]},
    )
    assert GreedyBot().choose(state, 0, random.Random(1)) == RemoveTile("green-glacier")
