"""The observation's building blocks: the parts an encoder keeps from step to step give the
leaves ``featurize`` gives the same lists, and Seven Dragons' observed grid keeps a card's
features where the card lies."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from domain.catalog import GAMES
from domain.kernel import Viewer
from domain.mekong import RULESET as MEKONG
from domain.mekong.cards import Card, Programmes
from domain.mekong.commands import Program
from rl.features import Leaves, featurize, path
from rl.games import mekong as mekong_rl
from rl.games.seven_dragons import observed_view
from rl.specs import codec_for
from tests.unit.rl.support import positions


def _leaves_vector(build: Any) -> np.ndarray:
    leaves = Leaves(0)
    build(leaves)
    return leaves.vector()


@pytest.mark.parametrize("seed", range(5))
def test_a_sequence_kept_as_it_grows_or_changes_has_the_leaves_of_the_list(seed: int) -> None:
    rng = random.Random(seed)
    items: tuple[Any, ...] = ()
    at = path("removed")
    for _ in range(40):
        if items and rng.random() < 0.3:
            i = rng.randrange(len(items))
            items = items[:i] + items[i + 1 :]
        else:
            items = (*items, rng.choice(["red-fire", "blue-3", 7, 0, None, True]))
        vector = _leaves_vector(lambda leaves, items=items: leaves.sequence(at, items))
        assert np.array_equal(vector, featurize({"removed": list(items)}, 0))


@dataclass(frozen=True)
class _Item:
    name: str
    x: int


def _render(item: _Item) -> dict[str, Any]:
    return {"name": item.name, "x": item.x}


@pytest.mark.parametrize("seed", range(5))
def test_a_keyed_part_spliced_or_rebuilt_has_the_leaves_of_the_keyed_list(seed: int) -> None:
    """Items put in anywhere (spliced into the last list's leaves), taken out, or several changed
    at once (rebuilt): always the leaves of the list keyed by name."""
    rng = random.Random(seed)
    items: tuple[_Item, ...] = ()
    at = path("stones")
    for n in range(60):
        roll = rng.random()
        if items and roll < 0.25:
            gone = rng.choice(items)
            items = tuple(x for x in items if x is not gone)
        elif roll < 0.35:
            items = tuple(rng.sample(items, len(items)))
        else:
            i = rng.randrange(len(items) + 1)
            items = (*items[:i], _Item(f"s{n}", rng.randrange(-50, 50)), *items[i:])
        vector = _leaves_vector(lambda leaves, items=items: leaves.keyed(at, items, _name, _render))
        assert np.array_equal(vector, featurize({"stones": {x.name: _render(x) for x in items}}, 0))


def _name(item: _Item) -> str:
    return item.name


def test_a_mekong_hands_programme_actions_are_those_of_its_listed_programmes() -> None:
    """The programmes numbered straight from permutations are those ``cards.Programmes`` lists,
    for hands without a dragon and with one to three."""
    offset = codec_for(MEKONG).blocks_by_type[Program].offset
    actions = [c for c in Card if c.dragon is None]
    dragons = [c for c in Card if c.dragon is not None]
    for n in range(4):
        held = tuple(sorted((*actions, *dragons[:n]), key=lambda c: c.value))
        listed = sorted(offset + mekong_rl.PROGRAMME.index(cards) for cards in Programmes(held))  # type: ignore[operator]
        assert mekong_rl._programmes(held).tolist() == listed


SEVEN_DRAGONS = next(g for g in GAMES if g.slug == "seven-dragons")


def test_a_placement_leaves_the_other_cards_features_of_the_seven_dragons_grid_as_they_were() -> None:
    """Keyed by cell, a card's features do not move when a card is placed before it in the
    grid's row-major order: the observation changes by the new card's own leaves."""
    seen = 0
    for state, seat in positions(SEVEN_DRAGONS, SEVEN_DRAGONS.variants[0].name, 2, seed=3, count=60):
        grid = observed_view(SEVEN_DRAGONS.view(state, Viewer.of(seat)))["grid"]
        if len(grid) < 3:
            continue
        first = next(iter(grid.values()))
        placed = {**first, "x": first["x"] - 1, "card": 999, "name": "new"}
        key = f"{placed['x']},{placed['y']}"
        if key in grid:
            continue
        before = featurize({"grid": grid}, seat)
        after = featurize({"grid": {key: placed, **grid}}, seat)  # first in row-major order
        alone = featurize({"grid": {key: placed}}, seat) - featurize({}, seat)
        assert np.allclose(after - before, alone)
        seen += 1
    assert seen > 10
