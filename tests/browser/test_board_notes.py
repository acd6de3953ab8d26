"""A click on the board that chooses nothing says why, under the board: a place that starts no
move, or a board with nothing to play (the move still on its way, another player's turn)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.board_play import LIT, hold_a_move_from_the_board
from tests.browser.pages import open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
NOTE = "#board-pick + .pick-note"


def click_the_board_away_from_every_move(page: Page) -> None:
    """Clicks the board picture's top-left corner, where no piece nor place lies."""
    page.locator("#board svg").click(position={"x": 3, "y": 3}, force=True)


def test_a_click_off_the_moves_says_so_and_a_board_with_nothing_to_play_says_why(
    page: Page, web_server: Server
) -> None:
    sign_up(page, web_server.base, "dee stray clicks")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    expect(page.locator(LIT).first).to_be_visible()
    expect(page.locator(NOTE)).to_be_hidden()
    version = page.locator("#version").inner_text()

    click_the_board_away_from_every_move(page)
    expect(page.locator(NOTE)).to_have_text("That is not one of your moves: the outlined places start a move.")
    assert page.locator("#version").inner_text() == version, "a stray click changed the game"

    held = hold_a_move_from_the_board(page)
    click_the_board_away_from_every_move(page)
    expect(page.locator(NOTE)).to_have_text(re.compile(r"^Nothing to play on the board now\. Sending your move"))
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/games/*/moves")
    expect(page.locator("#version")).not_to_have_text(version, timeout=15_000)


def test_what_was_chosen_on_the_board_is_said_in_words_not_counted(page: Page, web_server: Server) -> None:
    """A Seven Dragons card clicked in the hand is named under the board, as its picture names it."""
    sign_up(page, web_server.base, "dee names her card")
    open_table(page, "seven-dragons/full", 2, bot="seven-dragons/greedy")
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    card = page.locator('#board [data-ref^="card:"].pickable').first
    title = card.locator("title").first.text_content() or ""
    assert title, "a card in the hand is named in the picture"
    card.click(force=True)
    bar = page.locator("#board-pick .pick-help")
    # a dragon card reads "a blue dragon..." in the sentence, an action card keeps its name ("Trade Goals")
    expect(bar).to_contain_text(re.compile("Chosen: " + re.escape(title), re.IGNORECASE))
    expect(bar).not_to_contain_text("on the board.")
