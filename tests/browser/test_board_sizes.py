"""Boards people can read: at 1440×900 and at 375×812, for every game at its largest table, the
smallest text drawn on the board, as it is played and in its replay, is at least 11 CSS pixels,
and on the phone the board and what the viewer plays with (the lit board and its own choices) are
in view together, with the move controls right below the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from domain.kernel import find_game
from tests.browser.reading import Person, play, reader, register, table
from tests.support.processes import Server

pytestmark = pytest.mark.slow
SIZES = ((1440, 900), (375, 812))
SMALLEST = 11.0
"""The least size of board text a person reads without zooming, in CSS pixels."""
GAMES = ("tarasque", "seven-dragons", "mekong", "drachenreiter")

SMALLEST_TEXT = """() => {
  const sizes = [...document.querySelectorAll("#board svg text")]
    .filter((t) => t.getBBox().width > 0 && t.textContent.trim())
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return sizes.length ? Math.min(...sizes) : null;
}"""
"""The rendered size of the board's smallest text: its font size times the scale it is drawn at."""

TOGETHER = """() => {
  const board = document.querySelector("#board").getBoundingClientRect();
  const choices = document.querySelector("#board-pick").getBoundingClientRect();
  const shown = Math.min(board.bottom, innerHeight) - Math.max(board.top, 0);
  return shown >= 0.4 * innerHeight && choices.top >= 0 && choices.bottom <= innerHeight;
}"""
"""Whether the board shows on at least 40% of the screen with all its choices in view below it."""

CONTROLS_GAP = """() => document.querySelector("#controls").getBoundingClientRect().top -
  document.querySelector(".board-panel").getBoundingClientRect().bottom"""
"""How far below the board the move controls (the keyboard's way to play) begin, in CSS pixels."""
NEXT_TO_THE_BOARD = 200
"""The most a phone may put between the board and the move controls: their heading and the turn's line."""


def until_awaited(server: Server, gid: str, people: list[Person]) -> None:
    """Plays the others' decisions until the first person has one to make."""
    for _ in range(200):
        status, legal = server.call("GET", f"/api/v1/games/{gid}/legal-moves?limit=1", token=people[0].token)
        if status == 200 and legal["total"]:
            return
        assert play(server, gid, people[1:], 1), "nobody could play and the first person was not awaited"
    raise AssertionError("the first person was never awaited")


def smallest_text(page: Page) -> float:
    size = page.evaluate(SMALLEST_TEXT)
    assert size is not None, "the board has no text"
    return float(size)


@pytest.mark.parametrize("game", GAMES)
def test_board_text_is_readable_and_the_board_and_its_choices_fit_a_phone(
    browser: Browser, web_server: Server, game: str
) -> None:
    seats = find_game(game).variants[0].max_seats
    people = [register(web_server, f"sizes {game} {i}") for i in range(seats)]
    gid = table(web_server, game, people)
    play(web_server, gid, people, decisions=seats)
    until_awaited(web_server, gid, people)
    with reader(browser, web_server.base, people[0]) as page:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{web_server.base}/games/{gid}")
            expect(page.locator("#board svg")).to_be_visible()
            size = smallest_text(page)
            where = f"{game}, {seats} seats, at {width}×{height}"
            assert round(size, 1) >= SMALLEST, f"{where}: board text of {size:.1f} px"
        expect(page.locator(".board-panel [data-ref].pickable").first).to_be_visible()
        assert page.evaluate(TOGETHER), f"{game}: on a phone the board and its choices are not in view together"
        expect(page.locator("#controls fieldset").first).to_be_visible()
        gap = page.evaluate(CONTROLS_GAP)
        assert gap <= NEXT_TO_THE_BOARD, f"{game}: on a phone the move controls begin {gap:.0f} px below the board"
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{web_server.base}/games/{gid}/replay?step=1")
            expect(page.locator("#step-label")).to_contain_text("Step 1 of")
            expect(page.locator("#board svg")).to_be_visible()
            size = smallest_text(page)
            where = f"{game}'s replay, {seats} seats, at {width}×{height}"
            assert round(size, 1) >= SMALLEST, f"{where}: board text of {size:.1f} px"
