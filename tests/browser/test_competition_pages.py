"""The competition pages in a real browser: a profile, the leaderboards and the tournaments pass
axe-core and fit at 375 px; a person announces a tournament and registers for it by clicking."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import sign_up
from tests.browser.test_web_client import A11y, Shoot, check_page
from tests.support.processes import Server

pytestmark = pytest.mark.slow


def rated_bot_game(server: Server) -> str:
    """A Tarasque game between two different server bots (so it is rated), played to its end."""
    status, owner = server.call("POST", "/api/v1/players", {"name": "organiser"})
    assert status == 201, owner
    status, game = server.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, owner["token"])
    assert status == 201, game
    for bot in ("greedy", "random"):
        status, body = server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": bot}, owner["token"])
        assert status == 201, body
    server.wait_status(game["id"])
    return str(game["id"])


def test_the_profile_and_leaderboard_pages_pass_axe_and_fit_a_phone(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    game_id = rated_bot_game(web_server)
    page.goto(f"{base}/")
    page.get_by_role("link", name="Leaderboards").click()
    expect(page.get_by_role("heading", name="Leaderboards")).to_be_visible()
    check_page(page, "leaderboards", shoot, check_a11y)
    page.get_by_role("link", name="Tarasque").click()
    board = page.get_by_role("region", name="Bots").first  # a young server's board lists provisional ratings
    expect(board.get_by_role("link", name="Level 3 bot")).to_be_visible()  # greedy, named by its level
    check_page(page, "leaderboard", shoot, check_a11y)

    board.get_by_role("link", name="Level 3 bot").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Level 3 bot a server bot")  # as the board names it
    expect(page).to_have_title("Level 3 bot · Dragonhall")
    expect(page.get_by_text("Level 3 of Tarasque:")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text(re.compile("greedy", re.I))
    expect(page.get_by_text("Dragonhall server")).to_be_visible()
    played = page.locator(f'a[href="/games/{game_id}"]')  # named by its game in words: "Tarasque"
    expect(played).to_have_text("Tarasque")
    check_page(page, "profile-server-bot", shoot, check_a11y)
    played.click()
    page.wait_for_url(f"{base}/games/{game_id}")


def test_a_person_announces_a_tournament_and_registers_for_it_by_clicking(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    page.goto(f"{base}/tournaments")
    check_page(page, "tournaments-signed-out", shoot, check_a11y)
    sign_up(page, base, "tess")
    page.get_by_role("link", name="Tournaments").click()
    check_page(page, "tournaments", shoot, check_a11y)

    starts = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label("Name", exact=True).fill("autumn cup")
    page.get_by_label("Game and variant").select_option("seven-dragons/basic")
    page.get_by_label("Seats per table").fill("3")
    page.get_by_label(re.compile("^Starts at")).fill(starts)  # the browser's time zone (the tests' is UTC)
    page.get_by_role("button", name="Announce the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", name=re.compile("autumn cup"))).to_be_visible()
    check_page(page, "tournament-open", shoot, check_a11y)

    page.get_by_role("button", name="Register for this tournament").click()
    expect(page.get_by_text("You are registered.")).to_be_visible()
    standings = page.get_by_role("region", name="Standings")
    expect(standings.get_by_role("link", name="tess")).to_be_visible()
    check_page(page, "tournament-registered", shoot, check_a11y)

    standings.get_by_role("link", name="tess").click()
    expect(page.get_by_role("heading", name=re.compile("tess"))).to_be_visible()
    check_page(page, "profile", shoot, check_a11y)
