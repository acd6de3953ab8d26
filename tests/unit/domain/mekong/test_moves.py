"""Moving the pawn: Move 1, Move 2, Jump, and falling into the water (the rulebooks' examples 1 to 4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.kernel import Event, IllegalMove
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.cards import Card
from domain.mekong.commands import Jump, Move
from domain.mekong.events import DestinationReached, PawnFell, PawnJumped, PawnMoved
from domain.mekong.state import MekongState

from .support import RNG, C, at_position, board, of_type, play, seat_of, slot, table

STONES = ("i7", "i8", "i9", "i16", "i17", "i18", "i19")


def _turn(state: MekongState, colour: str, card: Card) -> tuple[MekongState, list[Event]]:
    """``colour`` is first player and reveals ``card`` at position 1; the others place stones."""
    state = replace(state, first=seat_of(state, colour))
    return at_position(state, 1, {c: slot(1, card if c == colour else C.PLACE_STONE) for c in state.colours})


def _moves(state: MekongState, colour: str) -> set[object]:
    seat = seat_of(state, colour)
    assert RULESET.awaiting(state) == (seat,)
    return set(RULESET.legal_moves(state, seat))


def test_example_1_move_1_goes_to_a_free_neighbouring_plank_not_an_occupied_one() -> None:
    """River Dragons example 1: the green pawn may go to the green plank on its left or the red plank on its right,
    not to the pink plank, where another pawn stands."""
    state = board(
        table("river-dragons", 6),
        stones=STONES,
        planks=(("blue-1", "i8", "i17"), ("green-3", "i7", "i17"), ("red-1", "i8", "i18"), ("pink-2", "i8", "i9")),
        pawns={"green": "blue-1", "pink": "pink-2"},
    )
    state, _ = _turn(state, "green", C.MOVE_1)
    assert _moves(state, "green") == {Move(("green-3",)), Move(("red-1",))}
    with pytest.raises(IllegalMove, match="another pawn stands on pink-2"):
        RULESET.decide(state, seat_of(state, "green"), Move(("pink-2",)), RNG)
    state, events = play(state, seat_of(state, "green"), Move(("red-1",)))
    assert events[0] == PawnMoved(seat_of(state, "green"), ("red-1",))
    assert state.pawns[seat_of(state, "green")] == "red-1"


def _example_2(variant: str, colours: tuple[str, str, str]) -> MekongState:
    green, red, pink = colours
    return board(
        table(variant, 6),
        stones=STONES,
        planks=(
            (f"{green}-3", "i7", "i17"),
            (f"{red}-4", "red", "i17"),
            (f"{pink}-1", "i16", "i17"),
            ("blue-2", "i7", "i8"),
        ),
        pawns={green: f"{green}-3", pink: f"{pink}-1", red: "blue-2"},
    )


def test_example_2_move_2_reaches_the_red_village_or_goes_there_and_back() -> None:
    """River Dragons example 2: "Ici il ne peut aller que sur le village rouge à droite ou faire un aller-retour"."""
    state, _ = _turn(_example_2("river-dragons", ("green", "red", "pink")), "green", C.MOVE_2)
    assert _moves(state, "green") == {Move(("red-4", "red")), Move(("red-4", "green-3"))}


def test_classic_move_2_comes_back_to_its_start_only_when_nothing_else_is_possible() -> None:
    """Classic rulebook: "S'il n'y a pas d'autre possibilité, il est possible de faire un aller-retour"."""
    state, _ = _turn(_example_2("classic", ("green", "red", "white")), "green", C.MOVE_2)
    assert _moves(state, "green") == {Move(("red-4", "red"))}
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, seat_of(state, "green"), Move(("red-4", "green-3")), RNG)
    assert refused.value.rule == rb.RETURN_CLASSIC


def test_classic_move_2_with_nothing_else_possible_is_a_forced_there_and_back() -> None:
    """Classic rulebook: the there-and-back is the only move of 2 left."""
    state = board(
        table("classic", 6),
        stones=STONES,
        planks=(("green-3", "i7", "i17"), ("white-1", "i16", "i17"), ("blue-2", "i7", "i8")),
        pawns={"green": "green-3", "red": "blue-2"},
    )
    state, _ = _turn(state, "green", C.MOVE_2)
    assert _moves(state, "green") == {Move(("white-1", "green-3"))}
    state, _ = play(state, seat_of(state, "green"), Move(("white-1", "green-3")))
    assert state.pawns[seat_of(state, "green")] == "green-3"


def test_any_number_of_pawns_may_share_a_village() -> None:
    """River Dragons: "un village peut contenir un nombre illimité de pions"."""
    state = board(
        table("river-dragons", 6),
        stones=STONES,
        planks=(("red-4", "red", "i17"),),
        pawns={"green": "red-4", "blue": "red"},
    )
    state, _ = _turn(state, "green", C.MOVE_1)
    assert Move(("red",)) in _moves(state, "green")


def test_example_3_the_jump_goes_over_the_only_neighbouring_pawn_to_the_plank_beyond() -> None:
    """River Dragons example 3: the yellow pawn must jump over the green pawn and land on the red plank."""
    state = board(
        table("river-dragons", 6),
        stones=STONES,
        planks=(("blue-2", "i7", "i8"), ("yellow-1", "i8", "i18"), ("red-1", "i18", "i19"), ("green-3", "i7", "i17")),
        pawns={"yellow": "blue-2", "green": "yellow-1"},
    )
    state, _ = _turn(state, "yellow", C.JUMP)
    assert _moves(state, "yellow") == {Jump("yellow-1", "red-1")}
    state, events = play(state, seat_of(state, "yellow"), Jump("yellow-1", "red-1"))
    assert events[0] == PawnJumped(seat_of(state, "yellow"), "yellow-1", "red-1")


def test_example_4_with_no_pawn_to_jump_over_the_pawn_falls_back_to_its_village() -> None:
    """River Dragons example 4: "Il fait un saut pour rien, tombe à l'eau et retourne sur son village de départ"."""
    state = board(
        table("river-dragons", 6),
        stones=STONES,
        planks=(("blue-2", "i7", "i8"), ("yellow-1", "i8", "i18"), ("red-1", "i18", "i19"), ("green-3", "i7", "i17")),
        pawns={"yellow": "blue-2"},
    )
    state, events = _turn(state, "yellow", C.JUMP)
    seat = seat_of(state, "yellow")
    assert of_type(events, PawnFell) == [
        PawnFell(seat, C.JUMP, "no pawn on a neighbouring plank with room to land beyond it")
    ]
    assert state.pawns[seat] == "yellow"


def test_a_jump_may_land_in_the_village_at_the_far_end() -> None:
    """River Dragons: the pawn must land "sur une planche libre ou sur un village"."""
    state = board(
        table("river-dragons", 2),
        stones=("i20", "i21"),
        planks=(("pink-1", "i20", "i21"), ("black-1", "black", "i20")),
        pawns={"pink": "pink-1", "black": "black-1"},
    )
    state, _ = _turn(state, "pink", C.JUMP)
    assert _moves(state, "pink") == {Jump("black-1", "black")}
    _, events = play(state, 0, Jump("black-1", "black"))
    assert events[-1] == DestinationReached(0)


def test_a_pawn_that_cannot_move_falls_into_the_water_and_returns_to_its_start_village() -> None:
    """River Dragons: "Si aucun déplacement n'est possible, dans aucune direction, le pion tombe à l'eau"."""
    state = board(
        table("river-dragons", 6),
        stones=STONES,
        planks=(("green-3", "i7", "i17"), ("pink-1", "i16", "i17"), ("blue-2", "i7", "i8")),
        pawns={"green": "green-3", "pink": "pink-1", "red": "blue-2"},
    )
    state, events = _turn(state, "green", C.MOVE_1)
    seat = seat_of(state, "green")
    assert of_type(events, PawnFell) == [PawnFell(seat, C.MOVE_1, "no free plank or village within reach")]
    assert state.pawns[seat] == "green"


def test_a_move_of_2_whose_first_step_reaches_the_destination_ends_the_game_there() -> None:
    """Rulebook: the game ends the instant a pawn reaches its destination."""
    state = board(
        table("river-dragons", 2), stones=("i20",), planks=(("pink-1", "black", "i20"),), pawns={"pink": "pink-1"}
    )
    state, _ = _turn(state, "pink", C.MOVE_2)
    assert Move(("black",)) in _moves(state, "pink")
    _, events = play(state, 0, Move(("black",)))
    assert events == [PawnMoved(0, ("black",)), DestinationReached(0)]


def test_a_path_off_the_planks_is_refused() -> None:
    """Moves follow planks sharing a support."""
    state = board(
        table("river-dragons", 2), stones=("i20", "i26"), planks=(("pink-1", "black", "i20"), ("pink-4", "pink", "i26"))
    )
    state, _ = _turn(state, "pink", C.MOVE_1)
    assert _moves(state, "pink") == {Move(("pink-4",))}
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, 0, Move(("pink-1",)), RNG)
    assert refused.value.rule == rb.MOVE_1
