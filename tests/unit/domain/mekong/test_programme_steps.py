"""A programme chosen card by card (``Ruleset.narrow``): Mékong narrows its 15,120 to 48,720
programmes from the hand alone, and must say exactly what pointing every programme would."""

from __future__ import annotations

import pytest

from domain.kernel.pointing import narrowed
from domain.mekong import RULESET
from domain.mekong.commands import Program
from domain.mekong.state import MekongState

from .support import C, play, table

PLAN = (C.PLACE_2_STONES, C.PLACE_PLANK, C.MOVE_1, C.REMOVE, C.JUMP)


def _generic(state: MekongState, seat: int, chosen: tuple[str, ...]) -> tuple[list[object], list[str]]:
    found = narrowed(((m, RULESET.point(state, seat, m).ways) for m in RULESET.legal_moves(state, seat)), chosen)
    return list(found.moves), [ref for ref, _ in found.next]


def _refs(state: MekongState, seat: int, *cards: str) -> tuple[str, ...]:
    return tuple(f"hand:{seat}:{c}" for c in cards)


@pytest.mark.parametrize(
    "cards",
    [
        (),
        ("move-1",),
        ("blue-dragon",),
        ("jump", "blue-dragon"),
        ("jump", "move-2"),
        ("move-1", "move-2", "jump", "remove-plank-or-stone", "place-stone"),
        ("blue-dragon", "white-dragon"),  # two dragons: no programme
        ("move-1", "move-1"),  # a card twice: none
        ("red-dragon",),  # the seat's own colour: not in its hand
    ],
)
def test_a_programme_narrowed_card_by_card_is_what_pointing_every_programme_gives(cards: tuple[str, ...]) -> None:
    """Rulebook "Phase de programmation": 5 cards of the hand in order, at most one dragon."""
    state = table("classic", 3)  # red, blue, white: seat 0 is red
    chosen = _refs(state, 0, *cards)
    found = RULESET.narrow(state, 0, chosen)
    moves, following = _generic(state, 0, chosen)
    assert list(found.moves) == moves
    assert [ref for ref, _ in found.next] == following
    for ref, move in found.next:
        assert RULESET.point(state, 0, move).ways[0][: len(chosen) + 1] == (*chosen, ref)
    assert all(move in found.moves for move in moves[:50])


def test_after_two_cards_a_programme_is_few_enough_to_list_whole() -> None:
    """What makes choosing card by card cheap: 48,720, then 5,040, then 570 programmes."""
    state = table("classic", 6)
    assert len(RULESET.legal_moves(state, 0)) == 48_720
    assert len(RULESET.narrow(state, 0, _refs(state, 0, "move-1")).moves) == 5_040
    assert len(RULESET.narrow(state, 0, _refs(state, 0, "move-1", "jump")).moves) == 570


def test_outside_programming_the_game_narrows_by_pointing() -> None:
    state = table("classic", 2)
    for seat in (0, 1):
        state, _ = play(state, seat, Program(PLAN))
    (actor,) = RULESET.awaiting(state)
    first = RULESET.point(state, actor, RULESET.legal_moves(state, actor)[0]).ways[0][:1]
    found = RULESET.narrow(state, actor, first)
    assert (list(found.moves), [ref for ref, _ in found.next]) == _generic(state, actor, first)
    assert found.moves and RULESET.narrow(state, 1 - actor, ()).moves == []
