"""Every page speaks the game, not the API: read as people read them, in Chromium, the visible text
(``innerText``, the boards' words included) of every page has no id, JSON, Python literal, raw float,
seat counted from 0 or version number (``tests.support.page_text``; "step N" is how people name a
point of a game, and is allowed).

For each of the four games, two people play a table through the API; its pages are read as each seat,
as a signed-in spectator and signed out, while it runs (the game, its replay, the audit with a
dispute's form open, the inbox) and once a resignation has ended it (the game, the replay, the audit);
and the pages around games (lobby, profiles, leaderboards, tournaments). The replay is stepped through
by keyboard from its first step to its last; ``make test`` reads step 0, the last step and the first
step of each kind of decision, move type and event type (``replay_sample``), ``--thorough`` every step.

The move controls' words are read at every decision of the keyboard's whole games
(``test_keyboard_play.py``, ``keyboard_play.control_faults``)."""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.reading import Person, Reading, play, reader, register, table
from tests.support.processes import Server
from tests.support.runs import thorough

pytestmark = pytest.mark.slow
GAMES = ["tarasque", "seven-dragons", "mekong", "drachenreiter"]
DECISIONS = 14
"""Decisions played before the running game's pages are read: a few turns of each game."""


def replay_sample(server: Server, gid: str, person: Person | None) -> set[int] | None:
    """The replay steps read as ``person``: every step with ``--thorough`` (None); else step 0, the
    last step, and the first step of each kind of decision, each move type and each event type the
    game has, so that every kind of sentence, title and board a replay shows is read at least once,
    and a step's other occurrences (the same words about other cards) are not read again."""
    if thorough():
        return None
    token = None if person is None else person.token
    status, log = server.call("GET", f"/api/v1/games/{gid}/log", token=token)
    assert status == 200, log
    status, listed = server.call("GET", f"/api/v1/games/{gid}/events", token=token)
    assert status == 200, listed
    type_at = {e["version"]: e["type"] for e in listed["events"]}
    first: dict[str, int] = {}
    for s in log["steps"]:
        shows = {f"kind {s.get('kind')}", f"move {(s.get('move') or {}).get('type')}"}
        shows |= {f"event {type_at[v]}" for v in range(s["version"], s["until"] + 1) if v in type_at}
        for what in shows:
            first.setdefault(what, s["step"])
    return {0, max(s["step"] for s in log["steps"]), *first.values()}


def read_replay(page: Page, reading: Reading, who: str, sample: set[int] | None) -> int:
    """Steps through the replay by keyboard from the first step to the last, and reads the steps of
    ``sample`` (all of them for None); returns how many steps there were."""
    label = page.locator("#step-label")
    expect(label).to_contain_text("Step 0 of")
    last = int(re.search(r"of (\d+)", label.inner_text()).group(1))  # type: ignore[union-attr]
    assert sample is None or last in sample, f"the replay has {last} steps, the log {max(sample)}"
    for step in range(last + 1):
        if step:
            page.keyboard.press("ArrowRight")
        expect(label).to_contain_text(f"Step {step} of")
        expect(page).to_have_url(re.compile(rf"step={step}$"))
        if sample is None or step in sample:
            reading.read(page, who)
    return last


def read_game(server: Server, gid: str, pages: dict[str, tuple[Page, Person | None]], reading: Reading,
              every_step: set[str]) -> None:  # fmt: skip
    base = server.base
    for who, (page, person) in pages.items():
        page.goto(f"{base}/games/{gid}")
        expect(page.locator("#log .turn").first).to_be_visible()
        expect(page.locator("#status-line, #outcome").locator("visible=true")).not_to_be_empty()
        reading.read(page, who)
        page.goto(f"{base}/games/{gid}/replay")
        if who in every_step:
            assert read_replay(page, reading, who, replay_sample(server, gid, person)) > 0
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
    """Each reader signs in once, in a browser of their own, and reads the game while it runs and
    once it has ended."""
    ann, bea, cal = (register(web_server, f"{n} of {game[:4]}") for n in ("ann", "bea", "cal"))
    gid = table(web_server, game, [ann, bea])
    assert play(web_server, gid, [ann, bea], DECISIONS) > 0
    viewers: dict[str, Person | None] = {"seat 1": ann, "seat 2": bea, "a spectator": cal, "signed out": None}
    reading = Reading()
    with ExitStack() as readers:
        pages = {who: (readers.enter_context(reader(browser, web_server.base, p)), p) for who, p in viewers.items()}
        read_game(web_server, gid, pages, reading, every_step={"seat 1", "seat 2", "a spectator"})

        status, body = web_server.call("POST", f"/api/v1/games/{gid}/resign", {}, bea.token)
        ended_by_itself = status == 409 and body["error"]["code"] == "not_accepting_moves"  # a short game, won
        assert status == 201 or ended_by_itself, body
        web_server.wait_status(gid, "finished")
        read_game(web_server, gid, pages, reading, every_step={"seat 1"})
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
    bots, _ = web_server.bot_game("tarasque", 2, bot="greedy")  # seats, log and result name them by level
    web_server.wait_status(bots, "finished")
    reading = Reading()
    base = web_server.base
    pages = ["/", "/leaderboards", "/leaderboards/tarasque", "/tournaments", f"/tournaments/{cup['id']}",
             f"/players/{dee.id}", f"/players/{eve.id}", "/players/server-bot:greedy", "/signin",
             f"/games/{bots}", f"/games/{bots}/replay?step=3"]  # fmt: skip
    for who, person in {"a player": dee, "signed out": None}.items():
        with reader(browser, base, person) as page:
            for path in pages + (["/inbox"] if person else []):
                page.goto(base + path)
                expect(page.locator("h1").first).to_be_visible()
                reading.read(page, who)
    assert not reading.problems, "\n".join(reading.problems[:40])
