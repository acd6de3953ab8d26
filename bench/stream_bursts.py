"""Many game streams opened at the same instant, on the embedded path and through Pushpin.

Starts ``dragonhall serve`` (SQLite, two HTTP processes), with ``--engine pushpin`` also a Pushpin of
its own in front of it (``tests.support.pushpin``), creates a few started games, and opens
``--streams`` spectator streams at once, each on a connection of its own. It prints how the first
tries were answered (status lines), then opens the refused ones again as the client library does
(``dragonhall.streams``: a doubling backoff with jitter from 0.5 s) and prints how many opened in
the end and after how long. Issue 35 found Pushpin refusing part of such a burst at once: 502 "Error
while proxying to origin." where its proxy's queue to zurl is full, 500 "Accept service unavailable."
where its queue to its handler is (``docs/operations.md``, streams held by Pushpin).

    python bench/stream_bursts.py --engine pushpin --streams 1000
    python bench/stream_bursts.py --engine both --streams 600
"""

from __future__ import annotations

import argparse
import random
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_load import _wait_for_listeners  # noqa: E402
from bench.streams import prepare, streams_env  # noqa: E402
from tests.support.processes import Server, free_port  # noqa: E402
from tests.support.pushpin import running_pushpin  # noqa: E402

GAMES = 4
BACKOFF = 0.5
"""The client library's first reconnection delay (``dragonhall.streams.RECONNECT``)."""
TRIES = 8


def _first_status(port: int, path: str) -> tuple[str, socket.socket | None]:
    """The status line of one opening, and its socket while the stream is held (None if refused)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: application/x-ndjson\r\n\r\n".encode())
        status = s.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
    except OSError as e:
        s.close()
        return f"error {type(e).__name__}", None
    if " 200 " in status + " ":
        return status, s
    s.close()
    return status, None


def burst(port: int, paths: list[str]) -> dict[str, object]:
    """Opens every path at once; retries the refused ones with the library's backoff."""
    go = threading.Event()
    first: Counter[str] = Counter()
    opened_after: list[float] = []
    held: list[socket.socket] = []
    lock = threading.Lock()

    def one(path: str) -> None:
        go.wait()
        started = time.monotonic()
        for attempt in range(1, TRIES + 1):
            status, s = _first_status(port, path)
            with lock:
                if attempt == 1:
                    first[status] += 1
                if s is not None:
                    held.append(s)
                    opened_after.append(time.monotonic() - started)
                    return
            time.sleep(min(10.0, BACKOFF * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0))

    threads = [threading.Thread(target=one, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    time.sleep(0.5)
    go.set()
    for t in threads:
        t.join()
    for s in held:
        s.close()
    opened_after.sort()
    return {
        "first_tries": dict(first),
        "opened": len(opened_after),
        "of": len(paths),
        "all_open_after_s": round(opened_after[-1], 2) if opened_after else None,
        "p50_open_s": round(opened_after[len(opened_after) // 2], 3) if opened_after else None,
    }


def run(engine: str, streams: int) -> dict[str, object]:
    workdir = Path(tempfile.mkdtemp(prefix="dh-bursts-"))
    publish_port = free_port()
    server = Server(streams_env(workdir, "sqlite", engine, publish_port), workdir, ("--workers", "2"))
    try:
        _wait_for_listeners(server.popen.pid, server.port, 2)
        games = [gid for slot in prepare(server.port, GAMES, 1) for gid, _version in slot.games]
        paths = [f"/api/v1/games/{games[i % len(games)]}/stream" for i in range(streams)]
        if engine != "pushpin":
            return {"engine": engine, **burst(server.port, paths)}
        with running_pushpin(server.port, publish_port) as pushpin:
            return {"engine": engine, **burst(int(pushpin.url.rsplit(":", 1)[1]), paths)}
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=("embedded", "pushpin", "both"), default="both")
    parser.add_argument("--streams", type=int, default=1000)
    args = parser.parse_args()
    for engine in ("embedded", "pushpin") if args.engine == "both" else (args.engine,):
        print(run(engine, args.streams), flush=True)


if __name__ == "__main__":
    main()
