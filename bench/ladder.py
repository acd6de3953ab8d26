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
    .venv/bin/python bench/ladder.py --game seven-dragons --budget 2.0 --seconds 2400

``--seconds`` stops each game's ladder after that long (the game under way is played out) and
prints the ratings of the games played: at the server's 2 s a game with a search seat takes
tens of seconds, and a run of ``--games`` may take hours.

``--versus A B`` plays two bots of each game head to head instead (no ratings: the rules alone,
the bots deciding on their seat's observation as on the server), A in seat 1 in the even games
and seat 2 in the odd ones, ``--games`` games or until ``--seconds`` have passed, and prints the
full counts (A's wins, B's wins, ties), A's score (a tie counts half) with its 95% Wilson interval
and the two-sided sign test of "A and B are equally strong" (ties left out):

    .venv/bin/python bench/ladder.py --versus search greedy --game seven-dragons --budget 0.2 --seconds 55

Two bots that decide without chance replay the same game from the same deal: where the setup
varies little (Mekong), most of ``--games`` are copies of a few, and the counts
overstate the evidence. The report says how many of the games were distinct. ``--opening K`` has
the first K decisions of each game played at random (from the game's seed), and plays each
opening twice, each bot in each seat, so that every pair of games starts from a position of its
own and neither bot gets the better side of it:

    .venv/bin/python bench/ladder.py --versus planner level-2 --game mekong --opening 4 --games 100
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from domain.catalog import GAMES as CATALOG
from domain.kernel import Command, Rng, choose_move, find_game
from services.common.config import Settings
from services.common.ports import NullWork
from services.reads.rating_scale import PER_MU, rating
from tests.support.rated_games import seeded_id
from wiring import bootstrap
from workers.bot_turns import decision_rng

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
    rng = decision_rng(seed, game.version, seat)
    return choose_move(game.ruleset, game.ruleset.bot(bot), game.state, seat, rng, budget)


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


def run_game(
    platform: Any, game: str, games: int, seats: int, budget: float, seed: int, seconds: float = math.inf
) -> tuple[list[dict[str, Any]], int]:
    """The rungs' ratings after ``games`` rated games, or as many as end within ``seconds``, and
    how many that was."""
    pool = rungs(game)
    rng = random.Random(f"{seed}:{game}")
    started = time.perf_counter()
    played = 0
    while played < games and time.perf_counter() - started < seconds:
        play_one(platform, game, rng.sample(pool, seats), rng, budget)
        played += 1
        if played % 10 == 0:
            console.print(f"{game}: {played} games, {time.perf_counter() - started:.0f} s")
    return ladder(platform, game), played


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


def versus(
    game: str, bots: list[str], games: int, budget: float, seconds: float, seed: int, opening: int = 0
) -> dict[str, int]:
    """``bots[0]`` against ``bots[1]`` (two seats), seats alternating: the counts of each result,
    and of the distinct games played."""
    ruleset = next(r for r in CATALOG if r.slug == game)
    names = [level_bot(ruleset, b) for b in bots]
    counts = {"a": 0, "b": 0, "tie": 0}
    seen: set[int] = set()
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a run stopped by `timeout` still reports
    try:
        _versus_games(ruleset, names, counts, seen, games, budget, started + seconds, seed, opening)
    except KeyboardInterrupt:
        console.print(f"{game}: stopped; the games finished so far")
    return {**counts, "distinct": len(seen)}


def _versus_games(
    ruleset: Any,
    names: list[str],
    counts: dict[str, int],
    seen: set[int],
    games: int,
    budget: float,
    until: float,
    seed: int,
    opening: int,
) -> None:
    game = ruleset.slug
    for n in range(games):
        if time.perf_counter() > until:
            break
        seats = names if n % 2 == 0 else names[::-1]
        chance = f"{seed}:{game}:{n // 2 if opening else n}".encode()  # with openings, each played twice
        state, _ = ruleset.new_game(ruleset.configure(None, None, 2), Rng(chance, "setup"))
        played = []
        for k in range(ruleset.max_decisions):
            if ruleset.is_over(state):
                break
            seat = ruleset.awaiting(state)[0]
            rng = decision_rng(chance, k, seat)
            bot = ruleset.bot("random" if k < opening else seats[seat])
            command = choose_move(ruleset, bot, state, seat, rng, budget)
            played.append(repr(command))
            state = ruleset.fold(state, ruleset.decide(state, seat, command, Rng(chance, f"v{k}")))
        seen.add(hash((n % 2, *played)))
        outcome = ruleset.outcome(state)
        a = 0 if n % 2 == 0 else 1
        places = outcome.places if outcome is not None else (1, 1)
        counts["a" if places[a] < places[1 - a] else "b" if places[a] > places[1 - a] else "tie"] += 1


def level_bot(ruleset: Any, name: str) -> str:
    """A bot by its name or its level (``3`` or ``level-3``)."""
    level = name.removeprefix("level-")
    if level.isdigit():
        return str(ruleset.ladder[int(level) - 1].bot)
    ruleset.bot(name)  # refuses an unknown name
    return name


def show_versus(game: str, bots: list[str], counts: dict[str, int], budget: float) -> None:
    a, b, tie = counts["a"], counts["b"], counts["tie"]
    played = a + b + tie
    score = (a + tie / 2) / played if played else float("nan")
    low, high = wilson(a + tie / 2, played)
    decided = a + b
    p = sign_test(a, decided)
    console.print(
        f"{game}: {bots[0]} against {bots[1]}, budget {budget} s: {played} games, {bots[0]} won {a}, "
        f"{bots[1]} won {b}, {tie} tied; {bots[0]}'s score {score:.3f} (95% {low:.3f} to {high:.3f}); "
        f"sign test p = {p:.3g} over {decided} decided games; {counts['distinct']} of the {played} games distinct"
    )


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins: int, n: int) -> float:
    """The two-sided exact binomial test of ``wins`` out of ``n`` against a fair coin."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(0, min(wins, n - wins) + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="rated games per game (200)")
    parser.add_argument("--game", action="append", choices=GAMES, help="games to run (all by default)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds a search bot may think a decision (2)")
    parser.add_argument("--seats", type=int, default=2, help="seats a table (2)")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--versus", nargs=2, metavar=("A", "B"), help="two bots (names or levels) head to head")
    parser.add_argument(
        "--seconds", type=float, default=math.inf, help="stop after this long (a game under way is played out)"
    )
    parser.add_argument(
        "--opening", type=int, default=0, help="with --versus: random decisions first, each opening twice"
    )
    args = parser.parse_args()
    if args.versus:
        for game in args.game or GAMES:
            counts = versus(game, args.versus, args.games, args.budget, args.seconds, args.seed, args.opening)
            show_versus(game, args.versus, counts, args.budget)
        return
    settings = Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": "33" * 32})
    platform = bootstrap(settings, work=NullWork())
    try:
        for game in args.game or GAMES:
            rows, played = run_game(platform, game, args.games, args.seats, args.budget, args.seed, args.seconds)
            show(game, rows, played)
    finally:
        platform.close()


if __name__ == "__main__":
    main()
