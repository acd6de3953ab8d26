"""The fixed action space: every listed move has an action that stands for it, in every position."""

from __future__ import annotations

from typing import Any

import pytest

import rl  # noqa: F401  (registers the games' numberings)
from domain.catalog import GAMES
from domain.kernel import Ruleset
from rl.action_fields import Grid, Listed, Path, Seq, Values
from rl.actions import ActionCodec
from rl.specs import codec_for
from tests.support.toygame import DICE_RACE
from tests.unit.rl.support import CASES, ids, positions


def test_a_grid_snaps_a_value_to_its_nearest_point_and_refuses_one_beyond_its_ends() -> None:
    grid = Grid(-135.0, 135.0, 5.0)
    assert grid.size == 55
    assert grid.index(-135.0) == 0 and grid.index(135.0) == 54
    assert grid.index(12.4) == grid.index(10.0) and grid.index(12.6) == grid.index(15.0)
    assert grid.index(140.0) is None and grid.index(-137.6) is None
    assert grid.value(grid.index(-25.0)) == -25.0


def test_tuples_and_paths_number_each_value_once_and_back() -> None:
    item = Values(["a", "b", "c"])
    seq, path = Seq(item, 2), Path(item, 2)
    assert seq.size == 9 and path.size == 3 + 9
    assert sorted(seq.index(seq.value(i)) for i in range(seq.size)) == list(range(seq.size))
    assert sorted(path.index(path.value(i)) for i in range(path.size)) == list(range(path.size))
    assert path.index(("a",)) != path.index(("a", "a"))
    assert path.index(()) is None and seq.index(("a", "z")) is None


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_listed_move_has_an_action_that_stands_for_it(case: tuple[Ruleset[Any], str]) -> None:
    """Over seeded random games: the mask marks one action per listed move, and each marked
    action decodes to a move of the listing (no two moves share one here: every listed
    Drachenreiter angle falls on the 5° grid, every Seven Dragons cell within reach)."""
    ruleset, variant = case
    codec = codec_for(ruleset)
    seats = ruleset.variant(variant).min_seats
    seen = 0
    for state, seat in positions(ruleset, variant, seats, seed=3, count=60):
        moves = ruleset.legal_moves(state, seat)
        mask, chosen = codec.table(moves)
        assert len(chosen) == len(moves) == int(mask.sum())
        assert set(chosen.values()) == set(moves)
        for action, move in chosen.items():
            assert codec.describe(action).startswith(move.TYPE)
        seen += 1
    assert seen > 10


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_a_move_has_the_same_action_in_every_position(ruleset: Ruleset[Any]) -> None:
    """Actions mean the same move wherever they are legal (save ``Listed`` blocks, numbered by
    listing place)."""
    codec = codec_for(ruleset)
    numbered: dict[Any, int] = {}
    for seed in (1, 2):
        for state, seat in positions(ruleset, ruleset.variants[0].name, 2, seed, 40):
            _, chosen = codec.table(ruleset.legal_moves(state, seat))
            for action, move in chosen.items():
                if codec.blocks_by_type[type(move)].listed is None:
                    assert numbered.setdefault(move, action) == action


def test_a_game_without_a_numbering_of_its_own_gets_one_from_its_type_hints_and_listing() -> None:
    """Dice Race (the test game) has no module in ``rl.games``: ``Roll`` has one action, and
    ``Bid(amount: int)``, which no hint bounds, is numbered by its place in the listing."""
    codec = ActionCodec(DICE_RACE.commands, {})
    bid, roll = codec.blocks
    assert bid.listed == Listed(64) and roll.size == 1
    assert codec.moves == 65 and codec.size == 67  # and a skip and a join, no seat to leave
