"""Every page speaks the game, not the API: read as people read them, in Chromium, the visible text
(``innerText``, the boards' words included) of every page has no id, JSON, Python literal, raw float,
seat counted from 0 or version number (``tests.support.page_text``; "step N" is how people name a
point of a game, and is allowed).

For each of the four games, two people play a table through the API; its pages are read as each seat,
as a signed-in spectator and signed out, while it runs (the game, every step of its replay, the audit
with a dispute's form open, the inbox) and once a resignation has ended it (the game, every step of
the replay, the audit); and the pages around games (lobby, profiles, leaderboards, tournaments)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.reading import Person, Reading, play, reader, register, table
from tests.support.processes import Server

pytestmark = pytest.mark.slow
GAMES = ["tarasque", "seven-dragons", "mekong", "drachenreiter"]
DECISIONS = 14
"""Decisions played before the running game's pages are read: a few turns of each game."""


def read_replay(page: Page, reading: Reading, who: str) -> int:
    """Reads every step of the replay, from the first to the last; returns how many there were."""
    label = page.locator("#step-label")
    expect(label).to_contain_text("Step 0 of")
    last = int(re.search(r"of (\d+)", label.inner_text()).group(1))  # type: ignore[union-attr]
    for step in range(last + 1):
        if step:
            page.keyboard.press("ArrowRight")
        expect(label).to_contain_text(f"Step {step} of")
        expect(page).to_have_url(re.compile(rf"step={step}$"))
        reading.read(page, who)
    return last


def read_game(browser: Browser, server: Server, gid: str, viewers: dict[str, Person | None], reading: Reading,
              every_step: set[str]) -> None:  # fmt: skip
    base = server.base
    for who, person in viewers.items():
        with reader(browser, base, person) as page:
            page.goto(f"{base}/games/{gid}")
            expect(page.locator("#log .turn").first).to_be_visible()
            expect(page.locator("#status-line, #outcome").locator("visible=true")).not_to_be_empty()
            reading.read(page, who)
            page.goto(f"{base}/games/{gid}/replay")
            if who in every_step:
                assert read_replay(page, reading, who) > 0
            else:
                expect(page.locator("#step-label")).to_contain_text("Step 0 of")
                reading.read(page, who)
            page.goto(f"{base}/games/{gid}/audit")
            expect(page.locator(".verdict")).to_be_visible()
            reading.read(page, who)
            if person is not None:
                page.goto(f"{base}/games/{gid}/audit?dispute=1#dispute-form")
                expect(page.locator("#dispute-form")).to_be_visible()
                reading.read(page, who)
                page.goto(f"{base}/inbox")
                reading.read(page, who)


@pytest.mark.parametrize("game", GAMES)
def test_no_page_of_a_game_shows_the_api_words_to_any_reader(browser: Browser, web_server: Server, game: str) -> None:
    ann, bea, cal = (register(web_server, f"{n} of {game[:4]}") for n in ("ann", "bea", "cal"))
    gid = table(web_server, game, [ann, bea])
    assert play(web_server, gid, [ann, bea], DECISIONS) > 0
    viewers: dict[str, Person | None] = {"seat 1": ann, "seat 2": bea, "a spectator": cal, "signed out": None}
    reading = Reading()
    read_game(browser, web_server, gid, viewers, reading, every_step={"seat 1", "seat 2", "a spectator"})

    status, body = web_server.call("POST", f"/api/v1/games/{gid}/resign", {}, bea.token)
    ended_by_itself = status == 409 and body["error"]["code"] == "not_accepting_moves"  # a short game, won
    assert status == 201 or ended_by_itself, body
    web_server.wait_status(gid, "finished")
    read_game(browser, web_server, gid, viewers, reading, every_step={"seat 1"})
    assert reading.pages > 20
    assert not reading.problems, "\n".join(reading.problems[:40])


def test_no_page_around_the_games_shows_the_api_words(browser: Browser, web_server: Server) -> None:
    dee, eve = register(web_server, "dee"), register(web_server, "eve")
    gid = table(web_server, "tarasque", [dee, eve])
    play(web_server, gid, [dee, eve], 6)
    web_server.call("POST", f"/api/v1/games/{gid}/resign", {}, eve.token)
    web_server.wait_status(gid, "finished")
    starts = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    status, cup = web_server.call("POST", "/api/v1/tournaments", {
        "name": "Spring cup", "game": "tarasque", "seats": 2, "format": "swiss", "rounds": 2, "capacity": 8,
        "starts_at": starts, "round_seconds": 3600}, dee.token)  # fmt: skip
    assert status == 201, cup
    web_server.call("POST", f"/api/v1/tournaments/{cup['id']}/registrations", {}, dee.token)
    reading = Reading()
    base = web_server.base
    pages = ["/", "/leaderboards", "/leaderboards/tarasque", "/tournaments", f"/tournaments/{cup['id']}",
             f"/players/{dee.id}", f"/players/{eve.id}", "/players/server-bot:greedy", "/signin"]  # fmt: skip
    for who, person in {"a player": dee, "signed out": None}.items():
        with reader(browser, base, person) as page:
            for path in pages + (["/inbox"] if person else []):
                page.goto(base + path)
                expect(page.locator("h1").first).to_be_visible()
                reading.read(page, who)
    assert not reading.problems, "\n".join(reading.problems[:40])
