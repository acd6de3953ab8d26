"""A whole game of each of the four games against a server bot, played by clicking the board only
(``board_play.py``): every decision the person makes is lit on the board and made there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.board_play import (
    CONFIRM,
    LIT,
    SENT,
    click_once,
    play_one_decision_on_the_board,
    play_to_the_end_on_the_board,
)
from tests.browser.pages import open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
Shoot = Callable[[Page, str], list[Path]]


# A move sent while the bot's move of a simultaneous phase (speeds, programmes) lands first is
# refused as "the game moved on" (409) and the page shows the game as it is now: the person plays again.
@pytest.mark.expect_http_error(409, "/moves")
@pytest.mark.parametrize(
    ("variant", "bot"),
    [
        ("tarasque/dragon-dice", "tarasque/greedy"),
        ("seven-dragons/full", "seven-dragons/greedy"),
        ("mekong/classic", "mekong/planner"),
        ("drachenreiter/standard", "drachenreiter/racer"),
    ],
)
def test_a_whole_game_is_played_by_clicking_the_board_only(
    page: Page, web_server: Server, variant: str, bot: str, shoot: Shoot
) -> None:
    sign_up(page, web_server.base, f"dee {variant.replace('/', ' ')}")
    open_table(page, variant, 2, bot=bot)
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    expect(page.locator(LIT).first).to_be_visible()
    shoot(page, f"board-play-{variant.split('/')[0]}")
    clicks = play_to_the_end_on_the_board(page)
    assert clicks, "the person made no decision"
    expect(page.locator("#outcome")).to_contain_text(re.compile(r"won|win|shared|draw", re.I))
    expect(page.locator(LIT)).to_have_count(0)


@pytest.mark.expect_http_error(409, "/moves")
def test_the_board_offers_nothing_while_the_page_reads_the_game_after_a_stale_move(
    page: Page, web_server: Server
) -> None:
    """A move refused because the game moved on (409) makes the page read the game again. Until
    that read is back the board lights nothing, so no click is taken and lost (the page once lit
    the old moves again at once, counted the next click as sent, and dropped it while it read);
    once back, the board's next move lands."""
    sign_up(page, web_server.base, "dee stale moves")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    expect(page.locator(LIT).first).to_be_visible()
    refused: list[Route] = []
    held: list[Route] = []

    def stale_once(route: Route) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route)
        route.fulfill(status=409, json={"error": {"code": "stale_version", "message": "the game moved on"}})

    def hold_reads(route: Route) -> None:
        if refused and route.request.method == "GET":
            held.append(route)  # answered below, once the board has been looked at
        else:
            route.continue_()

    page.route("**/api/v1/games/*/moves", stale_once)
    page.route(re.compile(r"/api/v1/games/[0-9a-f-]{36}$"), hold_reads)
    sent = page.evaluate(SENT)
    for _ in range(12):
        if page.evaluate(SENT) > sent:
            break
        click_once(page)
    expect(page.locator("#move-error")).to_contain_text("the game moved on")
    for _ in range(300):  # the page's read of the game, held above, leaves once the answer is shown
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not read the game again after its move was refused as stale"
    expect(page.locator(LIT).or_(page.locator(CONFIRM))).to_have_count(0)
    page.unroute("**/api/v1/games/*/moves")
    for route in held:
        route.continue_()
    assert play_one_decision_on_the_board(page) >= 1
