"""Playing on the board, measured (issue 37): for a whole game of each game against a server bot,
played by clicking the board only (``tests/browser/board_play.py``), the time from the click
that makes a move to the board redrawn with its result, and the clicks each decision took.

Used by ``web_pages.py``; alone, on games of its own:

    .venv/bin/python bench/board_clicks.py [--games tarasque seven-dragons mekong drachenreiter]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Page, sync_playwright
from rich.console import Console
from rich.table import Table

from tests.browser.board_play import play_one_decision_on_the_board
from tests.browser.pages import wait_for_turn_or_end
from tests.support.processes import Server

CHROMIUM = "/usr/bin/chromium"
GAMES = {"tarasque": "greedy", "seven-dragons": "greedy", "mekong": "planner", "drachenreiter": "racer"}
WATCH = """() => {
  window.__board = { clickAt: null, redrawnAt: null };
  document.addEventListener("click", () => { window.__board = { clickAt: performance.now(), redrawnAt: null }; }, true);
  new MutationObserver(() => {
    const b = window.__board;
    if (b.clickAt !== null && b.redrawnAt === null) b.redrawnAt = performance.now();
  }).observe(document.getElementById("board"), { childList: true });
}"""
"""Notes each click's time and the first time the board's picture is replaced after it."""
REDRAWN = "() => window.__board.redrawnAt !== null"
SINCE_CLICK = "() => window.__board.redrawnAt - window.__board.clickAt"


@dataclass
class Played:
    """One game's figures: each move's click to redraw (ms), each decision's clicks."""

    redraws: list[float] = field(default_factory=list)
    clicks: list[int] = field(default_factory=list)


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def table_against_a_bot(server: Server, game: str, bot: str) -> tuple[str, str]:
    """A two-seat game of ``game``: a new person in seat 1, the server bot ``bot`` in seat 2."""
    status, me = server.call("POST", "/api/v1/players", {"name": f"board bench {game}"})
    assert status == 201, me
    status, created = server.call("POST", "/api/v1/games", {"game": game, "players": 2}, me["token"])
    assert status == 201, created
    server.call("POST", f"/api/v1/games/{created['id']}/seats", {}, me["token"])
    server.call("POST", f"/api/v1/games/{created['id']}/seats", {"bot": bot}, me["token"])
    return created["id"], me["token"]


def play_a_game(page: Page) -> Played:
    played = Played()
    page.evaluate(WATCH)
    while wait_for_turn_or_end(page):
        clicks = play_one_decision_on_the_board(page)
        if not clicks:
            continue
        played.clicks.append(clicks)
        while not page.evaluate(REDRAWN):  # polled: the pages' policy forbids eval (wait_for_function)
            page.wait_for_timeout(10)
        played.redraws.append(float(page.evaluate(SINCE_CLICK)))
    return played


def measure(base: str, server: Server, games: list[str]) -> dict[str, Played]:
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for game in games:
            gid, token = table_against_a_bot(server, game, GAMES[game])
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            context.add_cookies([{"name": "dragonhall_session", "value": token, "url": base}])
            page = context.new_page()
            page.goto(f"{base}/games/{gid}", wait_until="load")
            out[game] = play_a_game(page)
            context.close()
        browser.close()
    return out


def report(console: Console, found: dict[str, Played]) -> None:
    table = Table(title="playing on the board: a whole game against a server bot, clicks only")
    for col in ("game", "decisions", "clicks a decision (mean)", "≤ 2", "click to redraw p50 ms", "p99 ms", "< 150"):
        table.add_column(col)
    for game, p in found.items():
        mean = statistics.mean(p.clicks)
        p99 = pct(p.redraws, 99)
        table.add_row(game, str(len(p.clicks)), f"{mean:.2f}", "yes" if mean <= 2 else "NO",
                      f"{pct(p.redraws, 50):.0f}", f"{p99:.0f}", "yes" if p99 < 150 else "NO")  # fmt: skip
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": f"{tmp}/var", "DRAGONHALL_BROKER_URL": "",
               "DRAGONHALL_RATE_LIMIT_READS": "100000/second"}  # fmt: skip
        server = Server(env, Path(tmp))
        try:
            found = measure(server.base, server, args.games)
        finally:
            server.stop()
    report(Console(), found)


if __name__ == "__main__":
    main()
