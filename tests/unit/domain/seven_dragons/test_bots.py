"""The bots: legal, honest, and the greedy one stronger than chance."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.kernel import Rng, choose_move
from domain.seven_dragons import RULESET
from domain.seven_dragons.bots import GreedyBot, Judge
from domain.seven_dragons.cards import Action
from domain.seven_dragons.commands import PlaceDragon, TradeGoals
from domain.seven_dragons.events import GameWon

from .helpers import B, G, R, Y, act, action, dragon, of_type, play_random, start, table

SAMPLE = 40
THRESHOLD = 0.6
"""The issue's bar; the full 400-game count is in bench/seven_dragons_bots.py."""

RED_SIX = [
    (dragon("RRYY"), -5, 0),
    (dragon("RRBB"), -4, 0),
    (dragon("RRKG"), -3, 0),
    (dragon("RRRR"), -2, 0),
    (dragon("RRRR", 1), -1, 0),
    (dragon("RYRY"), -1, 1),
]


def _game(game: int, names: list[str], variant: str = "full") -> tuple[int, ...]:
    bots = [RULESET.bot(n) for n in names]
    seed = f"bots-{game}".encode()
    state, _ = RULESET.new_game(RULESET.configure(variant, None, len(names)), Rng(seed, "setup"))
    rng = random.Random(game)
    for n in range(RULESET.max_decisions):
        if RULESET.is_over(state):
            break
        seat = RULESET.awaiting(state)[0]
        move = choose_move(RULESET, bots[seat], state, seat, rng)
        state = RULESET.fold(state, RULESET.decide(state, seat, move, Rng(seed, f"v{n}")))
    outcome = RULESET.outcome(state)
    assert outcome is not None
    return outcome.winners


def test_greedy_wins_most_games_against_two_random_bots() -> None:
    """Issue (Bots): greedy against two random bots, rotating seats, wins at least 60% (chance is 33%)."""
    wins = 0.0
    for game in range(SAMPLE):
        seat = game % 3
        names = ["greedy" if s == seat else "random" for s in range(3)]
        winners = _game(game, names)
        wins += 1 / len(winners) if seat in winners else 0
    assert wins / SAMPLE >= THRESHOLD


@pytest.mark.parametrize("variant", ["single-action", "basic", "connections"])
def test_the_bots_play_every_variant_to_its_end(variant: str) -> None:
    """Issue (Bots): random and greedy play legal moves in every variant."""
    for game in range(3):
        assert _game(game, ["greedy", "random", "greedy"], variant)


def test_greedy_takes_a_winning_placement() -> None:
    """Rulebook (Gagner): seven connected dragons of your colour win at once."""
    rkrk, gggg = dragon("RKRK"), dragon("GGGG")
    state = table(
        variant="single-action",
        silver=False,
        layout=RED_SIX,
        goals=[R, Y, B],
        hands=[[gggg, rkrk], [], []],
        deck=(dragon("BBBB"),),
    )
    move = GreedyBot().choose(state, 0, random.Random(1))
    assert isinstance(move, PlaceDragon) and move.card == rkrk
    assert of_type(act(state, 0, move)[0], GameWon) == [GameWon(0, R, 7)]


def test_greedy_trades_into_an_unused_colour_that_already_has_seven() -> None:
    """README: an unused goal at 7 wins nothing until a player takes it with Trade Goals."""
    trade = action(Action.TRADE_GOALS)
    layout = [*RED_SIX, (dragon("RKRK"), -1, 2)]
    state = table(
        variant="single-action",
        silver=False,
        layout=layout,
        goals=[Y, B, G],
        hands=[[trade, dragon("GGGG")], [], []],
        deck=(dragon("BBBB"),),
    )
    move = GreedyBot().choose(state, 0, random.Random(1))
    assert isinstance(move, TradeGoals) and move.unused is not None


def test_greedy_does_not_complete_an_opponent_known_goal() -> None:
    """Issue (Bots): greedy weighs the goals it believes the others hold; here it knows seat 1 holds red."""
    rkrk, kkkk = dragon("RKRK"), dragon("KKKK")
    state = table(
        variant="single-action",
        silver=False,
        layout=RED_SIX,
        goals=[Y, R, B],
        hands=[[rkrk, kkkk], [], []],
        deck=(dragon("BBBB"),),
    )
    state = replace(state, seen_goals=(frozenset({Y, R}), frozenset({R}), frozenset({B})))  # seat 0 held red
    move = GreedyBot().choose(state, 0, random.Random(1))
    assert not (isinstance(move, PlaceDragon) and move.card == rkrk and (move.x, move.y) == (-1, 2))


def test_greedy_fears_a_colour_only_where_an_opponent_may_hold_it() -> None:
    """Issue (Bots): greedy weighs the goals it believes the others hold, from what it has seen."""
    rkrk = dragon("RKRK")
    complete_red = PlaceDragon(rkrk, -1, 2)
    state = table(
        variant="single-action",
        silver=False,
        layout=RED_SIX,
        goals=[Y, B, G],
        hands=[[rkrk], [], []],
        deck=(dragon("BBBB"),),
    )
    unknown = Judge(state, 0).score(complete_red)
    knows_red_is_unused = replace(state, seen_goals=(frozenset({Y, R}), frozenset({B}), frozenset({G})))
    assert unknown < -100 < Judge(knows_red_is_unused, 0).score(complete_red)


def test_greedy_decides_only_on_what_its_seat_may_see() -> None:
    """Platform: bots see observe(state, seat); whatever is resampled there cannot change greedy's choice."""
    for seed in range(4):
        state = start("full", seats=3, seed=seed)
        seat = RULESET.awaiting(state)[0]
        choices = {
            GreedyBot().choose(RULESET.observe(state, seat, random.Random(r)), seat, random.Random(0)) for r in range(6)
        }
        assert len(choices) == 1


@pytest.mark.parametrize("variant", ["full", "single-action", "basic"])
def test_greedy_reads_nothing_that_observe_resamples(variant: str) -> None:
    """Platform decision 2: greedy judges from its own hand and goal, the goals it has held and public
    things, so even handed the true state it chooses as it does on an observation of it."""
    for seed in range(3):
        _, seen = play_random(start(variant, seats=3, seed=seed), seed)
        for state in seen[1:-1:7]:
            seat = RULESET.awaiting(state)[0]
            observed = RULESET.observe(state, seat, random.Random(seed))
            assert GreedyBot().choose(state, seat, random.Random(1)) == GreedyBot().choose(
                observed, seat, random.Random(1)
            )
