"""Seven Dragons in words: cards named by what they show, cells from the centre, secrets kept."""

from __future__ import annotations

from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import DRAGON_CODES, Colour
from domain.seven_dragons.commands import Discard, DiscardAction, PlaceDragon, TradeGoals, ZapCard
from domain.seven_dragons.events import CardDrawn, DragonPlaced, GoalDealt, GoalsTraded
from domain.seven_dragons.narration import card
from domain.seven_dragons.state import End
from tests.support.narrating import audience, choices, phrase, told

ANN = audience(RULESET, "full")
RED = DRAGON_CODES.index("RRRR")
HALVES = DRAGON_CODES.index("RRYY")


def test_a_card_is_named_by_what_it_shows() -> None:
    assert card(RED) == "the red dragon card"
    assert card(HALVES) == "the red and gold card (red on top)"
    assert card(DRAGON_CODES.index("RYRY")) == "the red and gold card (red on the left)"
    assert card(DRAGON_CODES.index("****")) == "the Rainbow Dragon"


def test_a_card_placed_names_its_cell_from_the_centre() -> None:
    assert told(RULESET, DragonPlaced(1, RED, 1, 0, 180), ANN) == (
        "Bruno placed the red dragon card right of the centre, turned round."
    )
    assert phrase(RULESET, PlaceDragon(HALVES, -2, -1, 0), ANN, 0) == (
        "place the red and gold card (red on top) 2 left and 1 up from the centre"
    )
    assert phrase(RULESET, PlaceDragon(HALVES, 0, -2, 0), ANN, 0) == (
        "place the red and gold card (red on top) 2 places above the centre"
    )


def test_what_another_seat_draws_or_holds_is_never_told() -> None:
    assert told(RULESET, CardDrawn(1, RED), ANN) == "Bruno drew a card."
    assert told(RULESET, CardDrawn(0, RED), ANN) == "You drew the red dragon card."
    assert told(RULESET, GoalDealt(1, Colour.BLUE), ANN) == "Bruno was dealt a secret goal."
    traded = GoalsTraded(1, 0, None, Colour.BLUE, Colour.RED)
    assert told(RULESET, traded, ANN) == "Bruno traded goals with you: Bruno took the blue goal and gave the red goal."
    watching = audience(RULESET, "full", reader=None)
    assert told(RULESET, traded, watching, reader=None) == "Bruno traded goals with ann."


def test_an_action_says_where_the_card_then_goes() -> None:
    zap = ZapCard(51, RED, Discard.TOP)
    assert phrase(RULESET, zap, ANN, 0) == (
        "play Zap a Card on the red dragon card, then on top of the discard pile (the Silver Dragon turns red)"
    )


def test_the_move_controls_ask_for_a_card_then_where_and_which_way_up() -> None:
    assert choices(RULESET, PlaceDragon(1, -1, 0, 0), ANN, 0) == [
        ("Card to lay", "the red dragon card"),
        ("Where", "left of the centre"),
        ("Which way up", "upright"),
    ]
    assert choices(RULESET, PlaceDragon(3, 2, 1, 180), ANN, 0)[1:] == [
        ("Where", "2 right and 1 down from the centre"),
        ("Which way up", "turned round"),
    ]
    assert choices(RULESET, ZapCard(51, 1, Discard.BOTTOM), ANN, 0) == [
        ("Action card to play", "Zap a Card"),
        ("Card to take into your hand", "the red dragon card"),
        ("Then the card goes", "to the bottom of the discard pile"),
    ]
    assert choices(RULESET, TradeGoals(51, unused=0), ANN, 0)[1] == ("Trade goals with", "the first unused goal")
    assert choices(RULESET, TradeGoals(51, seat=1), ANN, 0)[1] == ("Trade goals with", "Bruno")


def test_the_move_controls_head_each_kind_of_move_in_words() -> None:
    assert RULESET.narrator.kind("place_dragon") == "Lay a dragon card"
    assert RULESET.narrator.kind("zap_card") == "Play Zap a Card"


def test_a_goal_won_is_told_without_a_count_the_variant_may_not_have() -> None:
    """Basic's targets may be 3: the result names no number, and reads the same for "You"."""
    result = RULESET.narrator.outcome({"places": [1, 2], "reason": End.GOAL.value}, ANN)
    assert "seven" not in result and "their" not in result
    assert result.startswith("You (teal) won: enough dragons of the winning goal's colour were connected.")


def test_an_action_discarded_without_its_effect_says_where_it_goes_in_one_sentence() -> None:
    """A tester read "discard Zap a Card without its effect, then on top of the discard pile": the
    card goes nowhere *then*; it is discarded there."""
    said = phrase(RULESET, DiscardAction(51), ANN, 0)
    assert said.startswith("discard Zap a Card without its effect, on top of the discard pile (the Silver")
    assert ", then" not in said
