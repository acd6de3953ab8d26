"""The games' own observation encoders and mask hooks give the generic answers, faster: at each
step of random games the encoder's vector is the hashed view's, bit for bit, and the hook's mask
and commands are those of the indexed listing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from domain.catalog import GAMES
from domain.kernel import Rng, Ruleset, Viewer
from rl import hooks
from rl.actions import Legal, _recycled
from rl.features import featurize
from rl.hooks import of_view
from rl.pettingzoo_env import DragonhallEnv
from rl.specs import codec_for, spec_for
from tests.support.runs import count
from tests.support.toygame import DICE_RACE
from tests.unit.rl.support import positions

ENCODED = [g for g in GAMES if spec_for(g.slug).observation is not None]
MASKED = [g for g in GAMES if spec_for(g.slug).legal_actions is not None]
STEPS = 150
"""Steps of each random game: past Mekong's first rounds of programming and building."""
MASKED_SHARE = count(0.35, 1.0)
"""Share of those steps whose mask is checked against the listing's (a Mékong listing has thousands of
moves): a fixed third of them in ``make test``, every step with ``--thorough``."""


def _steps(ruleset: Ruleset[Any], variant: str, seats: int, seed: int) -> Any:
    """Each position of a random game played through the environment, with its acting seat."""
    env = DragonhallEnv(ruleset, variant, seats)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        assert env.match is not None
        yield env.match.state, int(agent.split("_")[1])
        env.step(rng.choice(env.legal_actions(agent)))


def _cases(games: list[Ruleset[Any]]) -> list[Any]:
    return [pytest.param(g, v.name, id=f"{g.slug}-{v.name}") for g in games for v in g.variants]


def test_the_games_register_the_hooks_the_docs_describe() -> None:
    assert {g.slug for g in ENCODED} == {"tarasque", "seven-dragons", "mekong"}
    assert {g.slug for g in MASKED} == {"seven-dragons", "mekong"}


@pytest.mark.parametrize(("ruleset", "variant"), _cases(ENCODED))
def test_an_encoder_gives_every_seat_the_vector_of_its_view_at_every_step(ruleset: Ruleset[Any], variant: str) -> None:
    seats = ruleset.variant(variant).min_seats + 1
    seen = 0
    for state, _ in _steps(ruleset, variant, seats, seed=5):
        for seat in range(seats):
            generic = of_view(ruleset.slug, ruleset.view(state, Viewer.of(seat)), seat)
            assert np.array_equal(hooks.observation(ruleset, state, seat), generic)
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("ruleset", ENCODED, ids=lambda g: g.slug)
def test_an_encoder_gives_equal_vectors_in_states_the_seat_cannot_tell_apart(ruleset: Ruleset[Any]) -> None:
    """Others' hands and goals, secret programmes, the pile's order: ``observe`` resamples what
    the seat cannot see, and the encoder (which reads the state, not the view) must not show it."""
    differed = 0
    for state, _ in positions(ruleset, ruleset.variants[0].name, 3, seed=7, count=60):
        for seat in range(3):
            twin = ruleset.observe(state, seat, random.Random(seat))
            differed += twin != state
            mine = hooks.observation(ruleset, state, seat)
            assert np.array_equal(hooks.observation(ruleset, twin, seat), mine)
    assert differed


@pytest.mark.parametrize(("ruleset", "variant"), _cases(MASKED))
def test_a_mask_hook_gives_the_listings_mask_and_commands_at_every_step(ruleset: Ruleset[Any], variant: str) -> None:
    codec = codec_for(ruleset)
    hooked = 0
    pick = random.Random(4)  # the same steps every run
    for state, seat in _steps(ruleset, variant, ruleset.variant(variant).min_seats, seed=3):
        if pick.random() >= MASKED_SHARE:
            continue
        fast = spec_for(ruleset.slug).legal_actions
        assert fast is not None
        actions = fast(state, seat)
        generic = Legal.of_moves(codec, ruleset.legal_moves(state, seat))
        if actions is None:
            continue
        hooked += 1
        assert np.all(np.diff(actions) > 0)  # distinct, increasing
        legal = hooks.legal(ruleset, state, seat, lambda: [])
        assert np.array_equal(legal.mask, generic.mask)
        assert legal.commands() == generic.commands()
        assert legal.actions() == generic.actions()
    assert hooked > 5


def test_a_game_without_hooks_goes_the_generic_way() -> None:
    state, _ = DICE_RACE.new_game(DICE_RACE.configure(None, None, 2), Rng(b"hooks", "setup"))
    vector = hooks.observation(DICE_RACE, state, 1)
    assert np.array_equal(vector, featurize(DICE_RACE.view(state, Viewer.of(1)), 1))
    listed = DICE_RACE.legal_moves(state, 0)
    legal = hooks.legal(DICE_RACE, state, 0, lambda: listed)
    assert set(legal.commands().values()) == set(listed)


def test_a_recycled_mask_still_held_is_never_handed_out_again_and_holds_only_its_actions() -> None:
    size = 1 << 19
    held = _recycled(size, np.array([7]))
    other = _recycled(size, np.array([9, 11]))
    assert other is not held and other[7] == 0 and other.sum() == 2
    address = other.ctypes.data
    del other
    again = _recycled(size, np.array([3]))
    assert again.ctypes.data == address and again[3] == 1 and again.sum() == 1
    assert held[7] == 1 and held.sum() == 1
    with pytest.raises(ValueError, match="read-only"):
        held[0] = 1


def test_a_mekong_programme_mask_is_shared_read_only() -> None:
    env = DragonhallEnv(next(g for g in GAMES if g.slug == "mekong"))
    env.reset(seed=1)
    while env.match is not None and env.match.state.phase.value != "programming":
        env.step(env.legal_actions(env.agent_selection)[0])
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.sum() == len(env.legal_actions(env.agent_selection)) > 1000
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = 1
