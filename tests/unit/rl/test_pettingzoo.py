"""The PettingZoo environments: PettingZoo's own API and seed tests for every game and variant,
observations that show a seat only what it could know, seeds that replay a game exactly."""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from domain.catalog import GAMES
from domain.kernel import Ruleset, Viewer
from rl.hooks import of_view
from rl.match import returns
from rl.pettingzoo_env import DragonhallEnv, env
from tests.support.toygame import DICE_RACE
from tests.unit.rl.support import CASES, ids, positions

CYCLES = 12
"""Cycles of PettingZoo's tests: enough to cross each game's phases, few enough to be quick."""


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    """api_test warns that a dict observation is not a Box: the dict is PettingZoo's own form for masks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_variant_passes_pettingzoos_api_test(case: tuple[Ruleset[Any], str]) -> None:
    ruleset, variant = case
    api_test(env(ruleset.slug, variant), num_cycles=CYCLES)


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_every_game_passes_pettingzoos_seed_test(ruleset: Ruleset[Any]) -> None:
    seed_test(functools.partial(env, ruleset.slug), num_cycles=CYCLES)


def test_a_game_with_no_numbering_of_its_own_passes_the_api_test_too() -> None:
    """A fifth game needs no change to the environment (Dice Race, the test game, has no module in rl.games)."""
    api_test(DragonhallEnv(DICE_RACE, players=3), num_cycles=30)


def _play(e: DragonhallEnv, seed: int, policy_seed: int) -> list[tuple[str, bytes, int]]:
    """A whole random game: each step's agent, observation bytes and action."""
    e.reset(seed=seed)
    rng = random.Random(policy_seed)
    trace = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(sorted(np.flatnonzero(obs["action_mask"]).tolist()))
        trace.append((agent, obs["observation"].tobytes(), action))
        e.step(action)
    return trace


@pytest.mark.parametrize("slug", ["tarasque", "drachenreiter"])
def test_a_seed_replays_a_whole_game_and_another_seed_deals_another(slug: str) -> None:
    e = env(slug, players=3)
    first = _play(e, seed=11, policy_seed=5)
    assert _play(e, seed=11, policy_seed=5) == first
    assert _play(e, seed=12, policy_seed=5)[:3] != first[:3]


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_an_observation_is_the_same_in_every_state_the_seat_cannot_tell_apart(ruleset: Ruleset[Any]) -> None:
    """No hidden information: the observation of every seat is a function of its own view, so
    states that differ only in what it cannot see (others' hands and goals, the deck's order,
    secret speeds: ``observe`` resamples them) give it equal observations. At least one such
    state differs from the true one, so the check bites."""
    differed = 0
    for state, _ in positions(ruleset, ruleset.variants[0].name, 3, seed=7, count=40):
        for seat in range(3):
            twin = ruleset.observe(state, seat, random.Random(seat))
            differed += twin != state
            mine = of_view(ruleset.slug, ruleset.view(state, Viewer.of(seat)), seat)
            assert np.array_equal(of_view(ruleset.slug, ruleset.view(twin, Viewer.of(seat)), seat), mine)
    assert differed


def test_the_env_observes_a_seat_through_its_view_and_masks_the_seats_not_to_act() -> None:
    e = env("seven-dragons", players=3)
    e.reset(seed=4)
    assert e.match is not None
    acting = e.agent_selection
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], of_view("seven-dragons", e.match.view(seat), seat))
        assert obs["action_mask"].any() == (agent == acting)


def test_rewards_come_at_the_end_and_sum_to_zero() -> None:
    e = env("tarasque", players=3)
    _play(e, seed=2, policy_seed=2)
    assert e.match is not None
    outcome = e.match.outcome()
    assert outcome is not None
    assert sum(returns(outcome, 3)) == pytest.approx(0.0)
    winners = outcome.winners
    assert all(returns(outcome, 3)[w] == max(returns(outcome, 3)) for w in winners)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("tarasque")
    e.reset(seed=1)
    assert e.match is not None
    before = e.match.state
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        e.step(e.codec.size)
    assert e.match.state is before


def test_render_shows_the_board_as_a_spectator_sees_it() -> None:
    e = env("seven-dragons", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.startswith("seat -1: {")
    assert '"hand":null' in text and '"you":null' in text  # a spectator holds no hand and sees none
