"""Following a game, as a person does in Chromium: the status line says whose turn it is after every
decision of a whole game and ends with it; the log read live (another seat's turn shown a line at a
time, skippable) is the log a reload shows; a clock that runs out leaves a notice that stays until it
is dismissed; and a turn that comes while the tab is in the background shows in its title and icon."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.pages import open_table, sign_up
from tests.browser.reading import register, sign_in
from tests.support.processes import Server

pytestmark = pytest.mark.slow
MOST = 300
"""Decisions a person may take in one game before the test gives up on its end."""
HIDE = """() => { Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange")); }"""
SHOW = """() => { Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
  document.dispatchEvent(new Event("visibilitychange")); }"""


def settled(page: Page) -> bool:
    """Waits until the page offers moves or says the game has ended; True while the game runs."""
    live = page.locator("#controls button:enabled").first
    ended = page.locator("#outcome:not([hidden])")
    expect(live.or_(ended)).to_be_visible(timeout=30_000)
    return not ended.is_visible()


def skip_pacing(page: Page) -> bool:
    """Shows every line now if the log is still pacing a turn ("Show all the moves now"); False when
    it caught up first (it does within ``CATCH_UP_MS``, ``log.js``): the button may go as it is found."""
    skip = page.locator("#log-skip")
    if not skip.is_visible():
        return False
    try:
        skip.click(timeout=1_000)
    except PlaywrightTimeoutError:
        return False
    return True


def the_log(page: Page) -> str:
    """The log's text once every line has been shown."""
    skip = page.locator("#log-skip")
    skip_pacing(page)
    expect(skip).to_be_hidden()
    expect(page.locator("#log .turn").first).to_be_visible()
    return page.locator("#log").inner_text()


def test_the_status_line_is_right_after_every_decision_and_the_log_survives_a_reload(
    page: Page, web_server: Server
) -> None:
    sign_up(page, web_server.base, "fay")
    open_table(page, "seven-dragons/full", 2, bot="seven-dragons/greedy")
    status, outcome = page.locator("#status-line"), page.locator("#outcome")
    skipped = False
    for _ in range(MOST):
        if not settled(page):
            break
        expect(status).to_have_text(re.compile(r"^Your turn"))
        assert "Waiting" not in page.locator("#turn").inner_text()
        page.locator("#controls button:enabled").first.click()
        if not skipped and skip_pacing(page):  # another seat's turn, shown a line at a time: skipped
            expect(page.locator("#log-skip")).to_be_hidden()
            skipped = True
    else:
        pytest.fail("the game did not end")
    expect(outcome).to_contain_text(re.compile(r"(won|shared the win): "))
    expect(status).to_be_hidden()
    expect(page.locator("#controls button")).to_have_count(0)
    expect(page.locator("#resign")).to_be_hidden()
    live = the_log(page)
    page.reload()
    expect(outcome).to_contain_text(re.compile(r"(won|shared the win): "))
    assert the_log(page) == live


def test_a_clock_that_runs_out_leaves_a_notice_until_it_is_dismissed(page: Page, web_server: Server) -> None:
    gus = register(web_server, "gus")
    sign_in(page, web_server.base, gus)
    clock = {"kind": "per_move", "seconds": 2, "timeout_policy": "auto"}
    status, game = web_server.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2, "time_control": clock},
                                   gus.token)  # fmt: skip
    assert status == 201, game
    web_server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, gus.token)
    web_server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "greedy"}, gus.token)
    page.goto(f"{web_server.base}/games/{game['id']}")
    expect(page.locator("#log")).to_contain_text("each turn has two seconds")
    notice = page.locator("#notices .notice-box").first
    expect(notice).to_contain_text(re.compile(r"You ran out of time; the server played '.+' for you\."), timeout=30_000)
    at = notice.get_attribute("data-version")
    read = page.locator(f'#notices .notice-box[data-version="{at}"]')
    read.get_by_role("button", name="Dismiss").click()
    expect(read).to_have_count(0)
    page.reload()
    expect(page.locator(f'#log li.notice[data-version="{at}"]')).to_be_visible()
    expect(page.locator("#notices .notice-box").first).to_be_visible()  # the later timeouts, still unread
    expect(read).to_have_count(0)


def test_a_turn_that_comes_while_the_tab_is_away_shows_in_its_title_and_icon(page: Page, web_server: Server) -> None:
    sign_up(page, web_server.base, "ida")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    title = page.title()
    icon = page.locator('link[rel="icon"]')
    page.get_by_text("Alerts when it is your turn").click()
    page.get_by_label("Play a sound").check()
    assert settled(page)
    page.evaluate(HIDE)
    for _ in range(MOST):
        page.locator("#controls button:enabled").first.click()
        if not settled(page) or page.title().startswith("(Your turn)"):
            break
    expect(page).to_have_title("(Your turn) " + title)
    expect(icon).to_have_attribute("href", re.compile("favicon-turn"))
    page.evaluate(SHOW)
    expect(page).to_have_title(title)
    expect(icon).to_have_attribute("href", re.compile(r"favicon\.svg"))
    page.reload()
    expect(page.get_by_label("Play a sound")).to_be_checked()
