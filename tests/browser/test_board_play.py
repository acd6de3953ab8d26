"""A whole game of each of the four games against a server bot, played by clicking the board only
(``board_play.py``): every decision the person makes is lit on the board and made there."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.browser.board_play import (
    CLICKS,
    CONFIRM,
    LIT,
    SENT,
    click_once,
    play_one_decision_on_the_board,
    play_to_the_end_on_the_board,
)
from tests.browser.pages import WHOLE_GAMES, open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
WORDS_READ = "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('words=true')).length"
"""How many pages of legal moves with their words the page has read since it opened."""
Shoot = Callable[[Page, str], list[Path]]


# A move sent while the bot's move of a simultaneous phase (speeds, programmes) lands first is
# refused as "the game moved on" (409) and the page shows the game as it is now: the person plays again.
@pytest.mark.expect_http_error(409, "/moves")
@pytest.mark.parametrize(
    ("variant", "bot"),
    WHOLE_GAMES,
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


def ghost_at(page: Page, cell: Locator) -> str:
    """The turn of the ghost drawn while the pointer is over ``cell`` (its ``transform``)."""
    cell.hover(force=True)
    ghost = page.locator(".board-panel .ghost.hover")
    expect(ghost).to_have_count(1)
    return ghost.get_attribute("transform") or ""


@pytest.mark.expect_http_error(409, "/moves")
def test_a_seven_dragons_card_is_laid_the_way_up_its_ghost_shows_where_it_fits_both_ways(
    page: Page, web_server: Server
) -> None:
    """A card of the hand that fits a cell either way up is laid by two clicks, the card and the
    cell, the way up its ghost shows there; "Turn the card" first shows and lays it the other way."""
    sign_up(page, web_server.base, "dee seven ways up")
    open_table(page, "seven-dragons/full", 2, bot="seven-dragons/greedy")
    turn_it = page.locator("#board-pick").get_by_role("button", name="Turn the card")
    for _ in range(12):
        assert wait_for_turn_or_end(page), "the game ended before a card fitting both ways came"
        hand = page.locator(".board-panel [data-ref^='card:'].pickable")
        expect(hand.first).to_be_visible()
        version, sent = page.locator("#version").inner_text(), page.evaluate(SENT)
        for k in range(hand.count()):
            card = hand.nth(k).get_attribute("data-ref")
            hand.nth(k).click(force=True)
            if turn_it.is_visible() or page.evaluate(SENT) > sent:
                break
            page.locator("#board-pick").get_by_role("button", name="Start again").click()
        else:
            play_one_decision_on_the_board(page)
            continue
        if page.evaluate(SENT) > sent:  # a card with one move only: played by its click
            expect(page.locator("#version")).not_to_have_text(version)
            continue
        cells = page.locator(".board-panel [data-ref^='cell:'].pickable")
        before = [ghost_at(page, cells.nth(c)) for c in range(cells.count())]
        turn_it.click()
        after = [ghost_at(page, cells.nth(c)) for c in range(cells.count())]
        both = [c for c in range(len(after)) if after[c] != before[c]]
        assert both, "the card was said to fit both ways up, but no cell's ghost turned"
        cell, degrees = cells.nth(both[0]), re.search(r"rotate\((\d+)\)", after[both[0]]).group(1)  # type: ignore[union-attr]
        cell.hover(force=True)
        version, sent, clicks = page.locator("#version").inner_text(), page.evaluate(SENT), page.evaluate(CLICKS)
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as answer:
            cell.click(force=True)
        assert page.evaluate(SENT) == sent + 1, "the click on the cell did not lay the card"
        assert page.evaluate(CLICKS) == clicks + 1
        assert answer.value.status == 201, answer.value.text()
        move = json.loads(answer.value.request.post_data or "{}")["move"]
        # the move as sent: the bot may move the card on before a test could read the board
        assert (move["card"], move["orientation"]) == (int(str(card).split(":")[1]), int(degrees)), move
        expect(page.locator("#version")).not_to_have_text(version)
        return
    raise AssertionError("no card of the hand fitted a cell both ways up in 12 decisions")


def click_lit(page: Page, times: int) -> None:
    """Clicks lit elements of the board ``times`` times, again where one went away under the
    pointer as the board was drawn anew."""
    clicked = 0
    for _ in range(times * 5):
        clicked += click_once(page)
        if clicked == times:
            return
    raise AssertionError(f"{clicked} of {times} clicks on the board landed")


def test_a_programme_half_chosen_on_the_board_stands_while_another_seat_programmes(
    page: Page, web_server: Server
) -> None:
    """Mékong's seats programme at once. Another seat's programme is a new version of the game, but
    not of this seat's 15,120 programmes: the cards a person has picked stay picked, the page does
    not read the moves again, and the programme, finished, is played at the new version."""
    status, other = web_server.call("POST", "/api/v1/players", {"name": "eve programmes"})
    assert status == 201, other
    status, game = web_server.call("POST", "/api/v1/games", {"game": "mekong", "players": 2}, other["token"])
    assert status == 201, game
    gid = game["id"]
    assert web_server.call("POST", f"/api/v1/games/{gid}/seats", {}, other["token"])[0] == 201
    sign_up(page, web_server.base, "dee programmes")
    page.goto(f"{web_server.base}/games/{gid}")
    page.get_by_role("button", name="Take a seat").click()
    assert wait_for_turn_or_end(page)
    expect(page.locator(LIT).first).to_be_visible()
    click_lit(page, 2)
    expect(page.locator(".pick-badge")).to_have_count(2)
    expect(page.locator(LIT).first).to_be_visible()  # the programmes that begin so are listed: lit again
    read = page.evaluate(WORDS_READ)
    version = page.locator("#version").inner_text()

    status, listed = web_server.call("GET", f"/api/v1/games/{gid}/legal-moves?limit=1", None, other["token"])
    assert status == 200 and listed["total"] > 1000, listed
    status, made = web_server.call("POST", f"/api/v1/games/{gid}/moves", {"move": listed["moves"][0]}, other["token"])
    assert status == 201, (made, listed)
    expect(page.locator("#version")).not_to_have_text(version)

    expect(page.locator(".pick-badge")).to_have_count(2)
    assert page.evaluate(WORDS_READ) == read
    sent = page.evaluate(SENT)
    click_lit(page, 3)
    assert page.evaluate(SENT) == sent + 1
    expect(page.locator("#log")).to_contain_text("You programmed Place", timeout=10_000)
    expect(page.locator("#move-error")).to_be_hidden()


def test_a_step_asked_for_is_asked_once_however_often_its_button_is_pressed(page: Page, web_server: Server) -> None:
    """A programme is chosen card by card, each card's Choose asking the server for the next. Pressed
    again before the answer (a key held, a slow server), the controls are disabled: a second asking
    would cancel the first, and a person pressing on could never get an answer that stands."""
    asked: list[str] = []

    def slowly(route: Route) -> None:
        asked.append(route.request.url)
        page.wait_for_timeout(400)
        route.continue_()

    sign_up(page, web_server.base, "dee steps")
    open_table(page, "mekong/classic", 2, bot="mekong/planner")
    choose = page.locator("#controls").get_by_role("button", name="Choose", exact=True)
    expect(choose).to_be_enabled(timeout=30_000)
    page.route(re.compile(r".*/legal-moves\?.*narrow=true.*"), slowly)
    choose.focus()
    page.keyboard.press("Enter")
    expect(choose).to_be_disabled()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    expect(page.locator("#controls")).to_contain_text("Chosen so far")
    assert len(asked) == 1, asked


@pytest.mark.expect_http_error(503, "/legal-moves")
def test_a_step_that_cannot_be_read_says_so_and_offers_the_first_step_again(page: Page, web_server: Server) -> None:
    """A card chosen, the server does not answer its next step: the page says so in words and
    offers the programme's first card again, rather than leave the board dark and the controls off."""
    failed: list[str] = []

    def once_unavailable(route: Route) -> None:
        if failed:
            route.continue_()
            return
        failed.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body=json.dumps({"error": {"code": "unavailable", "message": "try again"}}))  # fmt: skip

    sign_up(page, web_server.base, "dee step lost")
    open_table(page, "mekong/classic", 2, bot="mekong/planner")
    expect(page.locator(LIT).first).to_be_visible(timeout=30_000)
    page.route(re.compile(r".*/legal-moves\?.*narrow=true.*chosen=hand.*"), once_unavailable)
    click_lit(page, 1)
    expect(page.locator("#move-error")).to_contain_text("The next choices could not be read")
    expect(page.locator("#controls")).to_contain_text("First card")
    expect(page.locator(LIT).first).to_be_visible()
    expect(page.locator(".pick-badge")).to_have_count(0)
    assert len(failed) == 1
