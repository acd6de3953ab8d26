"""The pieces every board picture shares: contrast, the legend's words, the last decision."""

from __future__ import annotations

import pytest

from domain.kernel.picture import CHAR, contrast, ink_on, last_words, move_words, wrap


def test_contrast_follows_wcag() -> None:
    """WCAG 2.1: black on white is 21:1, a colour on itself 1:1."""
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#1e5bb8", "#1e5bb8") == pytest.approx(1)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize(("fill", "ink"), [("#f9d71c", "#000000"), ("#212121", "#ffffff"), ("#1e5bb8", "#ffffff")])
def test_text_is_black_or_white_whichever_reads_better(fill: str, ink: str) -> None:
    assert ink_on(fill) == ink


def test_a_hidden_field_is_named_without_its_value() -> None:
    move = {"type": "program", "cards": {"hidden": 5}, "note": None}
    assert move_words(move) == "program (cards hidden)"
    assert move_words({"type": "set_aside", "symbol": "red", "egg": False}) == "set aside (symbol red, egg no)"
    assert move_words({"type": "place_plank", "plank": "red-5", "ends": ["i7", "i17"]}) == (
        "place plank (plank red-5, ends [i7 i17])"
    )


def test_the_last_decision_says_who_did_what() -> None:
    colours = ("red", "blue")
    assert last_words(None, colours) == ""
    resigned = {"version": 12, "seat": 1, "kind": "resigned", "move": None}
    assert last_words(resigned, colours) == "Last move: seat 2 (blue) resigned."
    late = {"version": 30, "seat": 0, "kind": "timed_out", "move": {"type": "end_turn"}}
    assert last_words(late, colours) == "Last move: seat 1 (red) ran out of time; the server played ‘end turn’."


def test_the_last_decision_is_told_in_the_words_the_platform_gives() -> None:
    told = {"version": 30, "seat": 0, "kind": "move", "move": {"type": "end_turn"}, "who": "Bruno"}
    told["text"] = "end the turn"
    assert last_words(told, ("red",)) == "Last move: Bruno chose to end the turn."


def test_wrapped_lines_fit_and_join_back_to_the_words() -> None:
    words = "Programme of seat 1 (red): move-1, white-dragon, move-2, place-stone, place-2-planks, jump"
    lines = wrap(words, 200)
    assert len(lines) > 1 and "".join(lines) == words
    assert all(len(line.rstrip()) <= 200 / CHAR for line in lines)
    assert wrap("short", 200) == ["short"]
