"""Placing planks: supports, reach, three per support, no crossing, and naming a plank without a trial."""

from __future__ import annotations

import pytest

from domain.kernel import IllegalMove
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.commands import PlacePlank
from domain.mekong.events import PlankActionLost, PlankFellShort, PlankLost, PlankPlaced
from domain.mekong.layout import layout
from domain.mekong.state import MekongState, plank_size

from .support import RNG, C, at_position, board, dropped, of_type, play, slot, table


def _plank_turn(state: MekongState, card: C = C.PLACE_PLANK) -> MekongState:
    state, _ = at_position(state, 1, {state.colours[0]: slot(1, card), state.colours[1]: slot(1, C.PLACE_STONE)})
    assert RULESET.awaiting(state) == (0,)
    return state


def _refusal(state: MekongState, command: PlacePlank) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, 0, command, RNG)
    return refused.value


def test_a_plank_rests_on_a_village_and_a_stone_and_leaves_the_reserve() -> None:
    """Rulebook: "Le joueur DOIT poser une planche en appui sur deux pierres, ou sur un village et une pierre"."""
    state = _plank_turn(board(table(), stones=("i26",)))
    state, events = play(state, 0, PlacePlank("pink-4", ("i26", "pink")))
    assert events[0] == PlankPlaced(0, "pink-4", ("pink", "i26"))
    assert "pink-4" not in state.reserves[0] and state.bridges[0].ends == ("pink", "i26")


def test_a_plank_too_long_is_fine() -> None:
    """Rulebook: "Si la planche est trop longue, ce n'est pas un problème"."""
    state = _plank_turn(board(table(), stones=("i26",)))
    _, events = play(state, 0, PlacePlank("pink-6", ("pink", "i26")))
    assert isinstance(events[0], PlankPlaced)


def test_a_plank_named_too_short_is_a_failed_attempt_and_must_go_elsewhere() -> None:
    """River Dragons: "si la planche ne peut pas être posée de manière stable (trop courte), le joueur doit la poser
    ailleurs"; README: the attempt is a recorded fact, then the same plank must be placed."""
    state = _plank_turn(board(table(), stones=("i26", "i27")))
    state, events = play(state, 0, PlacePlank("pink-3", ("pink", "i26")))
    assert events == [PlankFellShort(0, "pink-3", ("pink", "i26"))]
    assert RULESET.awaiting(state) == (0,) and state.task.retry == "pink-3" and "pink-3" in state.reserves[0]
    assert set(RULESET.legal_moves(state, 0)) == {
        PlacePlank("pink-3", ("pink", "i27")),
        PlacePlank("pink-3", ("i26", "i27")),
    }
    assert _refusal(state, PlacePlank("pink-6", ("pink", "i26"))).rule == rb.PLANK_TOO_SHORT
    assert _refusal(state, PlacePlank("pink-3", ("i26", "pink"))).rule == rb.PLANK_TOO_SHORT
    state, events = play(state, 0, PlacePlank("pink-3", ("i26", "i27")))
    assert isinstance(events[0], PlankPlaced) and state.task.retry is None


def test_a_plank_that_fits_nowhere_is_lost_for_the_game() -> None:
    """River Dragons: "Si le joueur ne peut poser nulle part sa planche sur le plateau, elle est retirée du jeu jusqu'à
    la fin de la partie"."""
    state = _plank_turn(board(table(), stones=("i26",)), C.PLACE_2_PLANKS)
    state, events = play(state, 0, PlacePlank("pink-3", ("pink", "i26")))
    assert events[:2] == [PlankFellShort(0, "pink-3", ("pink", "i26")), PlankLost(0, "pink-3")]
    assert state.lost == ("pink-3",) and "pink-3" not in state.reserves[0]
    assert RULESET.awaiting(state) == (0,) and state.task.done == 1  # the second plank of the card is still due
    state, events = play(state, 0, PlacePlank("pink-4", ("pink", "i26")))
    assert isinstance(events[0], PlankPlaced)


