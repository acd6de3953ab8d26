"""What the game's words cost a read: the narrated log of a long game, and a seat's moves in words.

Plays one long Tarasque game (six random bots, about 2,000 events) into a SQLite store, then times,
through the WSGI app in this process, what a person's page asks for:

* ``GET /log``, the whole log, as a page reads it when it opens (a reload);
* ``GET /log?after=N`` with N a few events back, as a page following the game reads each change;
* ``GET /events?after=0``, the redacted events the log is told from, as the yardstick;
* ``GET /legal-moves`` and ``GET /legal-moves?words=true`` for a Mékong seat programming (15,120
  moves, all pages), the most moves any game lists, without and with their phrases.

The log is built on read: a move's write path is unchanged (``request_cost.py --instructions`` says so
per move). Prints p50 and p99 of each, in milliseconds.

    python bench/game_log.py [--events 2000] [--samples 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from api.app import create_app
from bench.replay import long_game
from services.common.config import Settings
from services.common.ports import NullWork
from wiring import bootstrap

console = Console()


def timed(client: Any, url: str, samples: int, headers: dict[str, str] | None = None) -> list[float]:
    out = []
    for _ in range(samples):
        start = time.perf_counter()
        r = client.get(url, headers=headers or {})
        out.append(time.perf_counter() - start)
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return out


def every_page(client: Any, url: str, headers: dict[str, str]) -> float:
    start = time.perf_counter()
    offset, total = 0, 1
    while offset < total:
        body = client.get(f"{url}&offset={offset}", headers=headers).get_json()
        total, offset = body["total"], offset + len(body["moves"])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="dh-log-"))
    settings = Settings.from_env({"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": str(data)})
    platform = bootstrap(settings, work=NullWork())
    try:
        gid = long_game(platform, args.events, seed=5)
        version = platform.games.load(gid).version
        client = create_app(platform).test_client()
        rows = [
            ("GET /log (whole)", timed(client, f"/api/v1/games/{gid}/log", args.samples)),
            ("GET /log?after=N-10", timed(client, f"/api/v1/games/{gid}/log?after={version - 10}", args.samples)),
            ("GET /events?after=0", timed(client, f"/api/v1/games/{gid}/events?after=0", args.samples)),
        ]
        token = client.post("/api/v1/players", json={"name": "ann"}).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        mekong = client.post("/api/v1/games", json={"game": "mekong", "players": 2}, headers=auth).get_json()["id"]
        client.post(f"/api/v1/games/{mekong}/seats", json={}, headers=auth)
        client.post(f"/api/v1/games/{mekong}/seats", json={"bot": "random"}, headers=auth)
        plain = f"/api/v1/games/{mekong}/legal-moves?limit=1000"
        rows.append(("Mékong legal moves, all pages", [every_page(client, plain, auth) for _ in range(5)]))
        rows.append(("  the same, words=true", [every_page(client, plain + "&words=true", auth) for _ in range(5)]))
        table = Table(title=f"The game's words on read ({version} events in the long game)")
        for column in ("read", "p50 ms", "p99 ms"):
            table.add_column(column, justify="right" if column != "read" else "left")
        for name, times in rows:
            ms = sorted(t * 1000 for t in times)
            table.add_row(name, f"{statistics.median(ms):.1f}", f"{ms[min(len(ms) - 1, int(len(ms) * 0.99))]:.1f}")
        console.print(table)
    finally:
        platform.close()


if __name__ == "__main__":
    main()
