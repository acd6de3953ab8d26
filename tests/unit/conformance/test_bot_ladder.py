"""Every game offers a ladder of server bots, and its top rung searches.

The ladder's ratings are measured by ``bench/ladder.py`` (docs/bots.md); here, a small
fixed-seed sample: the search, without the prior that makes it strong, beats random, and a search
too short to decide plays its prior's move (it is never a noisier Level 3).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from api.meta import describe
from domain.catalog import GAMES
from domain.kernel import Outcome, Rng, RolloutBot, SearchBot, SearchSettings, choose_move
from domain.kernel.bots_search import _Node, rewards
from tests.support.runs import count
from tests.support.sampled_decisions import sampled_decisions


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_each_game_has_four_levels_naming_each_of_its_bots_once(ruleset: Any) -> None:
    names = [r.bot for r in ruleset.ladder]
    assert len(names) >= 4 and sorted(names) == sorted(ruleset.bots), names
    assert names[0] == "random" and names[2] == ruleset.default_bot and names[3] == "search"
    assert [ruleset.bot_title(n) for n in names] == [f"Level {k}" for k in range(1, len(names) + 1)]
    assert all(r.about and "_" not in r.about for r in ruleset.ladder)


def test_the_catalogue_offers_the_ladder_in_words() -> None:
    tarasque = describe(next(g for g in GAMES if g.slug == "tarasque"))
    assert [(r["level"], r["title"], r["bot"]) for r in tarasque["ladder"]] == [
        (1, "Level 1", "random"),
        (2, "Level 2", "beginner"),
        (3, "Level 3", "greedy"),
        (4, "Level 4", "search"),
    ]


def test_rewards_count_the_seats_beaten_and_half_the_ties() -> None:
    assert rewards(Outcome((2, 1, 3), "won")) == [0.5, 1.0, 0.0]
    assert rewards(Outcome((1, 1), "tie")) == [0.5, 0.5]
    assert rewards(None)[:6] == [0.5] * 6


def _play(ruleset: Any, bots: list[Any], seed: int) -> tuple[int, ...]:
    state, _ = ruleset.new_game(ruleset.configure(None, None, len(bots)), Rng(b"ladder", str(seed)))
    rng = random.Random(seed)
    for n in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        seat = ruleset.awaiting(state)[0]
        command = choose_move(ruleset, bots[seat], state, seat, rng)
        state = ruleset.fold(state, ruleset.decide(state, seat, command, Rng(b"ladder", f"{seed}:{n}")))
    outcome = ruleset.outcome(state)
    assert outcome is not None
    return outcome.places


@pytest.mark.parametrize("slug", ["seven-dragons", "mekong"])
def test_the_search_bot_beats_random_in_seeded_games(slug: str) -> None:
    """Level 4 in its quick, deterministic mode (no budget: a few short iterations)."""
    ruleset = next(g for g in GAMES if g.slug == slug)
    wins = 0
    for seed in range(4):
        me = seed % 2
        bots = [ruleset.bot("random"), ruleset.bot("random")]
        bots[me] = ruleset.bot("search")
        places = _play(ruleset, bots, seed)
        wins += places[me] < places[1 - me]
    assert wins == 4, wins


def test_the_search_works_without_a_prior() -> None:
    """No prior, random rollouts, a handful of iterations: it still plays a legal game to its end,
    choosing among every move the seat has."""
    ruleset = next(g for g in GAMES if g.slug == "seven-dragons")
    bots = [SearchBot(ruleset, None, None, SearchSettings(quick_iterations=8, quick_horizon=50)), ruleset.bot("random")]
    assert sorted(_play(ruleset, bots, 1)) in ([1, 2], [1, 1])


ASKED = count(3, 6)
"""Decisions of the search compared with its prior's in each game (each a dozen rollouts to the end)."""


SAMPLING = [g for g in GAMES if isinstance(g.bot("search"), (RolloutBot, SearchBot))]
"""The games whose Level 4 samples (Tarasque's is exact: ``test_turn_search`` checks that the same
position always gives it the same move)."""


@pytest.mark.parametrize("ruleset", SAMPLING, ids=lambda g: g.slug)
def test_a_search_too_short_to_decide_plays_its_priors_move(ruleset: Any) -> None:
    """Level 4 is never a noisier version of the player it searches from (the Level 3 bot, or in
    Drachenreiter Level 3 with a patient lasso): without enough rollouts to tell two moves apart (here
    its quick mode: a dozen iterations of the tree search, or one round short of the rollout bot's
    least) it plays what that player plays from the same draws, however the few rollouts scored."""
    search = ruleset.bot("search")
    if isinstance(search, RolloutBot):  # rounds enough to be tempted by any gain, one short of deciding
        least = search.settings.least_rounds
        search.settings = replace(search.settings, margin=0.0, quick_rounds=least - 1)
        strong = search.base
    elif isinstance(search, SearchBot):
        assert search.prior is not None
        search.settings = replace(search.settings, margin=0.0, quick_iterations=12)  # the rollouts' counts alone
        strong = search.prior
    else:
        raise AssertionError(f"{ruleset.slug}: a Level 4 that samples, of a kind this test does not know")
    asked = 0
    for observed, seat, key in sampled_decisions(ruleset, ASKED, b"short", 7, every=3, moves=60):
        searched = search.choose(observed, seat, random.Random(key))
        assert searched == strong.choose(observed, seat, random.Random(key))
        asked += 1
    assert asked >= 3, asked


def _root(prior: tuple[int, float], other: tuple[int, float]) -> _Node:
    root = _Node(-1)
    root.children = {"prior": _Node(0, *prior), "other": _Node(0, *other)}
    return root


def test_another_move_is_played_only_when_enough_rollouts_show_it_better() -> None:
    ruleset = next(g for g in GAMES if g.slug == "seven-dragons")
    bot = SearchBot(ruleset, None, ruleset.bot("greedy"), SearchSettings(least_visits=24, margin=1.5))
    moves: list[Any] = ["prior", "other"]
    assert bot._verdict(_root((10, 2.0), (14, 13.0)), moves) == "prior", "too few rollouts of the prior's move"
    assert bot._verdict(_root((30, 6.0), (40, 36.0)), moves) == "other", "clearly better, on enough rollouts"
    assert bot._verdict(_root((30, 14.0), (40, 20.0)), moves) == "prior", "about as good: the prior's stands"
