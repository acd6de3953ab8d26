"""Tarasque in words: what a player reads of rolls, dice set aside, tiles taken, and the result."""

from __future__ import annotations

from domain.kernel import Outcome
from domain.tarasque import RULESET
from domain.tarasque.commands import MoveLairTile, SetAside, StoreTile
from domain.tarasque.events import DiceRolled, DiceSetAside, RollingEnded, TileTaken, TurnStarted
from tests.support.narrating import audience, choices, phrase, told

ANN = audience(RULESET, "dragon-dice")


def test_a_roll_and_the_dice_set_aside_are_counted_by_colour() -> None:
    assert told(RULESET, DiceRolled(1, ("red", "red", "green")), ANN) == "Bruno rolled two reds and a green."
    assert told(RULESET, DiceSetAside(1, "red", 2, True), ANN) == "Bruno set aside two reds, one of them on the egg."
    assert told(RULESET, DiceSetAside(0, "green", 1, False), ANN) == "You set aside a green."
    numbered = audience(RULESET, "numbered")
    assert told(RULESET, DiceRolled(1, ("3", "3", "1")), numbered) == "Bruno rolled two 3s and a 1."


def test_a_tile_taken_from_a_base_says_whose_and_where_it_went() -> None:
    stolen = TileTaken(0, "blue-desert", 3, 1, 3, False)
    assert told(RULESET, stolen, ANN) == (
        "You took the blue desert from Bruno's base with three dice; it went to side 3 of your base."
    )
    six = TileTaken(1, "red-forest", 6, None, None, True)
    assert told(RULESET, six, ANN) == (
        "Bruno took the red forest from the middle with six dice; it went straight into their lair and earned "
        "Bruno an extra turn."
    )
    assert told(RULESET, RollingEnded(1, "no valid die"), ANN) == (
        "Bruno's rolling ended: no die of the roll could be set aside."
    )


def test_moves_read_as_what_a_button_does() -> None:
    assert phrase(RULESET, SetAside("red", 2, True), ANN, 0) == "set aside two reds, one on the egg"
    assert phrase(RULESET, StoreTile("red-forest", None), ANN, 0) == "store the red forest in a new row of the lair"
    assert phrase(RULESET, MoveLairTile("red-3", 1), ANN, 0) == "return an egg to move the red 3 to row 2 of the lair"


def test_a_turn_opens_under_its_heading_and_the_result_counts_points() -> None:
    assert RULESET.narrator.turn("TurnStarted", TurnStarted(1, 2, False).data(), ANN) == "Round 2: Bruno's turn"
    outcome = Outcome.from_scores([25, 31], "the last tile entered a lair")
    assert RULESET.narrator.outcome(outcome.to_json(), ANN) == (
        "Bruno (orange) won with 31 points: the last tile entered a lair. You (teal) came second with 25 points."
    )
    small = Outcome.from_scores([5, 45], "the last tile entered a lair").to_json()
    assert RULESET.narrator.outcome(small, ANN).endswith("You (teal) came second with 5 points."), "figures alike"


def test_the_move_controls_ask_for_a_tile_then_its_row_in_words() -> None:
    assert choices(RULESET, StoreTile("red-forest", None), ANN, 0) == [
        ("Tile to store", "the red forest"),
        ("Row of the lair", "a new row"),
    ]
    assert choices(RULESET, MoveLairTile("red-3", 1), ANN, 0) == [
        ("Tile to move", "the red 3"),
        ("To", "row 2 of the lair"),
    ]
    assert choices(RULESET, SetAside("red", 2, True), ANN, 0) == [
        ("Dice to set aside", "two reds"),
        ("The egg", "one of them on the egg"),
    ]
    assert choices(RULESET, SetAside("red", 1, False), ANN, 0)[1] == ("The egg", "not on the egg")
