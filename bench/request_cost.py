"""What a move costs one HTTP process, measured without the network and the other processes.

``http_load.py`` measures the whole machine under load, and its figures move with
the machine: the same code has given 650 and 1,600 moves/s on SQLite on different
days, and 10% apart within an hour. This script plays the same two-player
Tarasque games (``bench/game_driver.py``) through the WSGI app in this process,
called as Granian calls it, and prints the CPU time of this thread per
``POST /moves`` and per ``GET /legal-moves``, and per move (a move's own POST, and
the GETs of the turns that passed). The store is set up as one of the two HTTP
processes of ``dragonhall serve`` has it: SQLite (or PostgreSQL) written by
several processes, with the read models projected elsewhere.

With ``--instructions`` it runs itself twice under valgrind's callgrind, for N and
for 3N moves, and prints the machine instructions per move: the difference of the
two counts over 2N, so that start-up cancels. The games are fixed (a set server
key, game ids from a seeded generator, and ``PYTHONHASHSEED=0``), so the count
repeats to about 0.3% however busy the machine is. Two versions of the code can
then be compared in one sitting, even on a noisy day::

    python bench/request_cost.py                      # CPU time per request, 2,000 moves
    python bench/request_cost.py --instructions      # instructions per move (needs valgrind; a few minutes)
    DRAGONHALL_SRC=/tmp/old python bench/request_cost.py --instructions   # another checkout's code
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("DRAGONHALL_SRC") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # bench.game_driver, if the other checkout lacks it

WARM_UP = 50
"""Moves played before measuring: the first requests fill caches and compile regular expressions."""


def measure(
    moves: int,
    store: str,
    data_dir: Path,
    database_url: str | None = None,
    deterministic: bool = False,
    counted: bool = False,
) -> dict[str, Any]:
    """Plays ``WARM_UP`` and then ``moves`` moves in this process; their CPU time per request.
    ``counted``: under callgrind, started without instrumentation, which is switched on for the
    ``moves`` alone (``callgrind_control``)."""
    if deterministic:
        ids = random.Random(7)
        uuid.uuid4 = lambda: uuid.UUID(int=ids.getrandbits(128), version=4)
    schema = _configure(store, data_dir, database_url, deterministic)
    app, platform = _serving_app()
    try:
        call = wsgi_caller(app)
        rng = random.Random(1)
        _play(call, rng, WARM_UP)
        if counted:
            _instrument("on")
        started = time.process_time()
        posts, gets = _play(call, rng, moves)
        elapsed = time.process_time() - started
        if counted:
            _instrument("off")
    finally:
        platform.close()
        gc.unfreeze()
        if schema:
            from bench.http_load import drop_schema

            drop_schema(database_url or "", schema)
    return {
        "store": store,
        "moves": len(posts),
        "post_cpu_ms_p50": 1000 * statistics.median(posts),
        "post_cpu_ms_mean": 1000 * statistics.fmean(posts),
        "get_cpu_ms_mean": 1000 * statistics.fmean(gets),
        "gets_per_move": len(gets) / len(posts),
        "cpu_ms_per_move": 1000 * (sum(posts) + sum(gets)) / len(posts),
        "process_cpu_ms_per_move": 1000 * elapsed / len(posts),
    }


def _configure(store: str, data_dir: Path, database_url: str | None, deterministic: bool) -> str | None:
    os.environ.update(DRAGONHALL_STORE=store, DRAGONHALL_DATA_DIR=str(data_dir), DRAGONHALL_HTTP_WORKERS="2")
    metrics = data_dir / "metrics"  # as ``dragonhall serve`` shares its processes' metrics (``infra.metrics_dir``)
    metrics.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
    if deterministic:
        os.environ["DRAGONHALL_SECRET_KEY"] = "d1" * 32
    if store != "postgres":
        return None
    schema = f"cost_{os.urandom(4).hex()}"  # the platform creates it (services.common.sqlstore)
    os.environ.update(DRAGONHALL_DATABASE_URL=database_url or "", DRAGONHALL_POSTGRES_SCHEMA=schema)
    return schema


def _serving_app() -> tuple[Any, Any]:
    """The app as an HTTP process of ``dragonhall serve`` builds it (``api.app.serving_app``),
    but without the projection runner, which ``serve`` runs in a process of its own."""
    from api.app import create_app

    if (ROOT / "wiring").is_dir():
        from wiring import bootstrap
    else:  # a checkout from before the composition root moved to wiring/ (0e4cf93)
        from services.bootstrap import bootstrap

    platform = bootstrap(projections=False)
    app = create_app(platform)
    gc.collect()
    gc.freeze()
    return app, platform


def wsgi_caller(app: Any) -> Any:
    """``call(method, path, body, token)`` through ``app.wsgi_app``; the seconds it returns are
    this thread's CPU time in the app, not counting the request's construction."""
    from werkzeug.test import EnvironBuilder

    def call(method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any, float]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        environ = EnvironBuilder(method=method, path=path, json=body, headers=headers).get_environ()
        status: list[str] = []
        started = time.thread_time()
        chunks = app.wsgi_app(environ, lambda s, h, exc_info=None: status.append(s))
        data = b"".join(chunks)
        took = time.thread_time() - started
        return int(status[0].split()[0]), json.loads(data) if data else None, took

    return call


def _play(call: Any, rng: random.Random, moves: int) -> tuple[list[float], list[float]]:
    from bench.game_driver import play_game

    posts: list[float] = []
    gets: list[float] = []
    while len(posts) < moves:
        left = moves - len(posts)
        played = play_game(call, rng, lambda in_game, left=left: in_game < left)
        if played.errors:
            raise RuntimeError(f"{played.errors} moves were refused in game {played.game_id}")
        posts += played.moves
        gets += played.gets
    return posts, gets


def instructions_per_move(moves: int, store: str, database_url: str | None) -> dict[str, Any]:
    """Instructions per move under callgrind: runs for N and 3N moves (side by side), and
    divides the difference.

    Each run starts without instrumentation (valgrind then runs the start-up and the warm-up a few
    times slower than without it, rather than some fifty times) and counts only while it plays its
    moves, and only on the thread that plays them (``--separate-threads``): the background threads
    (the checkpointer, the embedded worker's timers) do work by the second, not by the move, and
    under valgrind a busy machine gives them more seconds."""
    with tempfile.TemporaryDirectory(prefix="dh-cost-") as tmp:
        outs = [Path(tmp) / f"callgrind.{n}" for n in (moves, 3 * moves)]
        runs = [_start_callgrind(n, store, database_url, out) for n, out in zip((moves, 3 * moves), outs, strict=True)]
        counts = [_collected(run, out) for run, out in zip(runs, outs, strict=True)]
    return {
        "store": store,
        "instructions_per_move": (counts[1] - counts[0]) / (2 * moves),
        "instructions": counts,
        "moves": [moves, 3 * moves],
    }


def _start_callgrind(moves: int, store: str, database_url: str | None, out: Path) -> subprocess.Popen[str]:
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--separate-threads=yes",
        f"--callgrind-out-file={out}",
        sys.executable,
        __file__,
        "--moves",
        str(moves),
        "--store",
        store,
        "--deterministic",
        "--counted",
        "--json",
    ]
    if database_url:
        cmd += ["--database-url", database_url]
    return subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
    )


def _instrument(state: str) -> None:
    """Switches callgrind's instrumentation of this process on or off; it has taken effect when
    ``callgrind_control`` returns (the main thread waits for it meanwhile)."""
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, stdout=subprocess.DEVNULL)


def _collected(run: subprocess.Popen[str], out: Path) -> int:
    """The instructions counted on the run's main thread (callgrind's ``<out>-01``), which plays the moves."""
    _, err = run.communicate()
    main_thread = Path(f"{out}-01")
    found = re.search(r"^totals:\s*(\d+)", main_thread.read_text(), re.M) if main_thread.exists() else None
    if run.returncode or not found:
        raise RuntimeError(f"callgrind run failed ({run.returncode}): {err[-1500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--moves",
        type=int,
        default=None,
        help="moves to measure (default: 2,000; with --instructions, N of the N and 3N runs: 150)",
    )
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DRAGONHALL_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument("--instructions", action="store_true", help="count instructions per move under callgrind")
    parser.add_argument("--deterministic", action="store_true", help="fixed games (set by --instructions)")
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)  # run by --instructions
    args = parser.parse_args()
    url = args.database_url if args.store == "postgres" else None
    if (ROOT / "infra" / "log_lines.py").exists():  # the JSON log lines ``dragonhall`` configures
        from infra import log_lines

        log_lines.configure("WARNING")
    if args.instructions:
        result = instructions_per_move(args.moves or 150, args.store, url)
    else:
        with tempfile.TemporaryDirectory(prefix="dh-cost-") as tmp:
            result = measure(args.moves or 2000, args.store, Path(tmp), url, args.deterministic, args.counted)
    result["code"] = str(ROOT)
    print(json.dumps(result))
    if not args.json:
        _report(result)


def _report(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"What a move costs one HTTP process ({result['store']}, code in {result['code']})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    if "instructions_per_move" in result:
        table.add_row("instructions per move", f"{result['instructions_per_move'] / 1e6:.3f} M")
        for n, count in zip(result["moves"], result["instructions"], strict=True):
            table.add_row(f"instructions, start-up and {n} moves", f"{count / 1e6:.1f} M")
    else:
        table.add_row("moves measured", str(result["moves"]))
        table.add_row("POST /moves, CPU ms (median)", f"{result['post_cpu_ms_p50']:.3f}")
        table.add_row("POST /moves, CPU ms (mean)", f"{result['post_cpu_ms_mean']:.3f}")
        table.add_row("GET /legal-moves, CPU ms (mean)", f"{result['get_cpu_ms_mean']:.3f}")
        table.add_row("GETs per move", f"{result['gets_per_move']:.2f}")
        table.add_row("requests' CPU ms per move", f"{result['cpu_ms_per_move']:.3f}")
        table.add_row(
            "process CPU ms per move (with the client side and other threads)",
            f"{result['process_cpu_ms_per_move']:.3f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
