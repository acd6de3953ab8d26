"""Chevaliers des dragons in words: flights in whole degrees, secret speeds and cards kept secret."""

from __future__ import annotations

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Ally, Move, SetSpeed
from domain.drachenreiter.events import (
    AllianceAnswered,
    AllianceWindowOpened,
    CardLaid,
    DebilitatusLifted,
    DragonEliminated,
    DragonStruck,
    EnergyLost,
    Exhausted,
    HeadingAwaited,
    SpeedRevealed,
    SpeedSet,
)
from domain.drachenreiter.state import Facing, Pose
from domain.drachenreiter.track import runs_backwards, track
from domain.kernel import Viewer
from domain.kernel.narration import Audience
from domain.kernel.picture import last_words
from tests.support.narrating import audience, choices, phrase, told

ANN = audience(RULESET, "standard")


def test_a_speed_and_a_laid_card_are_secret_until_shown() -> None:
    assert told(RULESET, SpeedSet(1, 500), ANN) == "Bruno set a secret speed."
    assert told(RULESET, SpeedSet(0, 500), ANN) == "You set your speed to 500."
    assert told(RULESET, CardLaid(1, Magic.LASSO), ANN) == "Bruno laid a card face down."
    assert phrase(RULESET, SetSpeed(500, Magic.FIREBALL_600), ANN, 1) == "set a secret speed"
    assert phrase(RULESET, SetSpeed(500, Magic.FIREBALL_600), ANN, 0) == "set speed 500 and lay Fireball (range 600)"
    assert told(RULESET, SpeedRevealed(1, 500), ANN) == "Bruno's dragon moves next: it was set to speed 500."


def test_a_flight_turns_in_whole_degrees() -> None:
    assert phrase(RULESET, Move(600, 15.0, -29.6), ANN, 0) == (
        "fly at speed 600, turning 15° left, then 30° right at the tip"
    )


def test_energy_lost_says_what_cost_it_naming_the_seats() -> None:
    lost = EnergyLost(0, 3, "template crash, collision with seat 1")
    assert told(RULESET, lost, ANN) == (
        "You lost three energy tokens: the template touched a border and a collision with Bruno's dragon."
    )


def test_the_move_controls_ask_for_a_flight_by_its_speed_and_its_turns_in_words() -> None:
    assert choices(RULESET, Move(600, 15.0, -30.0), ANN, 0) == [
        ("Speed", "speed 600"),
        ("Turn on setting off", "15° left"),
        ("Then at the tip", "30° right"),
    ]
    assert choices(RULESET, Move(600, 0.0, 0.0), ANN, 0)[1:] == [
        ("Turn on setting off", "straight on"),
        ("Then at the tip", "straight on"),
    ]
    assert choices(RULESET, SetSpeed(400, Magic.LASSO), ANN, 0) == [
        ("Speed", "speed 400"),
        ("Magic card to lay", "Lasso"),
    ]
    assert choices(RULESET, SetSpeed(400), ANN, 0)[1] == ("Magic card to lay", "no card")


def test_a_struck_dragon_is_named_as_a_dragon_whoever_reads() -> None:
    struck = DragonStruck(1, 0, Pose(0.0, 0.0, 0.0, 295.0))
    assert told(RULESET, struck, ANN).startswith("Bruno's dragon struck your dragon, which went back to ")
    watching = audience(RULESET, "standard", reader=None)
    assert told(RULESET, struck, watching, reader=None).startswith("Bruno's dragon struck ann's dragon, which went")


def test_a_debilitatus_says_what_it_is_and_what_a_second_one_does() -> None:
    """ "Debilitatus" is the rulebook's word; the log says what it means where it happens."""
    said = told(RULESET, Exhausted(1, (), Pose(0.0, 0.0, 0.0, 384.0)), ANN)
    assert said.startswith("Bruno's dragon could not pay its energy and took a Debilitatus"), said
    assert "a second one puts it out of the race" in said
    assert "at an energy field" in told(RULESET, DebilitatusLifted(1), ANN)
    assert "out of the race" in told(RULESET, DragonEliminated(1, ()), ANN)


def test_a_place_on_the_track_is_told_against_the_finish_where_the_race_is_known() -> None:
    """ "Landed 384 along the track" says little to a reader who cannot see where the finish is; the
    log knows the race's track, so it says how far there is still to go."""
    config = RULESET.configure("standard", None, 2)
    knowing = Audience(ANN.names, "standard", config)
    finish = track(config.options.track, runs_backwards(config.options.track, 2)).finish
    struck = DragonStruck(1, 0, Pose(0.0, 0.0, 0.0, 295.0))
    assert told(RULESET, struck, knowing).endswith(
        f"went back to 295 along the track, {round(finish - 295)} short of the finish."
    )
    over = DragonStruck(1, 0, Pose(0.0, 0.0, 0.0, finish + 10))
    assert told(RULESET, over, knowing).endswith("along the track, past the finish line.")
    assert told(RULESET, struck, ANN).endswith("went back to 295 along the track.")