@pytest.mark.parametrize(
    ("ends", "rule"),
    [
        (("pink", "i27"), rb.PLANK_SUPPORTS),
        (("pink", "black"), rb.PLANK_SUPPORTS),
        (("i26", "i26"), rb.PLANK_SUPPORTS),
        (("pink", "i1"), rb.PLANK_SUPPORTS),
    ],
    ids=["island-without-stone", "two-villages", "one-support", "not-a-stone"],
)
def test_a_plank_needs_two_different_supports_on_the_board(ends: tuple[str, str], rule: object) -> None:
    """Rulebook: "Le joueur DOIT poser une planche en appui sur deux pierres, ou sur un village et une pierre"."""
    state = _plank_turn(board(table(), stones=("i26", "i9")))
    assert _refusal(state, PlacePlank("pink-6", ends)).rule == rule


def test_a_plank_named_for_a_gap_wider_than_any_plank_falls_short_and_must_go_elsewhere() -> None:
    """River Dragons: "si la planche ne peut pas être posée de manière stable (trop courte), le joueur doit la poser
    ailleurs"; README: naming the plank is the attempt, a recorded fact, however wide the gap (i26 to i9 is 102 units,
    the longest plank reaches 40)."""
    state = _plank_turn(board(table(), stones=("i26", "i9")))
    state, events = play(state, 0, PlacePlank("pink-6", ("i26", "i9")))
    assert events == [PlankFellShort(0, "pink-6", ("i9", "i26"))]
    assert RULESET.awaiting(state) == (0,) and state.task.retry == "pink-6" and "pink-6" in state.reserves[0]
    assert set(RULESET.legal_moves(state, 0)) == {
        PlacePlank("pink-6", ("blue", "i9")),
        PlacePlank("pink-6", ("pink", "i26")),
    }
    assert _refusal(state, PlacePlank("pink-6", ("i9", "i26"))).rule == rb.PLANK_TOO_SHORT
    assert _refusal(state, PlacePlank("pink-4", ("pink", "i26"))).rule == rb.PLANK_TOO_SHORT
    state, events = play(state, 0, PlacePlank("pink-6", ("pink", "i26")))
    assert events[0] == PlankPlaced(0, "pink-6", ("pink", "i26")) and state.task.retry is None


def test_a_plank_named_for_a_gap_wider_than_any_plank_is_lost_when_it_fits_nowhere() -> None:
    """River Dragons: "Si le joueur ne peut poser nulle part sa planche sur le plateau, elle est retirée du jeu";
    pink-3 reaches neither open span (pink to i26 needs a 4, blue to i9 a 6)."""
    state = _plank_turn(board(table(), stones=("i26", "i9")), C.PLACE_2_PLANKS)
    state, events = play(state, 0, PlacePlank("pink-3", ("i9", "i26")))
    assert events[:2] == [PlankFellShort(0, "pink-3", ("i9", "i26")), PlankLost(0, "pink-3")]
    assert state.lost == ("pink-3",) and "pink-3" not in state.reserves[0]
    assert RULESET.awaiting(state) == (0,) and state.task.done == 1 and state.task.retry is None


def test_a_plank_dropped_short_of_a_wide_gap_in_the_water_is_a_failed_attempt_too() -> None:
    """Challenge: "vous devrez le faire au jugé, directement dans l'eau"; the stones s1 and s2 lie 90 units apart."""
    state = _plank_turn(dropped(table("challenge", 2), (0.0, -60.0), (0.0, 30.0)))
    state, events = play(state, 0, PlacePlank("pink-5", ("s2", "s1")))
    assert events == [PlankFellShort(0, "pink-5", ("s1", "s2"))]
    assert {m.ends for m in RULESET.legal_moves(state, 0)} == {("red", "s1")}


@pytest.mark.parametrize(
    ("stones", "planks", "rule"),
    [
        (("i6", "i9", "i15", "i26"), (("black-3", "i6", "i15"),), rb.PLANK_CROSSING),
        (("i1", "i9", "i26"), (), rb.PLANK_OVER_STONE),
    ],
    ids=["a-plank-across-it", "a-stone-under-it"],
)
def test_a_gap_wider_than_any_plank_is_still_refused_for_what_lies_in_the_way(
    stones: tuple[str, ...], planks: tuple[tuple[str, str, str], ...], rule: object
) -> None:
    """Classic rulebook: "En aucun cas, une planche ne peut croiser une autre planche"; designed: a plank rests on its
    two supports only. What anyone can see of the place refuses it, whatever the plank and the gap."""
    state = _plank_turn(board(table(), stones=stones, planks=planks))
    assert _refusal(state, PlacePlank("pink-6", ("i26", "i9"))).rule == rule


