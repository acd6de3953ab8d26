"""The tree search stops once the iterations it may still run could not change its move, and
stopping never changes the move: the same draws give the move the search run to its end gives."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from domain.catalog import GAMES
from domain.kernel import Rng, SearchBot, SearchSettings
from domain.kernel.bots_search import _Node
from tests.support.sampled_decisions import sampled_decisions


class Counting(SearchBot[Any]):
    """A search that counts its iterations."""

    iterations = 0

    def _iterate(self, *args: Any) -> None:
        self.iterations += 1
        super()._iterate(*args)


def _root(prior: int, other: int) -> _Node:
    root = _Node(-1)
    children: dict[Any, _Node] = {"prior": _Node(0, prior, prior / 2), "other": _Node(0, other, other / 2)}
    root.children = children
    return root


def test_it_is_settled_only_when_no_other_move_can_still_be_played() -> None:
    ruleset = next(g for g in GAMES if g.slug == "mekong")
    bot = SearchBot(ruleset, None, ruleset.bot("planner"), SearchSettings(least_visits=24))
    moves: list[Any] = ["prior", "other", "untried"]
    assert bot._settled(_root(30, 10), moves, 10), "the other cannot catch up with the prior's move"
    assert not bot._settled(_root(30, 20), moves, 10), "the other may reach the prior's visits"
    assert bot._settled(_root(5, 10), moves, 32), "19 + 14 more rollouts: both cannot reach the rule's 24"
    assert not bot._settled(_root(5, 10), moves, 33), "both may reach them"
    assert not bot._settled(_root(40, 0), moves, 40), "a move not yet tried may still overtake"
    assert not replace_settings(bot, settle_early=False)._settled(_root(30, 0), moves, 0)


def test_without_a_prior_it_is_settled_when_the_leader_cannot_be_caught() -> None:
    ruleset = next(g for g in GAMES if g.slug == "seven-dragons")
    bot = SearchBot(ruleset, None, None, SearchSettings())
    moves: list[Any] = ["prior", "other"]
    assert bot._settled(_root(30, 10), moves, 19)
    assert not bot._settled(_root(30, 10), moves, 20), "a tie on visits goes to the rewards"


def replace_settings(bot: SearchBot[Any], **changes: Any) -> SearchBot[Any]:
    bot.settings = replace(bot.settings, **changes)
    return bot


def test_a_settled_search_plays_the_move_its_whole_run_would() -> None:
    """Searches of a fixed number of iterations, one stopping when settled and one not, on the same
    draws, with the Level 3 bot as prior and rollouts to the end. Over these searches some stop
    early and some leave their prior's move (so a search that stopped too soon would show)."""
    stopped = left = 0
    for slug, least in (("seven-dragons", 4), ("seven-dragons", 12), ("tarasque", 8)):
        ruleset = next(g for g in GAMES if g.slug == slug)
        prior = ruleset.bot(ruleset.default_bot)
        settings = SearchSettings(quick_iterations=30, quick_horizon=2_000, least_visits=least, margin=0.0)
        early = Counting(ruleset, None, prior, settings)
        whole = Counting(ruleset, None, prior, replace(settings, settle_early=False))
        asked = 0
        for observed, seat, key in sampled_decisions(ruleset, 3, b"settle", 5, every=4, moves=200):
            played = whole.choose(observed, seat, random.Random(key))
            assert early.choose(observed, seat, random.Random(key)) == played, (slug, least)
            left += played != prior.choose(observed, seat, random.Random(key))
            asked += 1
        assert asked == 3 and whole.iterations == 30 * 3, (slug, asked)
        stopped += early.iterations < whole.iterations
    assert stopped and left, (stopped, left)


def test_a_search_that_cannot_leave_its_prior_stops_with_time_to_spare() -> None:
    """With a budget, a search whose rule no budget could meet stops once it has counted its pace
    (``settle_after`` iterations), and plays its prior's move."""
    ruleset = next(g for g in GAMES if g.slug == "mekong")
    prior = ruleset.bot("planner")
    bot = Counting(ruleset, None, prior, SearchSettings(least_visits=10**6))
    state, _ = ruleset.new_game(ruleset.configure(None, None, 2), Rng(b"settle", "setup"))
    seat = ruleset.awaiting(state)[0]
    observed = ruleset.observe(state, seat, random.Random(1))
    chosen = bot.choose(observed, seat, random.Random(2), budget=2.0)
    assert chosen == prior.choose(observed, seat, random.Random(2))
    assert 1 <= bot.iterations <= bot.settings.settle_after
