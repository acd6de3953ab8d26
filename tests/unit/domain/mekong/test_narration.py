"""Les Dragons du Mékong in words: planks, islands and villages by name; a programme kept face down."""

from __future__ import annotations

from domain.kernel.rules import book_title
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.cards import Card
from domain.mekong.commands import Move, PlacePlank, PlaceStoneAt, Program
from domain.mekong.events import (
    EVENTS,
    ActionCancelled,
    CardsProgrammed,
    PawnMoved,
    PlankFellShort,
    PlankPlaced,
    PositionRevealed,
)
from tests.support.narrating import audience, choices, phrase, told

ANN = audience(RULESET, "classic")
PROGRAMME = (Card.MOVE_1, Card.PLACE_2_STONES, Card.MOVE_2, Card.PLACE_STONE, Card.RED_DRAGON)


def test_a_programme_is_told_face_down_to_the_others_and_face_up_to_its_seat() -> None:
    assert told(RULESET, CardsProgrammed(1, PROGRAMME), ANN) == "Bruno programmed five cards face down."
    assert told(RULESET, CardsProgrammed(0, PROGRAMME), ANN) == (
        "You programmed Move 1, Place two stones, Move 2, Place a stone and the red dragon."
    )
    assert phrase(RULESET, Program(PROGRAMME), ANN, 1) == "programme five cards face down"


def test_the_river_is_named_by_its_planks_islands_and_villages() -> None:
    assert told(RULESET, PlankPlaced(1, "white-6", ("blue", "i9")), ANN) == (
        "Bruno laid the white 6 plank from the blue village to island 9."
    )
    assert told(RULESET, PawnMoved(0, ("white-6", "blue")), ANN) == (
        "Your pawn moved onto the white 6 plank, then to the blue village."
    )
    assert phrase(RULESET, PlacePlank("red-3", ("i7", "s2")), ANN, 0) == "lay the red 3 plank from island 7 to stone 2"
    assert phrase(RULESET, Move(("red-3",)), ANN, 0) == "move onto the red 3 plank"
    assert phrase(RULESET, PlaceStoneAt(-24.04, 30.6), ANN, 0) == (
        "drop a stone into the water, 24 left and 31 down from the centre"
    )


def test_a_position_turned_up_names_each_seat_and_a_dragon_what_it_cancelled() -> None:
    revealed = PositionRevealed(2, (Card.JUMP, Card.WHITE_DRAGON))
    assert told(RULESET, revealed, ANN) == (
        "The cards at position 2 were turned up: Jump (you) and the white dragon (Bruno)."
    )
    assert told(RULESET, ActionCancelled(0, Card.JUMP, (1,)), ANN) == "Your Jump was cancelled by Bruno's dragon."


def test_the_move_controls_ask_for_a_programme_card_by_card_and_a_plank_by_its_ends() -> None:
    cards = (Card.PLACE_STONE, Card.MOVE_2, Card.JUMP, Card.PLACE_2_PLANKS, Card.REMOVE)
    assert choices(RULESET, Program(cards), ANN, 0) == [
        ("First card", "Place a stone"), ("Second card", "Move 2"), ("Third card", "Jump"),
        ("Fourth card", "Place two planks"), ("Fifth card", "Remove a plank or a stone"),
    ]  # fmt: skip
    assert choices(RULESET, PlacePlank("white-6", ("blue", "i9")), ANN, 0) == [
        ("Plank to lay", "the white 6 plank"),
        ("From", "the blue village"),
        ("To", "island 9"),
    ]
    assert choices(RULESET, PlaceStoneAt(120.4, -35.0), ANN, 0) == [
        ("Where in the water", "120 right and 35 up from the centre")
    ]


def test_a_plank_that_fell_short_tells_its_owner_in_one_sentence() -> None:
    short = PlankFellShort(0, "white-2", ("i11", "i12"))
    assert told(RULESET, short, ANN) == (
        "The white 2 plank fell short between island 11 and island 12: you must lay it elsewhere."
    )


def test_a_cited_passage_names_the_edition_it_quotes_not_the_edition_played() -> None:
    """An event type cites one rule for both editions (a classic game's stone cites the River Dragons
    book's "Chaque île ne peut recevoir qu'une seule pierre."). The audit read "the rulebook of Les
    Dragons du Mékong, River Dragons edition" in a classic game's replay: the title says instead
    whose words it quotes."""
    assert book_title(rb.RIVER_BOOK) == (
        "the rulebook of Les Dragons du Mékong, as worded in its River Dragons edition"
    )
    assert book_title(rb.CLASSIC_BOOK) == "the rulebook of Les Dragons du Mékong, as worded in its classic edition"
    shared = {e.RULE.book for e in EVENTS} - {rb.PLATFORM, rb.DECISIONS, "platform"}
    assert shared == {rb.RIVER_BOOK, rb.CLASSIC_BOOK}
    assert all(", as worded in its " in book_title(book) for book in shared)