def test_a_plank_not_in_ones_reserve_cannot_be_placed() -> None:
    """River Dragons: "choisir parmi ses planches disponibles celle qu'il veut placer"."""
    state = _plank_turn(board(table(), stones=("i26",)))
    assert _refusal(state, PlacePlank("black-6", ("pink", "i26"))).rule == rb.PLANK_FROM_RESERVE


def test_a_stone_bears_at_most_three_planks() -> None:
    """River Dragons: "Une même pierre ne peut supporter que trois planches au maximum"."""
    state = board(
        table(),
        stones=("i14", "i15", "i25", "i26"),
        planks=(("black-1", "i14", "i26"), ("black-2", "i25", "i26"), ("black-4", "pink", "i26")),
    )
    state = _plank_turn(state)
    assert _refusal(state, PlacePlank("pink-6", ("i15", "i26"))).rule == rb.PLANK_THREE
    assert not any(set(m.ends) == {"i15", "i26"} for m in RULESET.legal_moves(state, 0))


def test_a_village_bears_at_most_three_planks() -> None:
    """River Dragons: "De même un village ne peut supporter que trois planches au maximum"; a full village refuses a
    plank before any gap is judged."""
    state = board(
        table(),
        stones=("i9", "i15", "i26", "i27"),
        planks=(("black-1", "pink", "i27"), ("black-4", "pink", "i26"), ("black-6", "pink", "i15")),
    )
    state = _plank_turn(state)
    assert _refusal(state, PlacePlank("pink-6", ("pink", "i9"))).rule == rb.PLANK_THREE_VILLAGE


def test_planks_never_cross() -> None:
    """Classic rulebook: "En aucun cas, une planche ne peut croiser une autre planche"."""
    state = _plank_turn(board(table(), stones=("i14", "i15", "i26", "i27"), planks=(("black-3", "i15", "i26"),)))
    assert _refusal(state, PlacePlank("pink-6", ("i14", "i27"))).rule == rb.PLANK_CROSSING


def test_a_plank_never_passes_over_a_third_stone() -> None:
    """Rulebook: a plank rests on another only where a stone is; designed: it may not pass over a stone."""
    state = dropped(table("challenge", 2), (0.0, -60.0), (0.0, -45.0), (0.0, -30.0))
    state = _plank_turn(state)
    assert _refusal(state, PlacePlank("pink-5", ("s1", "s3"))).rule == rb.PLANK_OVER_STONE
    _, events = play(state, 0, PlacePlank("pink-5", ("s1", "s2")))
    assert isinstance(events[0], PlankPlaced)


def test_with_no_plank_in_reserve_the_plank_action_is_lost() -> None:
    """Issue: "If you have no plank, the action is lost"."""
    state = board(table(), stones=("i26",), reserves={"pink": ()})
    _, events = at_position(state, 1, {"pink": slot(1, C.PLACE_2_PLANKS), "black": slot(1, C.PLACE_STONE)})
    assert of_type(events, PlankActionLost) == [PlankActionLost(0, C.PLACE_2_PLANKS, "no plank in reserve")]


def test_the_listing_holds_every_fit_and_one_too_short_attempt_per_span() -> None:
    """Designed listing: all placements that fit, plus per open span the longest plank falling short there."""
    state = _plank_turn(board(table(), stones=("i15", "i26", "i27")))
    lay = layout(state)
    moves = RULESET.legal_moves(state, 0)
    for span in lay.open_spans():
        ends = (lay.geometry.sites[span.a].name, lay.geometry.sites[span.b].name)
        here = [m.plank for m in moves if m.ends == ends]
        fits = [f"pink-{s}" for s in range(span.need, 7)]
        short = [f"pink-{span.need - 1}"] if span.need > 1 else []
        assert sorted(here) == sorted(fits + short)
    for move in moves:
        events = RULESET.decide(state, 0, move, RNG)
        fits = plank_size(move.plank) >= lay.span(*move.ends).need
        assert isinstance(events[0], PlankPlaced if fits else PlankFellShort)
