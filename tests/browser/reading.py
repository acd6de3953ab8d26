"""Reading pages as a person does: the visible text of a page (``innerText``, as Chromium lays it out,
the boards' words included), people who play through the API and read in a browser, games played to
a point by them."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.browser.guard import PageGuard
from tests.support.page_text import bot_names, machine_words
from tests.support.processes import Server


@dataclass
class Person:
    """A player with a token (for the API) who reads pages in a browser of their own."""

    name: str
    id: str
    token: str


SAID = """Array.from(document.querySelectorAll("svg title, svg desc"), (e) => e.textContent).concat(
  Array.from(document.querySelectorAll("[title], [aria-label]"),
             (e) => (e.getAttribute("title") || "") + " " + (e.getAttribute("aria-label") || "")))"""
"""What a page says beside its laid-out text: a board's title and description (read aloud, and a
piece's title shown on hover), the tooltips and the accessible names of its elements."""


BOARD_WORDS = """Array.from(document.querySelectorAll(
  "#board svg text, #board svg title, #board svg desc, #board-pick, .board-panel [aria-label]"),
  (e) => e.getAttribute("aria-label") || e.textContent)"""
"""What a board says: its picture's text, titles and description, and its own choices."""
BOARD_IDS = re.compile(r"\b[a-z]+(?:[-_][a-z0-9]+)+\b|\b[is]\d+\b")
"""An id as the rules name a thing ("fireball-800", "zap_card", island "i16"): never a board's
word (a card named with a hyphen, "Counter-wind", is capitalised as on the card)."""


@dataclass
class Reading:
    """What a test read that a person must never read: each problem with the page it was on."""

    problems: list[str] = field(default_factory=list)
    pages: int = 0

    def read(self, page: Page, who: str) -> str:
        """The page's visible text and title, every disclosure opened, and the words it shows on
        hover or reads aloud (``SAID``), checked; returns the visible text."""
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        text = page.locator("body").inner_text()
        said = page.evaluate(SAID)
        self.pages += 1
        everything = "\n".join([text, page.title(), *said])
        for found in machine_words(everything) + bot_names(everything):
            self.problems.append(f"{who} at {page.url}: {found}")
        for words in page.evaluate(BOARD_WORDS):
            for m in BOARD_IDS.finditer(words):
                self.problems.append(f"{who} at {page.url}: an id on the board: {m.group()!r} in …{words[:100]}…")
        return text


def register(server: Server, name: str) -> Person:
    status, body = server.call("POST", "/api/v1/players", {"name": name})
    assert status == 201, body
    return Person(name, body["id"], body["token"])


def sign_in(page: Page, base: str, person: Person) -> None:
    page.goto(f"{base}/signin")
    page.get_by_text("Sign in with a token").click()  # folded under the name-and-password form
    page.get_by_label("Token", exact=True).fill(person.token)
    page.get_by_role("button", name="Sign in with the token").click()
    expect(page.get_by_text(f"Signed in as {person.name}")).to_be_visible()


@contextmanager
def reader(browser: Browser, base: str, person: Person | None) -> Iterator[Page]:
    """A page in a browser of its own, signed in as ``person`` (signed out for None), guarded."""
    guard = PageGuard()
    page = open_page(browser, guard)
    try:
        if person is not None:
            sign_in(page, base, person)
        yield page
        guard.check()
    finally:
        page.context.close()


def table(server: Server, game: str, people: list[Person], **extra: Any) -> str:
    """A game with ``people`` in its seats, in order; returns its id once it has started."""
    status, created = server.call("POST", "/api/v1/games", {"game": game, "players": len(people), **extra},
                                  people[0].token)  # fmt: skip
    assert status == 201, created
    for person in people:
        status, body = server.call("POST", f"/api/v1/games/{created['id']}/seats", {}, person.token)
        assert status == 201, body
    return str(created["id"])


def play(server: Server, gid: str, people: list[Person], decisions: int, seed: int = 1) -> int:
    """Plays up to ``decisions`` random legal moves for whoever is awaited; returns how many were played."""
    rng = random.Random(seed)
    played = 0
    while played < decisions:
        moved = False
        for person in people:
            status, legal = server.call("GET", f"/api/v1/games/{gid}/legal-moves?limit=1000", token=person.token)
            if status != 200 or not legal["moves"]:
                continue
            move = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
            status, body = server.call("POST", f"/api/v1/games/{gid}/moves", move, person.token)
            assert status in (201, 409), body
            moved = moved or status == 201
            played += status == 201
            break
        if not moved:
            return played
    return played
