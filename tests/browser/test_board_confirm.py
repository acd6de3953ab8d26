"""The board's own rule for a move that asks for its last click (``Pointing.confirm``).

The board plays a move as soon as the clicks made leave only it; a move that throws something away
(Seven Dragons' action card discarded without its effect) says ``confirm`` in its pose, and the board
then asks for its last click, or its button, instead. Checked on ``board.js`` alone, in a page of
two cards and a pile, so that the case comes every time (a dealt game brings it only by chance).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

STATIC = Path(__file__).resolve().parents[2] / "api" / "web" / "static"
BOARD = """
<div class="board" id="holder"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100" role="img">
  <rect data-ref="card:5" x="10" y="10" width="60" height="80"/>
  <rect data-ref="card:7" x="80" y="10" width="60" height="80"/>
  <rect data-ref="cell:0,1" x="150" y="10" width="60" height="80"/>
  <rect data-ref="pile:top" x="230" y="10" width="60" height="80"/>
</svg></div>
<div id="bar"></div>
"""
DISCARD = {"type": "discard_action", "card": 5}
PLACE = {"type": "place_dragon", "card": 7, "x": 0, "y": 1, "orientation": 0}


def _board(page: Page, poses: list[Any]) -> None:
    page.set_content(BOARD)
    page.add_script_tag(path=str(STATIC / "common.js"))
    page.add_script_tag(path=str(STATIC / "board.js"))
    page.evaluate(
        """([moves, poses]) => {
          window.played = [];
          window.DH.setMoveTexts(moves, ["discard the Zap a Card without its effect", "lay the dragon card"]);
          window.DHBoard.attach(document.getElementById("holder"), document.getElementById("bar"),
                                (m) => { window.played.push(m); return true; });
          window.DHBoard.arm(moves, [[["card:5", "pile:top"]], [["card:7", "cell:0,1"]]], poses);
        }""",
        [[DISCARD, PLACE], poses],
    )


def _confirm_poses() -> list[Any]:
    """The poses of these two moves as the server sends them: the discard asks (Seven Dragons'
    ``pointing``, checked in ``tests/unit/domain/seven_dragons/test_board_clicks.py``)."""
    return [{"confirm": True}, {"ghost": "card:7", "at": "cell:0,1", "turn": 0}]


def test_a_card_whose_only_move_throws_it_away_asks_for_the_pile_before_it_goes(page: Page) -> None:
    _board(page, _confirm_poses())
    page.locator("[data-ref='card:5']").click()
    assert page.evaluate("window.played") == [], "one click on the card threw it away"
    expect(page.locator("#bar")).to_contain_text("Discard the Zap a Card without its effect? Click the outlined place")
    expect(page.locator("[data-ref='pile:top']")).to_have_class("pickable")
    page.locator("[data-ref='pile:top']").click()
    assert page.evaluate("window.played") == [DISCARD]


def test_the_asked_move_is_also_a_button_and_start_again_keeps_the_card(page: Page) -> None:
    _board(page, _confirm_poses())
    page.locator("[data-ref='card:5']").click()
    page.get_by_role("button", name="Start again").click()
    assert page.evaluate("window.played") == []
    page.locator("[data-ref='card:5']").click()
    page.get_by_role("button", name="Discard the Zap a Card without its effect").click()
    assert page.evaluate("window.played") == [DISCARD]


@pytest.mark.parametrize("poses", [[], [None, {"ghost": "card:7", "at": "cell:0,1", "turn": 0}]])
def test_a_move_that_does_not_ask_is_played_by_the_click_that_leaves_it_alone(page: Page, poses: list[Any]) -> None:
    _board(page, poses)
    page.locator("[data-ref='card:7']").click()
    assert page.evaluate("window.played") == [PLACE]
