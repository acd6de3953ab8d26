"""The floor of a stream line's cost in this server stack: Granian, RSGI, asyncio, one Python process.

Serves ``fanout_app.py`` (one Granian HTTP process), opens ``--streams`` streams on it from a
client process of raw sockets, lets its producer fan ``--rate`` lines a second out to them, and
prints the server's CPU per line delivered, which is what ``api.stream_hub`` can at best reach:
the hub also reads and builds the lines, and shares its process's GIL with the requests.

It gives ``streams.py``'s throughput target its ceiling. A move costs the server about 2 ms of
CPU without streams; with 1,000 game streams over 32 games each move is sent to 31 streams, so
at this floor the sends alone cost 31 x floor per move, and the throughput with the streams can
be at most 2 / (2 + 0.031 x floor in µs / 1000) of the throughput without them.

    python bench/fanout_floor.py                      # 1,000 streams, 10,000 and 20,000 lines/s
    python bench/fanout_floor.py --rates 5000 30000 --seconds 8
    python bench/fanout_floor.py --frame-bytes 1500    # lines as long as a bench's own
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from bench.http_load import _tree_cpu_seconds
from tests.support.processes import free_port

console = Console()
ROOT = Path(__file__).resolve().parents[1]


OPENING_BURST = 50
"""Streams a client process opens at once before a pause (Pushpin refuses part of a larger burst:
``engine_floor.py``, docs/operations.md)."""


def _clients(port: int, paths: list[str], seconds: float, out: Any) -> None:
    """A client process: opens a stream on each path, counts lines (``}\\n``) for ``seconds`` once all
    are open, and puts (lines, its own CPU seconds, streams answered 200)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    out.put(asyncio.run(_hold(port, paths, seconds)))


async def _hold(port: int, paths: list[str], seconds: float) -> tuple[int, float, int]:
    seen = [0]
    opened = [0]

    class Counting(asyncio.Protocol):
        def __init__(self, path: str) -> None:
            self.path = path

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)
            transport.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())

        def data_received(self, data: bytes) -> None:
            if data.startswith(b"HTTP/1.1 200"):
                opened[0] += 1
            seen[0] += data.count(b"}\n")

    loop = asyncio.get_running_loop()
    for k, path in enumerate(paths):
        await loop.create_connection(lambda path=path: Counting(path), "127.0.0.1", port)  # type: ignore[misc]
        if k % OPENING_BURST == OPENING_BURST - 1:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2)  # every stream open and served before the count starts
    before, cpu = seen[0], time.process_time()
    await asyncio.sleep(seconds)
    return seen[0] - before, time.process_time() - cpu, opened[0]


def measure(rate: int, streams: int, seconds: float, frame_bytes: int = 0) -> dict[str, float]:
    """The server's (and the client's) CPU per line, fanning ``rate`` lines a second out to ``streams``
    streams; ``frame_bytes`` pads each line to that length (``fanout_app.frame``), 0 leaves it short."""
    port = free_port()
    env = {**os.environ, "FANOUT_RATE": str(rate), "FANOUT_FRAME_BYTES": str(frame_bytes), "PYTHONPATH": str(ROOT)}
    granian = str(Path(sys.executable).parent / "granian")
    options = ["--interface", "rsgi", "--workers", "1", "--port", str(port), "--backpressure", str(streams + 64)]
    server = subprocess.Popen([granian, *options, "--log-level", "warning", "bench.fanout_app:app"], env=env, cwd=ROOT)
    try:
        time.sleep(2)
        out: Any = mp.Queue()
        client = mp.Process(target=_clients, args=(port, ["/s"] * streams, seconds, out))
        client.start()
        time.sleep(2 + 0.5)
        cpu_before = _tree_cpu_seconds(server.pid)
        lines, client_cpu, _ = out.get(timeout=seconds + 120)
        server_cpu = _tree_cpu_seconds(server.pid) - cpu_before
        client.join()
    finally:
        server.terminate()
        server.wait(10)
    return {
        "rate": rate,
        "lines_per_s": lines / seconds,
        "server_us_per_line": 1e6 * server_cpu / max(1, lines),
        "client_us_per_line": 1e6 * client_cpu / max(1, lines),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--rates", type=int, nargs="+", default=[10000, 20000], help="lines a second, in all")
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--frame-bytes", type=int, default=0, help="pad each line to this length (0: 250 bytes)")
    args = parser.parse_args()
    title = f"A line's CPU with nothing but sends ({args.streams} streams, one Granian process"
    table = Table(title=title + (f", {args.frame_bytes}-byte lines)" if args.frame_bytes else ")"))
    for col in ("lines/s asked", "lines/s read", "server µs/line", "raw client µs/line", "ceiling at 2 ms/move"):
        table.add_column(col, justify="right")
    for rate in args.rates:
        m = measure(rate, args.streams, args.seconds, args.frame_bytes)
        ceiling = 2.0 / (2.0 + 31 * m["server_us_per_line"] / 1000)
        table.add_row(
            str(rate),
            f"{m['lines_per_s']:.0f}",
            f"{m['server_us_per_line']:.1f}",
            f"{m['client_us_per_line']:.1f}",
            f"{ceiling:.0%}",
        )
        print(m, flush=True)
    console.print(table)


if __name__ == "__main__":
    main()
