"""Removing a plank (into one's reserve) or a stone (to the common reserve)."""

from __future__ import annotations

import pytest

from domain.kernel import IllegalMove
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.commands import RemovePlank, RemoveStone
from domain.mekong.events import PlankTaken, StoneRemoved
from domain.mekong.state import MekongState

from .support import RNG, C, at_position, board, play, seat_of, slot, table

PLANKS = (
    ("red-1", "i1", "i2"),
    ("red-5", "i3", "i6"),
    ("green-1", "i3", "i4"),
    ("green-5", "i2", "i8"),
    ("blue-1", "i5", "i6"),
    ("blue-5", "i1", "i8"),
    ("yellow-2", "i9", "i19"),
    ("green-4", "i11", "i20"),
)
STONES = ("i1", "i2", "i3", "i4", "i5", "i6", "i8", "i9", "i11", "i19", "i20", "i27")


def _red_removes(pawns: dict[str, str] | None = None) -> MekongState:
    """Classic, 4 players; red holds red and green planks numbered 4, 3, 2 and 6 (the rulebook's example)."""
    state = table("classic", 4)  # red, green, blue, yellow
    state = board(
        state,
        stones=STONES,
        planks=PLANKS,
        pawns=pawns,
        reserves={"red": ("red-2", "red-4", "green-3", "green-6"), "green": ("green-2",)},
    )
    state, _ = at_position(state, 1, {c: slot(1, C.REMOVE if c == "red" else C.PLACE_STONE) for c in state.colours})
    assert RULESET.awaiting(state) == (seat_of(state, "red"),)
    return state


def test_a_red_player_holding_sizes_4_3_2_and_6_in_red_and_green_cannot_take_those_sizes_nor_other_colours() -> None:
    """Classic example: "Vous ne pouvez donc retirer du plateau, une planche numérotée 4, 3, 2 ou 6, ni une planche
    d'une autre couleur que rouge ou vert"."""
    state = _red_removes()
    planks = [m.plank for m in RULESET.legal_moves(state, 0) if isinstance(m, RemovePlank)]
    assert sorted(planks) == ["green-1", "green-5", "red-1", "red-5"]
    for plank, rule in (("green-4", rb.RESERVE_SIZES), ("blue-1", rb.RESERVE_COLOURS), ("yellow-2", rb.RESERVE_SIZES)):
        with pytest.raises(IllegalMove) as refused:
            RULESET.decide(state, 0, RemovePlank(plank), RNG)
        assert refused.value.rule == rule


def test_a_taken_plank_goes_into_the_takers_reserve_whatever_its_colour() -> None:
    """Rulebook: "la déposer dans sa propre réserve de planches. Il pourra l'utiliser ultérieurement"."""
    state, events = play(_red_removes(), 0, RemovePlank("green-5"))
    assert events[0] == PlankTaken(0, "green-5")
    assert state.reserves[0] == ("green-3", "green-5", "green-6", "red-2", "red-4")
    assert all(b.plank != "green-5" for b in state.bridges)


def test_a_plank_a_pawn_stands_on_cannot_be_taken() -> None:
    """Rulebook: il est interdit "de retirer une planche occupée par 1 pion"."""
    state = _red_removes(pawns={"blue": "red-5"})
    assert RemovePlank("red-5") not in RULESET.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, 0, RemovePlank("red-5"), RNG)
    assert refused.value.rule == rb.REMOVE_OCCUPIED


def test_only_a_stone_bearing_no_plank_returns_to_the_common_reserve() -> None:
    """Rulebook: il est interdit "de retirer une pierre sur laquelle s'appuient une ou plusieurs planches"."""
    state = _red_removes()
    stones = [m.stone for m in RULESET.legal_moves(state, 0) if isinstance(m, RemoveStone)]
    assert stones == ["i27"]
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, 0, RemoveStone("i1"), RNG)
    assert refused.value.rule == rb.REMOVE_STONE
    state, events = play(state, 0, RemoveStone("i27"))
    assert events[0] == StoneRemoved(0, "i27") and state.stone_reserve == 27 - len(STONES) + 1


@pytest.mark.parametrize("stone", ["i7", "red", "s1"], ids=["bare-island", "village", "no-such-stone"])
def test_only_a_stone_on_the_board_can_be_removed(stone: str) -> None:
    """River Dragons: "Retirer 1 pierre du plateau de jeu et la remettre dans la réserve commune"; an island without
    a stone, a village or an unknown name is no stone on the board (not a stone bearing planks)."""
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(_red_removes(), 0, RemoveStone(stone), RNG)
    assert refused.value.rule == rb.REMOVE_A_STONE
