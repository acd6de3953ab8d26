"""The OpenSpiel games: OpenSpiel's random simulation test for every game, and chance nodes that
are the engine's own draws."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import rl.openspiel_game  # noqa: F401  (registers the games)
from domain.catalog import GAMES
from domain.kernel import Rng, Ruleset, canonical_json
from rl.openspiel_game import game_name


class Recording(Rng):
    """The engine's generator, noting each ``below`` it answers."""

    __slots__ = ("drawn",)

    def __init__(self, seed: bytes, stream: str) -> None:
        super().__init__(seed, stream)
        self.drawn: list[int] = []

    def below(self, n: int) -> int:
        out = super().below(n)
        if n > 1:
            self.drawn.append(out)
        return out


@pytest.mark.parametrize(
    "ruleset",
    [pytest.param(g, marks=[pytest.mark.slow] if g.slug == "mekong" else []) for g in GAMES],
    ids=lambda g: g.slug,
)
def test_every_game_passes_openspiels_random_simulation_test(ruleset: Ruleset[Any]) -> None:
    game = pyspiel.load_game(game_name(ruleset.slug))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_variant_and_a_seat_count_are_game_parameters() -> None:
    game = pyspiel.load_game(game_name("tarasque"), {"variant": "numbered", "players": 3})
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_the_opening_is_a_run_of_uniform_chance_nodes_that_replays_the_engines_own_shuffle(
    ruleset: Ruleset[Any],
) -> None:
    """Choosing at each chance node the outcome the engine's Rng drew gives the engine's opening."""
    config = ruleset.configure(None, None, 2)
    rng = Recording(b"openspiel", "setup")
    expected, _ = ruleset.new_game(config, rng)
    state = pyspiel.load_game(game_name(ruleset.slug), {"players": 2}).new_initial_state()
    for drawn in rng.drawn:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert len({p for _, p in outcomes}) == 1
        state.apply_action(drawn)
    assert not state.is_chance_node()
    assert state.engine_state == expected


def test_information_states_differ_by_player_and_show_only_their_own_hand() -> None:
    game = pyspiel.load_game(game_name("seven-dragons"), {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    hand = canonical_json(state.view(0)["hand"])
    assert mine.startswith("seat 0: ") and theirs.startswith("seat 1: ")
    assert hand in mine and hand not in theirs


@pytest.mark.parametrize("slug", ["tarasque", "seven-dragons", "drachenreiter", "mekong"])
def test_a_state_mid_game_round_trips_through_openspiels_serialisation(slug: str) -> None:
    """Serialised as its history (chance draws and actions), a state replays to the same position."""
    game = pyspiel.load_game(game_name(slug), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert copy.history() == state.history() and len(state.history()) > 40
    assert copy.engine_state == state.engine_state
    assert copy.legal_actions() == state.legal_actions()
    assert copy.information_state_string(0) == state.information_state_string(0)
