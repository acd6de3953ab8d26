"""The rollout bot (``domain.kernel.bots_rollout``): paired imagined games, and a verdict that only
overturns its base player's move on evidence."""

from __future__ import annotations

import random
from typing import Any

from domain.catalog import GAMES
from domain.kernel import Rng, RolloutBot, RolloutSettings

SEVEN_DRAGONS = next(g for g in GAMES if g.slug == "seven-dragons")


def _bot(**settings: Any) -> RolloutBot[Any]:
    base = SEVEN_DRAGONS.bot("greedy")
    return RolloutBot(SEVEN_DRAGONS, base, base.rank, RolloutSettings(**settings))


def _midgame(decisions: int = 6) -> Any:
    state, _ = SEVEN_DRAGONS.new_game(SEVEN_DRAGONS.configure(None, None, 2), Rng(b"rollout", "setup"))
    rng = random.Random(3)
    for n in range(decisions):
        seat = SEVEN_DRAGONS.awaiting(state)[0]
        move = SEVEN_DRAGONS.bot("random").choose(SEVEN_DRAGONS.observe(state, seat, rng), seat, rng)
        state = SEVEN_DRAGONS.fold(state, SEVEN_DRAGONS.decide(state, seat, move, Rng(b"rollout", f"v{n}")))
    return state


def test_another_move_is_played_only_when_its_paired_gain_is_beyond_the_margin() -> None:
    bot = _bot(margin=2.0, least_rounds=8)
    base = [0.0] * 10
    clearly = [1.0] * 8 + [0.0] * 2
    noisy = [1.0, -1.0] * 4 + [1.0, 0.0]
    assert bot._verdict([base, clearly]) == 1
    assert bot._verdict([base, noisy]) == 0, "a gain within its noise leaves the base player's move"
    assert bot._verdict([base[:6], clearly[:6]]) == 0, "too few rounds to decide"
    assert bot._verdict([base, noisy, clearly]) == 2, "the best gain beyond the margin"
    assert bot._verdict([base, [-1.0] * 10]) == 0, "a worse move is never played"


def test_the_candidates_of_a_round_share_its_world_and_its_dice() -> None:
    """Common random numbers: the same move tried twice in one round finishes alike, so any
    difference between candidates is the move's, not the draw's."""
    state = _midgame()
    seat = SEVEN_DRAGONS.awaiting(state)[0]
    observed = SEVEN_DRAGONS.observe(state, seat, random.Random(1))
    bot = _bot()
    moves = bot._candidates(observed, seat, SEVEN_DRAGONS.legal_moves(observed, seat), random.Random(2))
    rng = random.Random(5)
    for _ in range(6):
        results = bot._round(observed, seat, [moves[0], moves[0], moves[1]], rng, 2_000, None)
        assert results is not None and results[0] == results[1]
    assert len(set(moves)) == len(moves) >= 2 and moves[0] == SEVEN_DRAGONS.bot("greedy").choose(
        observed, seat, random.Random(2)
    )


def test_without_a_budget_it_plays_its_base_players_move() -> None:
    state = _midgame()
    seat = SEVEN_DRAGONS.awaiting(state)[0]
    observed = SEVEN_DRAGONS.observe(state, seat, random.Random(1))
    chosen = _bot().choose(observed, seat, random.Random(9))
    assert chosen == SEVEN_DRAGONS.bot("greedy").choose(observed, seat, random.Random(9))


def test_where_no_move_is_better_it_plays_at_once_without_imagining_games() -> None:
    """Dragon connections has no goals: ``greedy`` ranks nothing, and the rollout bot, even with a
    budget, has a single candidate to play."""
    config = SEVEN_DRAGONS.configure("connections", None, 2)
    state, _ = SEVEN_DRAGONS.new_game(config, Rng(b"rollout", "setup"))
    bot, asked = _bot(), 0
    for n in range(20):
        seat = SEVEN_DRAGONS.awaiting(state)[0]
        observed = SEVEN_DRAGONS.observe(state, seat, random.Random(n))
        moves = SEVEN_DRAGONS.legal_moves(observed, seat)
        if len(moves) > 1:
            assert bot.ranking is not None and list(bot.ranking(observed, seat, random.Random(2))) == []
            assert len(bot._candidates(observed, seat, moves, random.Random(2))) == 1
            asked += 1
        state = SEVEN_DRAGONS.fold(state, SEVEN_DRAGONS.decide(state, seat, moves[0], Rng(b"rollout", f"v{n}")))
    assert asked >= 3, asked
