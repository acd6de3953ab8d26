"""Board pictures: what drawing one costs, and what finding the last decision adds.

For each game, plays random legal moves to a mid-game position and times
``render_svg`` of a seat's view with its last decision (the picture ``GET
/board.svg`` answers), printing the mean time and the picture's size. Then plays
one long Tarasque game into a SQLite store and times ``GameService.last_decision``
(a page of the newest events read back) at random versions, beside reading the
whole history forward, which is what finding it would cost without paging.

    python bench/board_svg.py [--samples 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from domain.catalog import GAMES
from domain.kernel import Rng, Viewer, choose_move
from services.common.config import Settings
from services.common.ports import NullWork
from wiring import bootstrap

console = Console()


def mid_game(ruleset: Any, seats: int, decisions: int, seed: int) -> tuple[Any, dict[str, Any]]:
    """A position after ``decisions`` random moves (fewer if the game ends), and its last move."""
    chooser = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.configure(None, None, seats), Rng(seed.to_bytes(8, "big"), "setup"))
    last: dict[str, Any] = {}
    for n in range(decisions):
        awaited = ruleset.awaiting(state)
        if not awaited:
            break
        seat = awaited[0]
        move = chooser.choice(list(ruleset.legal_moves(state, seat)))
        state = ruleset.fold(state, ruleset.decide(state, seat, move, Rng(seed.to_bytes(8, "big"), f"v{n}")))
        last = {"version": n + 1, "seat": seat, "kind": "move", "move": ruleset.commands.dump(move)}
    return state, last


def drawing(samples: int) -> None:
    table = Table("game", "seats", "render (ms)", "bytes")
    for ruleset in GAMES:
        seats = max(v.min_seats for v in ruleset.variants[:1]) + 1
        state, last = mid_game(ruleset, seats, 60, 7)
        view = ruleset.view(state, Viewer.of(0))
        times = []
        for _ in range(samples):
            start = time.perf_counter()
            picture = ruleset.render_svg(view, last)
            times.append(time.perf_counter() - start)
        table.add_row(ruleset.slug, str(seats), f"{statistics.mean(times) * 1e3:.2f}", str(len(picture or "")))
    console.print(table)


def long_game(platform: Any, seed: int) -> str:
    rng = random.Random(seed)
    game = platform.games.create_game("bench", "tarasque", None, None, 4)
    gid = str(game.id)
    for _ in range(4):
        platform.games.take_seat(gid, "server-bot:random", "random bot", "bot", bot="random")
    while (game := platform.games.load(gid)).status == "active":
        seat = game.awaiting[0]
        command = choose_move(game.ruleset, game.ruleset.bot("random"), game.state, seat, rng)
        platform.games.play_for(gid, seat, game.version, lambda _g, c=command: c)
    return gid


def finding(samples: int) -> None:
    with tempfile.TemporaryDirectory(prefix="dh-board-") as tmp:
        settings = Settings.from_env({"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": tmp})
        platform = bootstrap(settings, work=NullWork(), projections=False)
        try:
            gid = long_game(platform, 3)
            head = platform.games.load(gid).version
            rng = random.Random(1)
            paged, whole = [], []
            for _ in range(samples):
                version = rng.randint(1, head)
                start = time.perf_counter()
                platform.games.last_decision(gid, version)
                paged.append(time.perf_counter() - start)
                start = time.perf_counter()
                list(platform.games.stored_events(gid))
                whole.append(time.perf_counter() - start)
        finally:
            platform.close()
    table = Table("events in the game", "last decision, paged (ms)", "whole history read (ms)")
    table.add_row(str(head), f"{statistics.mean(paged) * 1e3:.2f}", f"{statistics.mean(whole) * 1e3:.2f}")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    drawing(args.samples)
    finding(args.samples)


if __name__ == "__main__":
    main()
