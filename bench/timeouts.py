"""Deadline load: many games time out within a few seconds of each other; how late does each fire?

Starts `dragonhall serve` (the embedded default, or with ``--redis`` a Redis broker
and a separate `dragonhall worker --beat`), creates ``--games`` two-seat Tarasque
games whose two human seats never move, with a ``per_move`` clock and the
``forfeit`` policy, so that each game must time out exactly once. It then prints
how late each timeout fired after its deadline (p50, p99, max) and checks that
every game timed out exactly once.

    python bench/timeouts.py --games 1000
    python bench/timeouts.py --games 1000 --redis redis://127.0.0.1:6379/15
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from tests.support.processes import Proc, Server

console = Console()


def create_game(server: Server, seconds: int) -> str:
    tokens = [server.call("POST", "/api/v1/players", {"name": n})[1]["token"] for n in "ab"]
    tc = {"kind": "per_move", "seconds": seconds, "timeout_policy": "forfeit"}
    st, game = server.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2, "time_control": tc}, tokens[0])
    assert st == 201, game
    for t in tokens:
        server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, t)
    return str(game["id"])


def lateness(server: Server, gid: str) -> tuple[int, float | None]:
    """How many timeouts the game recorded, and how late the first fired (seconds)."""
    events = server.call("GET", f"/api/v1/games/{gid}/events")[1]["events"]
    outs = [e for e in events if e["type"] == "TurnTimedOut"]
    if not outs:
        return 0, None
    late = datetime.fromisoformat(outs[0]["at"]) - datetime.fromisoformat(outs[0]["data"]["deadline"])
    return len(outs), late.total_seconds()


def run(games: int, seconds: int, redis: str | None, clients: int) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dh-timeouts-"))
    env = {
        **os.environ,
        "DRAGONHALL_DATA_DIR": str(workdir / "var"),
        "DRAGONHALL_STORE": "sqlite",
        "DRAGONHALL_SWEEP_INTERVAL": "1",
        "DRAGONHALL_RATE_LIMITS": "0",  # thousands of registrations from one address: measure the timers
    }
    env.pop("DRAGONHALL_DATABASE_URL", None)
    worker = None
    if redis:
        env.update(DRAGONHALL_BROKER_URL=redis, DRAGONHALL_QUEUE_PREFIX=f"bench{uuid.uuid4().hex[:6]}.")
    server = Server(env, workdir)
    if redis:
        worker = Proc(["worker", "--concurrency", "8", "--beat"], env, workdir / "worker.log", workdir)
    try:
        started = time.time()
        with Progress(console=console) as progress, cf.ThreadPoolExecutor(clients) as pool:
            task = progress.add_task("creating games", total=games)
            ids = []
            for gid in pool.map(lambda _: create_game(server, seconds), range(games)):
                ids.append(gid)
                progress.advance(task)
        created = time.time() - started
        deadline = time.time() + seconds + 120
        with Progress(console=console) as progress:
            task = progress.add_task("waiting for timeouts", total=games)
            pending = set(ids)
            while pending and time.time() < deadline:
                listing = server.call("GET", "/api/v1/games?status=finished&limit=200")[1]["games"]
                done = {g["id"] for g in listing} & pending
                offset = 200
                while len(listing) == 200:
                    listing = server.call("GET", f"/api/v1/games?status=finished&limit=200&offset={offset}")[1]["games"]
                    done |= {g["id"] for g in listing} & pending
                    offset += 200
                pending -= done
                progress.update(task, completed=games - len(pending))
                time.sleep(0.5)
        with cf.ThreadPoolExecutor(clients) as pool:
            results = list(pool.map(lambda g: lateness(server, g), ids))
    finally:
        server.stop()
        if worker:
            worker.stop()
    lates = [late for _, late in results if late is not None]
    counts = [n for n, _ in results]
    return {
        "games": games,
        "per_move_s": seconds,
        "created_in_s": round(created, 1),
        "broker": redis or "embedded",
        "timed_out_once": sum(1 for n in counts if n == 1),
        "never": counts.count(0),
        "more_than_once": sum(1 for n in counts if n > 1),
        "late_p50_ms": round(1000 * statistics.median(lates), 1) if lates else None,
        "late_p99_ms": round(1000 * statistics.quantiles(lates, n=100)[98], 1) if len(lates) > 1 else None,
        "late_max_ms": round(1000 * max(lates), 1) if lates else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=20, help="the per-move time of every game")
    parser.add_argument("--redis", default=None, help="a Redis URL: use it as the broker, with a worker process")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    result = run(args.games, args.seconds, args.redis, args.clients)
    console.print(result)
    ok = result["timed_out_once"] == args.games
    console.print("[green]every game timed out exactly once[/]" if ok else "[red]some games did not time out once[/]")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
