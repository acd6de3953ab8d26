"""A Mékong programme chosen on the board (issue 37): how long a person waits for the cards to be
lit when the programming phase comes, and after each card clicked, at a table of 2 to 6 seats (the
others the server's ``planner`` bots, thinking in the same server process).

A programme is one of 15,120 (two seats) to 48,720 (six) moves. Listed whole with their words and
their ways on the board, it was 16 to 49 pages of a thousand; chosen card by card
(``legal-moves?narrow=true``), the server answers which cards may come next until few enough
programmes are left (570 at most after two cards) to list whole.

    .venv/bin/python bench/programme_steps.py [--seats 2 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Page, expect, sync_playwright
from rich.console import Console
from rich.table import Table

from bench.board_clicks import CHROMIUM
from tests.browser.board_play import SENT, click_once, play_one_decision_on_the_board
from tests.browser.pages import wait_for_turn_or_end
from tests.support.processes import Server

CARDS = ".board-panel [data-ref^='hand:'].pickable"
WATCH = """
window.__lit = []; window.__clicks = [];
document.addEventListener("click", () => window.__clicks.push(performance.now()), true);
let was = false;
new MutationObserver(() => {
  const lit = !!document.querySelector(CARDS);
  if (lit && !was) window.__lit.push(performance.now());
  was = lit;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
""".replace("CARDS", repr(CARDS))
"""Installed before the page's own scripts: the times (ms since the page was opened) the cards to
programme were lit, and of each click."""
SINCE_CLICK = "() => window.__lit[window.__lit.length - 1] - window.__clicks[window.__clicks.length - 1]"


def table_of(server: Server, seats: int) -> tuple[str, str]:
    """A Mékong table: a new person in seat 1, ``planner`` bots in the others."""
    status, me = server.call("POST", "/api/v1/players", {"name": f"programme bench {seats}"})
    assert status == 201, me
    status, game = server.call("POST", "/api/v1/games", {"game": "mekong", "players": seats}, me["token"])
    assert status == 201, game
    server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, me["token"])
    for _ in range(seats - 1):
        server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "planner"}, me["token"])
    return game["id"], me["token"]


def opened(page: Page) -> float:
    """Opens the page again while a programme is to be chosen: ms until its cards are lit."""
    page.reload(wait_until="commit")
    expect(page.locator(CARDS).first).to_be_visible(timeout=60_000)
    return float(page.evaluate("() => window.__lit[0]"))


def a_programme(page: Page) -> list[float]:
    """Clicks a programme card by card on the board: ms from each card's click to the cards lit
    again (the last card sends it)."""
    waits, sent = [], page.evaluate(SENT)
    while page.evaluate(SENT) == sent:
        lit_before = page.evaluate("() => window.__lit.length")
        if not click_once(page):
            continue
        for _ in range(200):  # a board that narrows the listing itself lights no card anew: no wait
            if page.evaluate(SENT) != sent or page.evaluate("() => window.__lit.length") > lit_before:
                break
            page.wait_for_timeout(5)
        if page.evaluate(SENT) == sent:
            grew = page.evaluate("() => window.__lit.length") > lit_before
            waits.append(float(page.evaluate(SINCE_CLICK)) if grew else 0.0)
    return waits


def to_the_next_programme(page: Page) -> bool:
    """Plays the round's actions on the board until the cards are to be programmed again (True), or
    the game ends (False)."""
    while wait_for_turn_or_end(page):
        if page.locator(CARDS).count():
            return True
        play_one_decision_on_the_board(page)
    return False


def measure(server: Server, seats: int, rounds: int) -> tuple[list[float], list[float]]:
    """Plays ``rounds`` rounds on the board: the waits for the cards on opening the page, and
    after each card clicked (ms)."""
    opens, steps = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        gid, token = table_of(server, seats)
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        context.add_cookies([{"name": "dragonhall_session", "value": token, "url": server.base}])
        context.add_init_script(WATCH)
        page = context.new_page()
        page.goto(f"{server.base}/games/{gid}", wait_until="commit")
        for _ in range(rounds):
            if not to_the_next_programme(page):
                break
            opens.append(opened(page))
            steps += a_programme(page)
        browser.close()
    return opens, steps


def server_time(server: Server, seats: int) -> tuple[int, float, int, float]:
    """Through the API alone, at a ``seats``-seat table: the pages and the seconds of reading one
    seat's programmes whole with their words, and the answers and seconds of choosing one card
    by card (``narrow=true``) until the programmes left are listed."""
    players = [server.call("POST", "/api/v1/players", {"name": f"api bench {seats} {i}"})[1] for i in range(seats)]
    gid = server.call("POST", "/api/v1/games", {"game": "mekong", "players": seats}, players[0]["token"])[1]["id"]
    for p in players:
        server.call("POST", f"/api/v1/games/{gid}/seats", {}, p["token"])
    token, url = players[0]["token"], f"/api/v1/games/{gid}/legal-moves?"
    start, offset, total = time.perf_counter(), 0, 1
    while offset < total:
        total = server.call("GET", url + f"words=true&offset={offset}&limit=1000", None, token)[1]["total"]
        offset += 1000
    whole = time.perf_counter() - start
    start, chosen, answers = time.perf_counter(), [], 0
    while True:
        answers += 1
        page = server.call(
            "GET", url + urlencode({"words": "true", "narrow": "true", "chosen": " ".join(chosen)}), None, token
        )[1]
        if "next" not in page:
            break
        chosen.append(page["next"][0]["ref"])
    return offset // 1000, whole, answers, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", nargs="*", type=int, default=[2, 5])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    table = Table(title="a Mékong programme on the board: ms a person waits for the cards to be lit")
    for col in ("seats", "programmes", "page opened: cards lit (each round)", "after a card: p50", "max"):
        table.add_column(col)
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": f"{tmp}/var", "DRAGONHALL_BROKER_URL": "",
               "DRAGONHALL_RATE_LIMIT_READS": "100000/second"}  # fmt: skip
        server = Server(env, Path(tmp))
        try:
            api = Table(title="the same through the API: one seat's programmes, read whole or card by card")
            for col in ("seats", "whole: pages", "seconds", "card by card: answers", "seconds"):
                api.add_column(col)
            for seats in args.seats:
                pages, whole, answers, steps = server_time(server, seats)
                api.add_row(str(seats), str(pages), f"{whole:.3f}", str(answers), f"{steps:.3f}")
            Console().print(api)
            for seats in args.seats:
                firsts, steps = measure(server, seats, args.rounds)
                count = {2: 15_120, 3: 23_520, 4: 31_920, 5: 40_320, 6: 48_720}[seats]
                opens = ", ".join(f"{s:,.0f}" for s in firsts)
                p50 = f"{statistics.median(steps):.0f}" if steps else "-"
                table.add_row(str(seats), f"{count:,}", opens, p50, f"{max(steps, default=0):.0f}")
        finally:
            server.stop()
    Console().print(table)


if __name__ == "__main__":
    main()
