"""An OpenSpiel state written and read back, and resampled from a seat's information state (issue 33):
``rl.openspiel_records.dumps``/``loads`` rebuild a state exactly from JSON text (no pickle), OpenSpiel's
own serialisation stays a few kilobytes, and ``resample_from_infostate`` changes only what the seat
cannot see."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

from domain.catalog import GAMES
from domain.kernel import Ruleset, state_hash
from rl.openspiel_game import DragonhallState, game_name
from rl.openspiel_records import dumps, loads


def players(ruleset: Ruleset[Any]) -> int:
    variant = ruleset.variants[0]
    return max(variant.min_seats, min(3, variant.max_seats))


def played(ruleset: Ruleset[Any], steps: int, seed: int = 3) -> DragonhallState:
    """A game of ``ruleset`` after ``steps`` random actions, stopped at a decision node."""
    state = pyspiel.load_game(game_name(ruleset.slug), {"players": players(ruleset)}).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def pairs(state: DragonhallState) -> list[tuple[int, int]]:
    return [(step.player, step.action) for step in state.full_history()]


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_a_state_written_as_text_reads_back_as_the_same_state(ruleset: Ruleset[Any]) -> None:
    state = played(ruleset, 80)
    text = dumps(state)
    assert len(text) < 16_000 and "__dict__" not in text, "the game and its history: no pickle"
    game, again = loads(text)
    assert game.get_parameters() == state.get_game().get_parameters()
    assert pairs(again) == pairs(state)
    assert state_hash(again.engine_state) == state_hash(state.engine_state)
    assert again.legal_actions() == state.legal_actions()


def test_a_simultaneous_phase_answered_out_of_seat_order_reads_back_in_that_order() -> None:
    state = pyspiel.load_game(game_name("mekong"), {"players": 3}).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for seat in (2, 0, 1):  # the first programming phase, last seat first
        state.answer_next(seat)
        assert state.current_player() == seat
        state.apply_action(rng.choice(state.legal_actions()))
    _, again = loads(dumps(state))
    assert state_hash(again.engine_state) == state_hash(state.engine_state)
    assert pairs(again) == pairs(state)


def test_text_that_dumps_did_not_write_is_refused() -> None:
    with pytest.raises(ValueError, match="not a state written by"):
        loads('{"game": "python_dragonhall_tarasque"}')


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_openspiels_own_serialisation_leaves_out_the_action_codec_and_the_legal_table(ruleset: Ruleset[Any]) -> None:
    state = played(ruleset, 80)
    state.legal_actions()  # the legal table is built and kept
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    assert len(text) < 32_000, "was 312 kB for a Drachenreiter game: the codec's caches, pickled"
    _, again = pyspiel.deserialize_game_and_state(text)
    assert state_hash(again.engine_state) == state_hash(state.engine_state)
    assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_a_resampled_state_looks_the_same_to_its_seat_and_redraws_what_it_cannot_see(ruleset: Ruleset[Any]) -> None:
    sampler = random.Random(5).random
    redrawn = 0
    for steps in (10, 25, 40, 60):
        state = played(ruleset, steps)
        if state.is_terminal():
            continue
        seat = state.current_player()
        for _ in range(4):
            other = state.resample_from_infostate(seat, sampler)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.legal_actions(seat) == state.legal_actions(seat)
            redrawn += state_hash(other.engine_state) != state_hash(state.engine_state)
    assert redrawn > 0, "every game hides something from a seat: a hand, a programme, a die kept"


def test_resampling_takes_openspiels_samplers_and_refuses_a_chance_node() -> None:
    state = played(GAMES[0], 30)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.observation_string(seat) == state.observation_string(seat)
    opening = pyspiel.load_game(game_name(GAMES[0].slug), {"players": players(GAMES[0])}).new_initial_state()
    assert opening.is_chance_node()
    with pytest.raises(ValueError, match="chance node"):
        opening.resample_from_infostate(0, random.random)
