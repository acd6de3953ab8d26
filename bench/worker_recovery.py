"""Recovery after a worker is SIGKILLed, and the bot tasks that write nothing.

Starts the production layout on this machine: `dragonhall serve` (its projection
process embedded), a Redis broker, `dragonhall worker --beat` that is never
killed and `dragonhall worker` whose Celery process is SIGKILLed ``--kills``
times. Server bots play ``--games`` games at all times (a finished game is
replaced). At each kill it notes every game still running; a game has recovered
when the store holds its first event stamped after the kill. It prints, over
the kills, the distribution of the time until the last of them recovered (a
live worker is available all along: the one never killed), and, from the
workers' logs, the fraction of bot tasks that wrote nothing (``play_bot``
returned False: the turn had been played, or the game had moved on).

    python bench/worker_recovery.py --kills 10
    python bench/worker_recovery.py --store sqlite --kills 3
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console

from bench.http_load import drop_schema
from tests.support.processes import Proc, Server

console = Console()
GAMES = (("tarasque", 4), ("seven-dragons", 3), ("mekong", 3), ("drachenreiter", 2))
PLAYED = re.compile(r"Task dragonhall\.play_bot\[[^\]]+\] succeeded in [0-9.e-]+s: (True|False)")


def celery_child(supervisor: Proc) -> int | None:
    """The Celery worker process that ``dragonhall worker`` supervises."""
    pid = supervisor.popen.pid
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def ready(worker: Proc) -> int:
    """How many times the worker's Celery process has said it is ready (its first start and restarts)."""
    return worker.log.read_text(errors="replace").count(" ready.")


class Games:
    """Keeps ``count`` bot games running through the HTTP API, replacing those that end."""

    def __init__(self, server: Server, count: int) -> None:
        self.server = server
        self.count = count
        self.running: set[str] = set()
        self.made = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.is_set():
            for gid in list(self.running):
                st, doc = self.server.call("GET", f"/api/v1/games/{gid}")
                if st == 200 and doc["status"] != "active":
                    self.running.discard(gid)
            while len(self.running) < self.count:
                game, players = GAMES[self.made % len(GAMES)]
                self.running.add(self.server.bot_game(game, players)[0])
                self.made += 1
            self._stop.wait(0.5)


def first_events_after(reader: Any, position: int, games: set[str], until: float) -> dict[str, datetime]:
    """Each of ``games``'s first event after ``position`` in the notification log, polled until ``until``."""
    first: dict[str, datetime] = {}
    mapper = reader.store.mapper
    while len(first) < len(games) and time.time() < until:
        for n in reader.store.recorder.select_notifications(position + 1, 1000):
            position = n.id
            gid = str(n.originator_id)
            if gid in games and gid not in first:
                first[gid] = mapper.to_domain_event(n).timestamp
        time.sleep(0.1)
    return first


def one_kill(reader: Any, worker: Proc, games: Games, patience: float) -> float | None:
    """Kills the worker's Celery process; seconds until every game running then has an event after it."""
    pid = celery_child(worker)
    if pid is None:
        return None
    watched = set(games.running)
    position = reader.store.recorder.max_notification_id() or 0
    killed = datetime.now(UTC)
    os.kill(pid, signal.SIGKILL)
    first = first_events_after(reader, position, watched, time.time() + patience)
    for gid in watched - set(first):
        if reader.games.load(gid).status != "active":  # it had ended at the kill (the list lags a little)
            watched.discard(gid)
    if set(first) != watched:
        return None  # some game did not recover within ``patience``
    return max(((t - killed).total_seconds() for t in first.values()), default=0.0)


def wasted(logs: list[Path]) -> tuple[int, int]:
    played = [m.group(1) for log in logs for m in PLAYED.finditer(log.read_text(errors="replace"))]
    return played.count("False"), len(played)


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dh-recovery-"))
    env = {
        **os.environ,
        "DRAGONHALL_DATA_DIR": str(workdir / "var"),
        "DRAGONHALL_STORE": args.store,
        "DRAGONHALL_BROKER_URL": args.redis_url,
        "DRAGONHALL_QUEUE_PREFIX": f"bench{uuid.uuid4().hex[:6]}.",
        "DRAGONHALL_RATE_LIMITS": "0",
        "DRAGONHALL_SECRET_KEY": "33" * 32,
    }
    schema = None
    if args.store == "postgres":
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        env.update(DRAGONHALL_DATABASE_URL=args.database_url, DRAGONHALL_POSTGRES_SCHEMA=schema)
    else:
        env.pop("DRAGONHALL_DATABASE_URL", None)
    os.environ.update({k: v for k, v in env.items() if k.startswith("DRAGONHALL_")})
    server = Server(env, workdir)
    steady = Proc(["worker", "--concurrency", "4", "--beat"], env, workdir / "steady.log", workdir)
    victim = Proc(["worker", "--concurrency", "4"], env, workdir / "victim.log", workdir)
    from services.common.ports import NullWork
    from wiring import bootstrap

    reader = bootstrap(projections=False, work=NullWork())
    games = Games(server, args.games)
    recoveries: list[float] = []
    failures = 0
    try:
        games.start()
        time.sleep(args.settle)
        for k in range(args.kills):
            while ready(victim) <= k:  # its supervisor pauses longer after each kill (workers.supervisor)
                time.sleep(0.2)
            time.sleep(args.settle)  # the restarted worker takes tasks again
            took = one_kill(reader, victim, games, args.patience)
            if took is None:
                failures += 1
            else:
                recoveries.append(took)
            console.print(f"kill {k + 1}: " + (f"{took:.2f} s" if took is not None else "not recovered"))
        games.stop()
        lost, tasks = wasted([workdir / "steady.log", workdir / "victim.log"])
    finally:
        games.stop()
        reader.close()
        server.stop()
        steady.stop()
        victim.stop()
        if schema:
            drop_schema(args.database_url, schema)
    ordered = sorted(recoveries)
    return {
        "store": args.store,
        "kills": args.kills,
        "games_in_flight": args.games,
        "games_made": games.made,
        "not_recovered_within_s": {args.patience: failures},
        "recovery_s": [round(t, 2) for t in ordered],
        "recovery_p50_s": round(statistics.median(ordered), 2) if ordered else None,
        "recovery_max_s": round(ordered[-1], 2) if ordered else None,
        "bot_tasks": tasks,
        "bot_tasks_wasted": lost,
        "wasted_fraction": round(lost / tasks, 3) if tasks else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--games", type=int, default=12, help="bot games in flight")
    parser.add_argument("--store", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DRAGONHALL_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("DRAGONHALL_TEST_REDIS_URL", "redis://127.0.0.1:6379/14"))
    parser.add_argument("--settle", type=float, default=4.0, help="seconds between a restart and the next kill")
    parser.add_argument("--patience", type=float, default=90.0, help="seconds a kill may take to recover")
    console.print(run(parser.parse_args()))


if __name__ == "__main__":
    main()
