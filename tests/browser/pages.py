"""What a person does on Dragonhall's pages, as steps a browser test reads like a story."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

ENDED = re.compile(r"finished|abandoned|cancelled")


PASSWORD = "a dragon's password"
"""The password every person of the browser tests signs up with."""


def sign_up(page: Page, base: str, name: str, password: str = PASSWORD) -> list[str]:
    """Signs a new person up with a name and a password, as the sign-in page offers; returns the
    recovery codes the welcome page shows once, and goes on to the lobby."""
    page.goto(f"{base}/signin")
    page.get_by_label("Choose a name").fill(name)
    page.get_by_label("Choose a password").fill(password)
    page.get_by_label("The same password again").fill(password)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name=f"Welcome, {name}")).to_be_visible()
    codes = page.locator("#recovery-codes code").all_inner_texts()
    page.get_by_role("link", name="Go to the lobby").click()
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()
    # the lobby's text shows before its deferred scripts have run: a choice made in that moment
    # is read by them as they start, but a test's next expectation may come first on a loaded machine
    page.wait_for_load_state("load")
    return codes


WHOLE_GAMES = [
    ("tarasque/dragon-dice", "tarasque/greedy"),
    ("seven-dragons/full", "seven-dragons/greedy"),
    ("mekong/classic", "mekong/planner"),
    ("drachenreiter/standard", "drachenreiter/racer"),
]
"""(variant, server bot) of the whole games a person plays in each of the four games, by board and by keyboard."""


def open_table(page: Page, variant: str, players: int = 2, bot: str = "", clock: str = "none", others: str = "") -> str:
    """Opens a table from the lobby's form (the person in seat 0, server bots in the others, or
    ``others="open"``: seats open to people); returns the game's id, from the page it lands on."""
    page.get_by_label("Game and variant").select_option(variant)
    page.get_by_label("Players", exact=True).fill(str(players))
    if others:
        page.get_by_label("The other seats").select_option(others)
    if bot:
        page.get_by_label("Server bot").select_option(bot)
    page.get_by_label("Clock", exact=True).select_option(clock)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    return page.url.rsplit("/", 1)[1]


def offered(page: Page) -> Locator:
    """The first group of move controls a person can use now. While a move is on its way the page
    keeps the last decision's controls, disabled, until the answer comes: those are not offered."""
    return page.locator("#controls fieldset").filter(has=page.locator("button:enabled")).first


def wait_for_turn_or_end(page: Page) -> bool:
    """Waits until the viewer may play (True) or the game has ended (False)."""
    turn = offered(page)
    ended = page.locator("#outcome:not([hidden])")
    expect(turn.or_(ended)).to_be_visible(timeout=30_000)
    return not ended.is_visible()


def play_one_decision(page: Page) -> int:
    """Plays the first decision the page offers, by mouse; returns the version it was played at. A
    listing chosen step by step (a Mékong programme) is chosen a step at a time first."""
    version = int(page.locator("#version").inner_text())
    for _ in range(8):
        group = offered(page)
        play = group.get_by_role("button", name=re.compile(r"^Play "))
        choose = group.get_by_role("button", name="Choose", exact=True)
        if not play.count() and choose.count():
            before = page.locator("#controls").inner_text()
            choose.click()
            for _ in range(200):
                if page.locator("#controls").inner_text() != before:
                    break
                page.wait_for_timeout(25)
            continue
        if play.count():
            play.click()  # a move type with many legal moves: its selects start at a legal move
        else:
            group.get_by_role("button").first.click()
        break
    expect(page.locator("#version")).not_to_have_text(str(version), timeout=15_000)
    return version


def play_to_the_end(page: Page, most: int = 400) -> int:
    """Plays the viewer's decisions until the game ends; returns how many it played."""
    played = 0
    while wait_for_turn_or_end(page):
        play_one_decision(page)
        played += 1
        assert played < most, "the game did not end"
    return played
