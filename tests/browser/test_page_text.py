"""Every page speaks the game, not the API: read as people read them, in Chromium, the visible text
(``innerText``, the boards' words included) of every page has no id, JSON, Python literal, raw float,
seat counted from 0 or version number (``tests.support.page_text``; "step N" is how people name a
point of a game, and is allowed).

For each of the four games, two people play a table through the API; its pages are read as each seat,
as a signed-in spectator and signed out, while it runs (the game, every step of its replay, the audit
with a dispute's form open, the inbox) and once a resignation has ended it (the game, every step of
the replay, the audit); and the pages around games (lobby, profiles, leaderboards, tournaments).

The move controls (the keyboard and screen-reader path) are read through whole games of each game,
played by the keyboard against a server bot: at every decision, every label, legend, option and
button of the controls reads in the game's words, never a move's type or field name ("place dragon",
"orientation", "cards 1"), a JSON literal, a bare coordinate ("x -1"), a bare number or "none"."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.keyboard_play import play_one_decision_by_keyboard, wait_for_controls_or_end
from tests.browser.pages import WHOLE_GAMES, open_table, sign_up
from tests.browser.reading import Person, Reading, play, reader, register, table
from tests.support.page_text import machine_words
from tests.support.processes import Server

pytestmark = pytest.mark.slow
GAMES = ["tarasque", "seven-dragons", "mekong", "drachenreiter"]
DECISIONS = 14
"""Decisions played before the running game's pages are read: a few turns of each game."""


CONTROL_WORDS = """() => {
  const schema = (JSON.parse(document.getElementById("page-data").textContent).move_schema || {}).$defs || {};
  const fields = new Set(Object.values(schema).flatMap((d) => Object.keys(d.properties || {})));
  const texts = Array.from(document.querySelectorAll(
    "#controls label, #controls legend, #controls option, #controls button"),
    (e) => ({ tag: e.tagName.toLowerCase(), text: e.textContent.trim() }));
  const spaced = (names) => [...names].map((f) => f.replace(/[_-]+/g, " "));
  return { fields: spaced(fields), types: spaced(Object.keys(schema)), texts };
}"""
"""Every word of the move controls (with the move schema's field names, to tell one when read)."""
RAW_CONTROL_WORDS: dict[str, re.Pattern[str]] = {
    "a field name in snake_case": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a JSON literal": re.compile(r"\b(null|true|false)\b|[\[\]{}]"),
    "a bare coordinate": re.compile(r"\b[xy]\s*[:=]?\s*-?\d"),
    "'none'": re.compile(r"\bnone\b", re.I),
    "a bare number": re.compile(r"^-?\d+(\.\d+)?$"),
}


def control_faults(page: Page) -> list[str]:
    """What the move controls show that is not the game's words: the patterns above, the page-wide
    machine words, a label or legend that is a move field's name as the wire spells it (lower case,
    with or without a position: "cards 1"), and a legend that is a move type's ("place dragon")."""
    read = page.evaluate(CONTROL_WORDS)
    field_name = re.compile(r"^(?:" + "|".join(re.escape(f) for f in read["fields"] if f) + r")(?: \d+)?:?$")
    faults = []
    for item in read["texts"]:
        text, tag = item["text"], item["tag"]
        found = [f"{what}" for what, pattern in RAW_CONTROL_WORDS.items() if pattern.search(text)]
        found += machine_words(text)
        if tag in ("label", "legend") and read["fields"] and field_name.match(text):
            found.append("a move field's name")
        if tag == "legend" and text.split(" (")[0] in read["types"]:
            found.append("a move type's name")
        if not text:
            found.append("no words at all")
        faults += [f"<{tag}> {text!r}: {f}" for f in found]
    return faults


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


# A move sent while the bot's move of a simultaneous phase lands first is refused as "the game moved
# on" (409) and the page shows the game as it is now: the person plays again.
@pytest.mark.expect_http_error(409, "/moves")
@pytest.mark.parametrize(("variant", "bot"), WHOLE_GAMES)
def test_the_move_controls_read_in_the_games_words_through_a_whole_game(
    page: Page, web_server: Server, variant: str, bot: str
) -> None:
    sign_up(page, web_server.base, f"lea {variant.replace('/', ' ')}")
    open_table(page, variant, 2, bot=bot)
    faults: dict[str, int] = {}
    decisions = 0
    while wait_for_controls_or_end(page):
        for fault in control_faults(page):
            faults[fault] = faults.get(fault, 0) + 1
        play_one_decision_by_keyboard(page, decisions)
        decisions += 1
        assert decisions < 400, "the game did not end"
    assert decisions, "the person made no decision"
    assert not faults, f"{len(faults)} kinds of raw words in the move controls:\n" + "\n".join(
        f"{n}x {f}" for f, n in list(faults.items())[:60]
    )
