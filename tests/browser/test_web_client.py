"""The web client, tried as a person would, by clicking in a real browser: sign up, open a table
against a server bot, play it to the end, replay it, dispute a past version; one decision of each
other game; a spectator watching a game move without reloading. Every page is checked for
accessibility (axe-core) and saved at a desktop and a phone width; the guard fails a test on any
console error or failed request."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.browser.guard import PageGuard
from tests.browser.pages import open_table, play_one_decision, play_to_the_end, sign_up, wait_for_turn_or_end
from tests.support.names import fresh
from tests.support.processes import Server

pytestmark = pytest.mark.slow
Shoot = Callable[[Page, str], list[Path]]
A11y = Callable[[Page], None]


WIDEST = """(width) => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > width + 1 || e.scrollWidth > width + 1).slice(-3)
  .map((e) => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))"""
"""The innermost elements that reach past the window's right edge, to name the culprit."""


def fits_the_width(page: Page, width: int) -> None:
    """At ``width`` the page scrolls only down: nothing wider than the window."""
    page.set_viewport_size({"width": width, "height": 800})
    overflow = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(WIDEST, width)
    assert overflow <= width, f"{page.url} is {overflow} px wide at {width} px: {wide}"
    page.set_viewport_size({"width": 1440, "height": 900})


def check_page(page: Page, name: str, shoot: Shoot, check_a11y: A11y) -> None:
    check_a11y(page)
    fits_the_width(page, 375)
    shoot(page, name)


def test_a_person_plays_tarasque_against_a_bot_replays_and_disputes_it(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    page.goto(f"{base}/")
    check_page(page, "lobby-signed-out", shoot, check_a11y)
    page.get_by_role("link", name="Tarasque", exact=True).first.click()  # "How to play: Tarasque · ..."
    expect(page.get_by_role("heading", name="How to play Tarasque")).to_be_visible()
    page.get_by_text("Where it comes from").first.click()
    expect(page.locator("blockquote").first).to_be_visible()
    check_page(page, "rules", shoot, check_a11y)
    sign_up(page, base, "ann")
    check_page(page, "lobby", shoot, check_a11y)

    game_id = open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy", clock="per_move")
    expect(page.get_by_role("heading", name=re.compile("Tarasque"))).to_be_visible()
    expect(page.locator("#board svg")).to_be_visible()
    assert wait_for_turn_or_end(page)
    expect(page.locator("#clocks")).to_contain_text("You (teal)")
    check_page(page, "game-my-turn", shoot, check_a11y)
    played = play_to_the_end(page)
    assert played > 0
    expect(page.locator("#outcome")).to_contain_text(re.compile("won|shared the win"))
    expect(page.locator("#live-state")).to_have_text("This game has ended.")
    check_page(page, "game-ended", shoot, check_a11y)

    page.get_by_role("link", name="Replay").click()
    label = page.locator("#step-label")
    expect(label).to_contain_text("Step 0 of")
    expect(page).to_have_url(re.compile(r"step=0$"))
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("Step 1 of")
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text("Step 0 of")
    page.keyboard.press("End")
    expect(label).to_contain_text(re.compile(r"Step (\d+) of \1"))
    expect(page.locator("#board svg")).to_be_visible()
    assert page.evaluate("window.scrollY") == 0, "the list of moves scrolls to the step, not the window"
    page.keyboard.press("Home")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("Step 6 of")
    expect(page).to_have_url(re.compile(r"step=6$"))
    expect(page.locator("#events li").first).to_be_visible()
    page.get_by_role("list", name="Every step of the game").get_by_role("link").nth(3).click()
    expect(label).to_contain_text("Step 3 of")
    check_page(page, "replay", shoot, check_a11y)
    page.reload()
    expect(label).to_contain_text("Step 3 of")
    last = int(label.inner_text().rsplit(" ", 1)[1])
    page.goto(re.sub(r"step=\d+$", "step=9999", page.url))  # past the end: the last step, not the start
    expect(label).to_contain_text(f"Step {last} of {last}")
    page.goto(re.sub(r"step=\d+$", "step=3", page.url))
    expect(label).to_contain_text("Step 3 of")

    page.get_by_role("link", name="Dispute this step").click()
    expect(page.locator("#d-step")).to_have_value("3")
    expect(page.get_by_role("link", name="Download the signed record")).to_be_visible()
    expect(page.locator(".verdict")).to_contain_text("Verified")
    claim = page.get_by_label("What you claim, in words")
    claim.fill("Another move should have been allowed here.")
    page.locator("#d-step").fill("4")
    claim.focus()  # the step changed: the page is drawn again for its moves, the claim typed kept
    expect(page).to_have_url(re.compile(r"dispute=4#dispute-form$"))
    expect(page.locator("#d-step-title")).to_contain_text("Step 4:")
    expect(claim).to_have_value("Another move should have been allowed here.")
    choices = page.get_by_label("Moves", exact=True)
    expect(choices.locator("option").first).not_to_have_text("Loading the moves…")
    choices.select_option(index=0)
    expect(page.locator("#d-chosen")).to_contain_text("You chose:")
    page.get_by_role("button", name="Open the dispute").click()
    dispute = page.locator("article.dispute").first
    expect(dispute).to_contain_text("Another move should have been allowed here.")
    expect(dispute).to_contain_text(re.compile(r"Opened .* UTC by you \("))  # its opener, by the seat they read
    expect(dispute.locator(".answer")).to_contain_text(re.compile("Legal|cannot"))
    expect(dispute.get_by_role("link", name="Play it out in the dispute's sandbox")).to_be_visible()
    check_page(page, "audit", shoot, check_a11y)

    page.goto(f"{base}/inbox")
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page.locator(f'a[href="/games/{game_id}"]')).to_be_visible()
    expect(page.get_by_role("region", name="Your turn")).to_contain_text("No game awaits you.")
    check_page(page, "inbox", shoot, check_a11y)


