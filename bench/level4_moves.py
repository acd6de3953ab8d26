"""How often Level 4 plays another move than Level 3, and how long it thinks: per game, at the
server's budget.

A Level 4 that plays Level 3's move at nearly every decision cannot be much stronger than it,
whatever its design; this counts that directly, without the hundreds of games a head-to-head
needs (``bench/ladder.py --versus``). Games are played by Level 3 at every seat (fixed seeds);
at a sample of the decisions with more than one legal move, Level 4 and Level 3 are both asked,
on the same observation with the same generator (``choose_move`` with the server's ``decision_rng``), and the bench
counts where Level 4 left Level 3's move and times Level 4's decisions.

    .venv/bin/python bench/level4_moves.py [--decisions 40] [--budget 2.0] [--game tarasque ...]

Run it alone on the machine: the search's strength is a matter of the iterations its budget
buys, so a loaded machine gives it fewer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from domain.catalog import GAMES as CATALOG
from domain.kernel import Rng, choose_move
from workers.bot_turns import decision_rng

console = Console(width=140)
SAMPLED = 0.3
"""The share of a game's decisions asked of both bots (spread over many games and positions)."""


def compare(game: str, decisions: int, budget: float, seats: int, seed: int) -> dict[str, float]:
    """Level 4's and Level 3's moves at ``decisions`` sampled decisions of Level 3's games."""
    ruleset = next(r for r in CATALOG if r.slug == game)
    level3, level4 = ruleset.bot(ruleset.ladder[2].bot), ruleset.bot(ruleset.ladder[3].bot)
    rng = random.Random(f"{seed}:{game}")
    asked, same, seconds, n = 0, 0, [], 0
    while asked < decisions:
        chance = f"{seed}:{game}:{n}".encode()
        state, _ = ruleset.new_game(ruleset.configure(None, None, seats), Rng(chance, "setup"))
        n += 1
        for k in range(ruleset.max_decisions):
            if ruleset.is_over(state) or asked >= decisions:
                break
            seat = ruleset.awaiting(state)[0]
            command = choose_move(ruleset, level3, state, seat, decision_rng(chance, k, seat))
            if len(ruleset.legal_moves(state, seat)) > 1 and rng.random() < SAMPLED:
                started = time.perf_counter()
                searched = choose_move(ruleset, level4, state, seat, decision_rng(chance, k, seat), budget)
                seconds.append(time.perf_counter() - started)
                asked += 1
                same += searched == command
            state = ruleset.fold(state, ruleset.decide(state, seat, command, Rng(chance, f"v{k}")))
    return {
        "decisions": asked,
        "same": same,
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game's slug (repeatable; every game by default)")
    parser.add_argument("--decisions", type=int, default=40, help="decisions asked of both bots, per game (40)")
    parser.add_argument("--budget", type=float, default=2.0, help="Level 4's seconds a decision (2.0)")
    parser.add_argument("--seats", type=int, default=2, help="seats a table (2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = Table(title=f"Level 4 against Level 3, move by move, {args.budget} s a decision")
    for col in ("game", "decisions", "Level 3's move", "another move", "Level 4's seconds (median, max)"):
        table.add_column(col, justify="right")
    for game in args.game or [r.slug for r in CATALOG]:
        r = compare(game, args.decisions, args.budget, args.seats, args.seed)
        other = r["decisions"] - r["same"]
        table.add_row(
            game,
            f"{r['decisions']}",
            f"{r['same']}",
            f"{other} ({other / r['decisions']:.0%})",
            f"{r['median_s']:.2f}, {r['max_s']:.2f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
