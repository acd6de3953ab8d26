"""Ratings: does a population of bots sort itself, and how fast does a rebuild rate games?

For each game, a population of four players of its stronger bot and four of its random bot
plays ``--games`` rated games of 2 to 4 seats drawn at random (fixed seeds, the server's own
bot path, an in-memory platform). It prints, per game, how the final leaderboard orders the
two kinds: the share of (strong, random) pairs where the strong player rates higher, the
mean mu of each kind, and after how many games the leaderboard last changed from "every strong
player above every random one" to not (0: never unsorted after the first check).

Then it rebuilds the read models from zero from all the events (the game list's projection and
the ratings', as ``dragonhall rebuild-projections`` does) and prints the finished games rated
per second, the events per second, and the rating book alone (ratings without the boards).

    .venv/bin/python bench/ratings.py [--games 300] [--game seven-dragons ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from projections.ratings import RatingBook
from services.common.config import Settings
from services.common.ports import NullWork
from tests.support.rated_games import fresh_views, play_table, population, rating_tables, rebuild
from wiring import bootstrap

console = Console(width=140)
STRONG = {"tarasque": "greedy", "seven-dragons": "greedy", "mekong": "planner", "drachenreiter": "racer"}
CHECK_EVERY = 10


def sorted_now(platform: Any, game: str) -> bool:
    platform.wait_for_projections()
    board = [r["player_id"] for r in platform.views.leaderboard(game, 0, 100, 0)]
    return len(board) == 8 and all(not p.startswith("random") for p in board[:4])


def run_population(platform: Any, game: str, games: int, seed: int) -> dict[str, Any]:
    pool = population(STRONG[game])
    rng = random.Random(f"{seed}:{game}")  # game ids come from it: distinct for each game
    last_unsorted = 0
    started = time.perf_counter()
    for n in range(1, games + 1):
        play_table(platform, game, rng.sample(pool, rng.choice([2, 3, 4])), rng)
        if n % CHECK_EVERY == 0 and not sorted_now(platform, game):
            last_unsorted = n
    took = time.perf_counter() - started
    platform.wait_for_projections()
    rows = platform.views.leaderboard(game, 0, 100, 0)
    strong = [r for r in rows if not r["player_id"].startswith("random")]
    weak = [r for r in rows if r["player_id"].startswith("random")]
    pairs = [(s, w) for s in strong for w in weak]
    return {
        "game": game,
        "games": games,
        "ordered": sum(s["ordinal"] > w["ordinal"] for s, w in pairs) / len(pairs),
        "strong_mu": sum(r["mu"] for r in strong) / len(strong),
        "random_mu": sum(r["mu"] for r in weak) / len(weak),
        "sigma": sum(r["sigma"] for r in rows) / len(rows),
        "last_unsorted": last_unsorted,
        "seconds": took,
    }


def rating_book_alone(platform: Any) -> tuple[int, float]:
    """Rates every finished game again with a fresh rating book and nothing else: the ratings'
    own cost, without folding boards."""
    views = fresh_views()
    book = RatingBook(views)
    rows = platform.views.dump()
    results: dict[str, list[dict[str, Any]]] = {}
    for r in rows["dh_results"]:
        results.setdefault(r["game_id"], []).append(r)
    ended = sorted(
        (r for r in rows["dh_rating_games"] if r["verdict"]), key=lambda r: results[r["game_id"]][0]["ended_at"]
    )
    started = time.perf_counter()
    for g in ended:
        seats = sorted(results[g["game_id"]], key=lambda r: r["seat"])
        changes = book.created(g["game_id"], g["game"], g["variant"], True, False) + book.decided(g["game_id"])
        places = [s["place"] for s in seats]
        players = [
            {"seat": s["seat"], "player_id": s["player_id"], "name": s["player_id"], "kind": "bot"} for s in seats
        ]
        changes += book.ended(g["game_id"], "finished", players, places, seats[0]["ended_at"])
        views.write(changes)
    return len(ended), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="rated games per game (300)")
    parser.add_argument("--game", action="append", choices=sorted(STRONG), help="games to run (all by default)")
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    settings = Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": "23" * 32})
    platform = bootstrap(settings, work=NullWork())
    try:
        figures = []
        for game in args.game or sorted(STRONG):
            figures.append(run_population(platform, game, args.games, args.seed))
            console.print(f"{game}: {figures[-1]}")
        table = Table(title="A population of 4 strong and 4 random bots per game, 2 to 4 seats a game")
        for col in ("game", "games", "strong above random", "mean mu strong", "mean mu random", "mean sigma",
                    "unsorted last at game", "play s"):  # fmt: skip
            table.add_column(col, justify="right")
        for f in figures:
            row = [f["game"], str(f["games"]), f"{f['ordered']:.0%}", f"{f['strong_mu']:.1f}", f"{f['random_mu']:.1f}"]
            table.add_row(*row, f"{f['sigma']:.2f}", str(f["last_unsorted"]), f"{f['seconds']:.0f}")
        console.print(table)
        platform.wait_for_projections()
        events = platform.store.recorder.max_notification_id() or 0
        finished = sum(1 for r in platform.views.dump()["dh_rating_games"] if r["verdict"] == "rated")
        started = time.perf_counter()
        rebuilt = rebuild(platform.store)
        took = time.perf_counter() - started
        same = rating_tables(rebuilt) == rating_tables(platform.views)
        console.print(
            f"full rebuild: {finished} finished games ({events} events) in {took:.1f} s: "
            f"[bold]{finished / took:.0f} games rated/s[/], {events / took:.0f} events/s; "
            f"rating tables identical to the incremental ones: {same}"
        )
        n, alone = rating_book_alone(platform)
        console.print(f"rating book alone: {n} games in {alone:.2f} s: {n / alone:.0f} games rated/s")
    finally:
        platform.close()


if __name__ == "__main__":
    main()