def test_a_refused_alliance_is_told_as_a_choice_not_to_turn_it() -> None:
    """The answer's button says "do not turn the laid card"; the log and the board's caption
    tell it after the fact, as "chose not to turn", never "chose to do not turn"."""
    from services.reads.platform_words import PlatformWords

    words = PlatformWords(RULESET.narrator, ANN, {})
    refused = {"seat": 0, "move": {"type": "ally", "turn": False}}
    assert words.event("MoveMade", refused) == "You chose not to turn the laid card."
    turned = {"seat": 1, "move": {"type": "ally", "turn": True}}
    assert words.event("MoveMade", turned) == "Bruno chose to turn the forced alliance."
    caption = last_words({"seat": 0, "who": "You", "text": "do not turn the laid card"}, ())
    assert caption == "Last move: You chose not to turn the laid card."


@pytest.mark.parametrize("reader", [None, 0, 1])
def test_a_refused_alliance_never_calls_the_laid_card_a_forced_alliance(reader: int | None) -> None:
    """Rulebook: "Cette carte est retournée dès qu'un dragon adverse doit être bougé". Every dragon whose
    laid card lies face down is asked, a Lasso as much as a forced alliance, so a refusal tells of the
    laid card, never of a forced alliance: not while the race runs (the answer is secret, its owner
    reads it) nor after it (the audit showed "chose not to turn their forced alliance" for a Lasso)."""
    heard = audience(RULESET, "standard", reader=reader)
    for seat in (0, 1):
        said = told(RULESET, AllianceAnswered(seat, False), heard, reader)
        moved = phrase(RULESET, Ally(False), heard, seat, reader)
        assert "forced alliance" not in said and "forced alliance" not in moved
    after = AllianceAnswered(1, False).visible_data(Viewer.everyone())
    assert RULESET.narrator.event("AllianceAnswered", after, ANN) == "Bruno chose not to turn their laid card."
    assert told(RULESET, AllianceAnswered(1, False), ANN) == "Bruno answered in secret."
    assert told(RULESET, AllianceAnswered(0, False), ANN) == "You chose not to turn your laid card."
    assert phrase(RULESET, Ally(False), ANN, 0) == "do not turn the laid card"
    assert told(RULESET, AllianceAnswered(0, True), ANN) == "You chose to turn your forced alliance."
    assert choices(RULESET, Ally(False), ANN, 0) == [("The laid card", "do not turn it")]
    assert choices(RULESET, Ally(True), ANN, 0) == [("The laid card", "turn it as a forced alliance")]
    assert RULESET.narrator.kind("ally") == "Turn a laid forced alliance, or not"


def test_the_alliance_window_agrees_its_verb_with_you_and_with_a_name() -> None:
    """The audit read "Before you flies, ...": a sentence about the reader says "you fly", about
    another seat "Bruno flies"."""
    window = AllianceWindowOpened(0, (1,))
    assert told(RULESET, window, ANN) == "Before you fly, Bruno may turn a laid forced alliance."
    bruno = audience(RULESET, "standard", reader=1)
    assert told(RULESET, window, bruno, 1) == "Before ann flies, you may turn a laid forced alliance."
    assert (
        told(RULESET, AllianceWindowOpened(1, (0,)), ANN) == "Before Bruno flies, you may turn a laid forced alliance."
    )
    assert told(RULESET, HeadingAwaited(0, Facing.ALLIANCE), ANN) == (
        "You now turn your dragon to the heading you want."
    )
    assert told(RULESET, HeadingAwaited(1, Facing.ALLIANCE), ANN) == (
        "Bruno now turns their dragon to the heading they want."
    )


def test_a_flight_straight_on_is_not_told_as_a_turn() -> None:
    assert phrase(RULESET, Move(600, 0.0, 0.0), ANN, 0) == "fly at speed 600, straight on"
    assert phrase(RULESET, Move(600, 0.2, -15.0), ANN, 0) == "fly at speed 600, straight on, then 15° right at the tip"
    assert phrase(RULESET, Move(600, 15.0, 0.0), ANN, 0) == (
        "fly at speed 600, turning 15° left, then straight on at the tip"
    )