@pytest.mark.parametrize(
    "variant",
    ["seven-dragons/full", "mekong/classic", "drachenreiter/standard"],
)
def test_a_decision_of_each_other_game_is_played_through_the_page(
    page: Page, web_server: Server, variant: str, shoot: Shoot, check_a11y: A11y
) -> None:
    sign_up(page, web_server.base, f"bea {variant.replace('/', ' ')}")  # names are unique
    open_table(page, variant, 2)
    expect(page.locator("#board svg")).to_be_visible()
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    check_page(page, f"game-{variant.split('/')[0]}", shoot, check_a11y)
    before = play_one_decision(page)
    assert int(page.locator("#version").inner_text()) > before
    expect(page.locator("#move-error")).to_be_hidden()


def test_a_decision_can_be_played_with_the_keyboard_alone(page: Page, web_server: Server) -> None:
    sign_up(page, web_server.base, "cai")
    open_table(page, "tarasque/dragon-dice", 2)
    assert wait_for_turn_or_end(page)
    version = page.locator("#version").inner_text()
    first = page.locator("#controls button").first
    first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#version")).not_to_have_text(version)


@pytest.mark.parametrize("transport", ["stream", "polling"])
def test_a_spectator_watches_a_running_game_move_without_reloading(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y, transport: str
) -> None:
    """A person plays through the API; a signed-out spectator's page follows each move live, from
    the stream, or by long polling in a browser that cannot hold one."""
    if transport == "polling":
        page.add_init_script("delete window.EventSource;")
    st, ann = web_server.call("POST", "/api/v1/players", {"name": f"dee {transport}"})  # names are unique
    token = ann["token"]
    st, game = web_server.call("POST", "/api/v1/games", {"game": "seven-dragons", "players": 2}, token)
    gid = game["id"]
    web_server.call("POST", f"/api/v1/games/{gid}/seats", {}, token)
    web_server.call("POST", f"/api/v1/games/{gid}/seats", {"bot": "random"}, token)

    page.goto(f"{web_server.base}/games/{gid}")
    expect(page.get_by_text("watching")).to_be_visible()
    expect(page.locator("#live-state")).to_have_text("Live." if transport == "stream" else "Live (polling).")
    if transport == "stream":
        check_page(page, "watch", shoot, check_a11y)
    for _ in range(2):
        st, legal = web_server.call("GET", f"/api/v1/games/{gid}/legal-moves", token=token)
        assert st == 200 and legal["moves"], legal
        move = {"move": legal["moves"][0], "expected_version": legal["version"]}
        st, result = web_server.call("POST", f"/api/v1/games/{gid}/moves", move, token)
        assert st == 201, result
        expect(page.locator("#version")).not_to_have_text(str(legal["version"]))
        expect(page.locator("#log li").first).to_be_visible()
        _wait_for_the_person(web_server, gid, token)
    assert page.locator("#controls").count() == 0, "a spectator has no controls"


def _wait_for_the_person(server: Server, gid: str, token: str) -> None:
    """Waits until the bot has answered and the person is awaited again (or the game has ended)."""
    import time

    deadline = time.time() + 30
    while time.time() < deadline:
        st, legal = server.call("GET", f"/api/v1/games/{gid}/legal-moves", token=token)
        if st == 200 and legal["moves"]:
            return
        st, doc = server.call("GET", f"/api/v1/games/{gid}")
        if doc["status"] != "active":
            return
        time.sleep(0.1)
    raise AssertionError("the person was not awaited again")


def test_a_page_that_does_not_exist_answers_a_page(page: Page, web_server: Server, guard: PageGuard) -> None:
    guard.expect_http_error(404, "/games/no-such-game")
    page.goto(f"{web_server.base}/games/no-such-game")
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()


def test_sign_in_with_a_token_and_sign_out(
    browser: Browser, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    name = fresh("eve")  # the server is the session's: another test has an "eve"
    _, eve = web_server.call("POST", "/api/v1/players", {"name": name})
    guard = PageGuard()
    page = open_page(browser, guard)
    try:
        page.goto(f"{web_server.base}/signin")
        check_page(page, "signin", shoot, check_a11y)
        page.get_by_text("Sign in with a token (for bots and scripts)").click()  # opens the disclosure
        page.get_by_label("Token", exact=True).fill(eve["token"])
        page.get_by_role("button", name="Sign in with the token").click()
        expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()
        cookie = next(c for c in page.context.cookies() if c["name"] == "dragonhall_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("link", name="Sign in or sign up")).to_be_visible()
        guard.check()
    finally:
        page.context.close()
