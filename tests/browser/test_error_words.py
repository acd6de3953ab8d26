"""A page says what went wrong in a person's words, never the API's own message (which may name a
game by its id or an error by its code): a resignation refused, moves that could not be read."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Dialog, Page, Route, expect

from tests.browser.pages import open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
API_WORDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}|[a-z]+_[a-z_]+|\{|\bNone\b|undefined")
"""What only the API says: an id, a code, JSON."""


def refused(code: str, status: int = 409) -> object:
    def answer(route: Route) -> None:
        message = f"game 205bd073-4ba5-47c4-9805-6cb865385867 is finished; {code}"
        route.fulfill(status=status, json={"error": {"code": code, "message": message}})

    return answer


@pytest.mark.expect_http_error(409, "/resign")
def test_a_resignation_refused_is_told_in_words_and_the_page_reads_the_game_again(
    page: Page, web_server: Server
) -> None:
    sign_up(page, web_server.base, "dee resigns late")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    assert wait_for_turn_or_end(page)
    said: list[str] = []

    def answer(dialog: Dialog) -> None:
        said.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    page.route("**/api/v1/games/*/resign", refused("not_accepting_moves"))
    page.get_by_text("Resign", exact=True).click()
    with page.expect_response(re.compile(r"/api/v1/games/[0-9a-f-]{36}$")):  # the game read again
        page.get_by_role("button", name="Leave this game").click()
    assert said[-1] == "You could not leave the game: the game is not in play any more.", said
    assert not API_WORDS.search(said[-1])


@pytest.mark.expect_http_error(503, "/legal-moves")
def test_a_log_or_choices_that_cannot_be_read_say_so_without_the_server_s_message(
    page: Page, web_server: Server
) -> None:
    sign_up(page, web_server.base, "dee unread moves")
    open_table(page, "mekong/classic", 2, bot="mekong/planner")
    assert wait_for_turn_or_end(page)
    page.route("**/api/v1/games/*/legal-moves?*narrow=true*", refused("store_unavailable", 503))
    page.locator(".board-panel [data-ref].pickable").first.click(force=True)
    error = page.locator("#move-error")
    expect(error).to_contain_text("The next choices could not be read: the server could not answer just now")
    assert not API_WORDS.search(error.inner_text()), error.inner_text()


@pytest.mark.expect_http_error(400, "/games")
def test_a_refused_table_keeps_what_the_person_entered_and_says_why_in_words(page: Page, web_server: Server) -> None:
    sign_up(page, web_server.base, "dee invites a ghost")
    page.get_by_label("Game and variant").select_option("mekong/classic")
    page.get_by_label("Players", exact=True).fill("3")
    page.get_by_label("Clock").select_option("per_move")
    page.get_by_label("Invite people or bot accounts by name").fill("Nobody Here")
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("alert")).to_contain_text("Nobody is called “Nobody Here”: check the name.")
    expect(page.get_by_label("Game and variant")).to_have_value("mekong/classic")
    expect(page.get_by_label("Players", exact=True)).to_have_value("3")
    expect(page.get_by_label("Clock")).to_have_value("per_move")
    expect(page.get_by_label("Seconds for each move")).to_be_visible()
    expect(page.get_by_label("Invite people or bot accounts by name")).to_have_value("Nobody Here")
    page.goto(web_server.base + "/")  # a page that answers no refusal: the form starts afresh
    expect(page.get_by_label("Players", exact=True)).to_have_value("2")


@pytest.mark.expect_http_error(401, "/api/v1/")
def test_a_session_ended_in_another_tab_leaves_the_game_page_a_watchers_that_says_so(
    page: Page, browser: Browser, web_server: Server
) -> None:
    """Signed out elsewhere with the same cookie, a click on the board is refused "signed out": the
    header then offers to sign in, "Sending your move…" goes, and the log and the stream go on as a
    watcher's; a reload is a signed-out watcher's page, its log loaded and followed."""
    sign_up(page, web_server.base, "dee signed out elsewhere")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    assert wait_for_turn_or_end(page)
    elsewhere = browser.new_context()
    try:
        elsewhere.add_cookies(
            [{"name": c["name"], "value": c["value"], "url": web_server.base} for c in page.context.cookies()]
        )
        tab = elsewhere.new_page()
        tab.goto(web_server.base + "/")
        tab.get_by_role("button", name="Sign out").click()
        expect(tab.get_by_role("link", name="Sign in or sign up")).to_be_visible()
    finally:
        elsewhere.close()
    page.locator(".board-panel [data-ref].pickable").first.click(force=True)
    expect(page.locator("#move-error")).to_contain_text("you are signed out: sign in again")
    expect(page.locator("header .who")).to_contain_text("Sign in or sign up")
    expect(page.locator("header")).not_to_contain_text("Signed in as")
    expect(page.locator("#turn")).to_have_text("You are signed out: sign in again to play.")
    expect(page.locator("#live-state")).to_have_text(re.compile(r"^Live"))
    expect(page.locator("#log li").first).to_be_visible()
    page.reload()
    expect(page.get_by_role("link", name="Sign in or sign up")).to_be_visible()
    expect(page.get_by_text("watching")).to_be_visible()
    expect(page.locator("#log li").first).to_be_visible()
    expect(page.locator("#live-state")).to_have_text("Live.")
    assert "could not be loaded" not in page.locator(".game-log").inner_text()
