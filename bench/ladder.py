"""The bot ladder: each game's levels rated by self-play through the ratings projection.

For each game, one player per rung of the game's ladder (``Ruleset.ladder``: ``level-1`` plays
``random``, ``level-2`` the beginner...) plays ``--games`` rated two-seat games against another
rung drawn at random, through the server's own services and bot path (an in-memory platform,
fixed seeds: ``tests.support.rated_games``), so the ratings are the projection's own
(OpenSkill Plackett-Luce, ``projections/ratings.py``). It prints each game's ladder on the
scale people read, ``1500 + 29.48 (mu - 25)``, with each rating's uncertainty, and each gap
to the rung below with the check ``gap > 2 x its uncertainty`` (the two sigmas combined).

Targets (issue 33): adjacent rungs at least 150 points apart; the top rung at least 200 above
the game's present strong bot (``default_bot``).

Every bot is handed ``--budget`` seconds a decision, as the server hands it
``DRAGONHALL_BOT_BUDGET`` (2 s by default); only the search uses it (a smaller budget plays a
weaker search), the others take what they take.

    .venv/bin/python bench/ladder.py [--games 200] [--budget 2.0] [--game tarasque ...] [--seats 2]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import itertools
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from domain.kernel import Command, choose_move, find_game
from services.config import Settings
from services.ports import NullWork
from services.rating_scale import PER_MU, rating
from tests.support.rated_games import seeded_id
from wiring import bootstrap

console = Console(width=140)
GAMES = ("tarasque", "seven-dragons", "mekong", "drachenreiter")
ADJACENT = 150
"""Issue 33's targets, in displayed points."""
ABOVE_STRONG = 200


def rungs(game: str) -> list[tuple[str, str]]:
    """``(player_id, bot)`` per rung, weakest first."""
    return [(f"level-{n}", r.bot) for n, r in enumerate(find_game(game).ladder, 1)]


def play_one(platform: Any, game: str, players: list[tuple[str, str]], rng: random.Random, budget: float) -> None:
    """One rated game of ``players`` (``(player_id, bot)``), played to its end by the bot path."""
    games = platform.games
    table = games.create_game(
        players[0][0], game, None, None, len(players), settings={"rated": True}, game_id=seeded_id(rng)
    )
    gid = str(table.id)
    for player_id, bot in players:
        games.take_seat(gid, player_id, player_id, "bot", bot=bot)
    state = games.load(gid)
    while state.status == "active":
        seat = state.awaiting[0]
        bot, seed = state.seat_info(seat)["bot"], platform.seeds.of(state.id)
        games.play_for(gid, seat, state.version, lambda g, s=seat, b=bot, k=seed: choose(g, s, b, budget, k))
        state = games.load(gid)


def choose(game: Any, seat: int, bot: str, budget: float, seed: bytes) -> Command:
    """The server's bot path (``workers.bot_turns.bot_choice``: the seat's observation, the game's
    seed keyed by version and seat) without its guard against overruns: on a busy machine a bot
    past twice its budget would be replaced by a random move, and the ladder would rate the guard."""
    key = hmac.new(seed, f"dragonhall-bot:{game.version}:{seat}".encode(), hashlib.sha256).digest()
    return choose_move(game.ruleset, game.ruleset.bot(bot), game.state, seat, random.Random(key), budget)


def ladder(platform: Any, game: str) -> list[dict[str, Any]]:
    """The rungs' ratings now, weakest rung first."""
    platform.wait_for_projections()
    rows = {r["player_id"]: r for r in platform.views.leaderboard(game, 0, 100, 0)}
    out = []
    for player_id, bot in rungs(game):
        r = rows.get(player_id, {"mu": 25.0, "sigma": 25 / 3})
        shown = {"rating": float(rating(r["mu"])), "uncertainty": PER_MU * r["sigma"]}
        out.append({"player": player_id, "bot": bot, "mu": r["mu"], "sigma": r["sigma"], **shown})
    return out


def run_game(platform: Any, game: str, games: int, seats: int, budget: float, seed: int) -> list[dict[str, Any]]:
    pool = rungs(game)
    rng = random.Random(f"{seed}:{game}")
    started = time.perf_counter()
    for n in range(1, games + 1):
        play_one(platform, game, rng.sample(pool, seats), rng, budget)
        if n % 10 == 0:
            console.print(f"{game}: {n} games, {time.perf_counter() - started:.0f} s")
    return ladder(platform, game)


def show(game: str, rows: list[dict[str, Any]], games: int) -> None:
    strong = find_game(game).default_bot
    table = Table(title=f"{game}: {games} rated games")
    for col in ("level", "bot", "rating", "±", "gap below", "gap > 2 x uncertainty"):
        table.add_column(col, justify="right")
    for n, r in enumerate(rows):
        gap, sure = "", ""
        if n:
            below = rows[n - 1]
            gap_value = r["rating"] - below["rating"]
            error = math.hypot(r["uncertainty"], below["uncertainty"])
            gap, sure = f"{gap_value:+.0f}", "yes" if gap_value > 2 * error else "no"
        table.add_row(f"Level {n + 1}", r["bot"], f"{r['rating']:.0f}", f"{r['uncertainty']:.0f}", gap, sure)
    console.print(table)
    gaps = [b["rating"] - a["rating"] for a, b in itertools.pairwise(rows)]
    top = rows[-1]["rating"] - next(r["rating"] for r in rows if r["bot"] == strong)
    console.print(
        f"adjacent gaps >= {ADJACENT}: {all(g >= ADJACENT for g in gaps)} (smallest {min(gaps):.0f}); "
        f"top above {strong} >= {ABOVE_STRONG}: {top >= ABOVE_STRONG} ({top:+.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="rated games per game (200)")
    parser.add_argument("--game", action="append", choices=GAMES, help="games to run (all by default)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds a search bot may think a decision (2)")
    parser.add_argument("--seats", type=int, default=2, help="seats a table (2)")
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()
    settings = Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": "33" * 32})
    platform = bootstrap(settings, work=NullWork())
    try:
        for game in args.game or GAMES:
            rows = run_game(platform, game, args.games, args.seats, args.budget, args.seed)
            show(game, rows, args.games)
    finally:
        platform.close()


if __name__ == "__main__":
    main()
