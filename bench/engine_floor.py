"""What a line costs each fan-out engine, with nothing else to do: Pushpin against nchan.

Issue 35 asks to choose the engine that holds the streams "with figures". This bench gives each
engine the same work and measures its own processes' CPU: ``--streams`` subscribers spread over
``--channels`` channels (as a game's viewer classes are), held by client processes of raw sockets,
and a publisher that sends one line to every channel ``--rate`` / (streams / channels) times a
second, so that about ``--rate`` lines a second reach the subscribers. It prints, per engine, the
lines read, the engine's CPU per delivered line (its whole process tree: Pushpin's condure,
handler and proxy; nginx's master and worker), and the publisher's CPU per published line (the
API's share of a publish, which an HTTP POST per batch costs on both).

* **Pushpin** (Debian's, started as the tests start it, ``tests/support/pushpin.py``): each
  subscriber's request is answered by a small origin with ``Grip-Hold: stream`` on its channel; the
  publisher POSTs every channel's line of a tick in one request to ``/publish/``.
* **nchan** (Debian's ``libnginx-mod-nchan`` in its own ``nginx``, one worker): subscribers ``GET
  /sub/<channel>`` (``http-raw-stream``, a line each); the publisher POSTs each channel's line to
  ``/pub/<channel>``: nchan takes one channel a request.

An engine that is not installed is left out, saying so (``apt-get install pushpin
libnginx-mod-nchan``; the suite needs only Pushpin, which ``tests/ensure_packages.sh`` installs).

    python bench/engine_floor.py                               # 1,000 streams, 32 channels, 10,000 lines/s
    python bench/engine_floor.py --rate 20000 --seconds 10 --engines nchan
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.table import Table

from bench.fanout_floor import _clients
from bench.http_load import _tree_cpu_seconds
from tests.support.processes import free_port

console = Console()
NCHAN_MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
NGINX = "/usr/sbin/nginx"
NGINX_CONF = """load_module {module};
user root;
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    nchan_message_buffer_length 16;
    server {{
        listen 127.0.0.1:{port};
        location ~ ^/sub/(\\w+)$ {{ nchan_subscriber http-raw-stream; nchan_channel_id $1; }}
        location ~ ^/pub/(\\w+)$ {{ nchan_publisher; nchan_channel_id $1; }}
    }}
}}
"""
LINE = orjson.dumps({"type": "events", "version": 0, "events": [{"type": "MoveMade", "data": "x" * 400}]}) + b"\n"
"""About the size of a Tarasque move's line (600 bytes)."""


# ------------------------------------------------------------ the engines


class _Origin(BaseHTTPRequestHandler):
    """Pushpin's origin: holds every subscriber's request on the channel its path names."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        channel = self.path.rsplit("/", 1)[-1]
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Grip-Hold", "stream")
        self.send_header("Grip-Channel", channel)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def pushpin() -> Iterator[tuple[int, int, Any]]:
    """Pushpin in front of an origin that holds every request: (client port, engine pid, publish)."""
    from tests.support.pushpin import running_pushpin

    origin = ThreadingHTTPServer(("127.0.0.1", 0), _Origin)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    try:
        with running_pushpin(origin.server_address[1]) as pp, httpx.Client(timeout=10) as client:
            url = pp.publish_url + "/publish/"
            content = LINE.decode()

            def publish(channels: list[str]) -> None:
                items = [{"channel": c, "formats": {"http-stream": {"content": content}}} for c in channels]
                client.post(url, content=orjson.dumps({"items": items}))

            yield int(pp.url.rsplit(":", 1)[1]), pp.popen.pid, publish
    finally:
        origin.shutdown()


@contextmanager
def nchan() -> Iterator[tuple[int, int, Any]]:
    """nginx with nchan, one worker: (client port, engine pid, publish)."""
    root = Path(tempfile.mkdtemp(prefix="nchan"))
    (root / "body").mkdir()
    port = free_port()
    (root / "nginx.conf").write_text(NGINX_CONF.format(module=NCHAN_MODULE, dir=root, port=port))
    popen = subprocess.Popen(  # its output to a file: an inherited pipe would outlive the bench
        [NGINX, "-c", str(root / "nginx.conf"), "-p", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_listening(port)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

        def publish(channels: list[str]) -> None:
            """One POST a channel (nchan's publisher takes one channel a request), on one keep-alive
            connection."""
            for c in channels:
                conn.request("POST", f"/pub/{c}", body=LINE)
                conn.getresponse().read()

        try:
            yield port, popen.pid, publish
        finally:
            conn.close()
    finally:
        os.killpg(popen.pid, signal.SIGTERM)
        popen.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def _wait_listening(port: int) -> None:
    for _ in range(100):
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not listen on {port}")


ENGINES = {"pushpin": pushpin, "nchan": nchan}


def installed(engine: str) -> bool:
    if engine == "pushpin":
        return Path("/usr/bin/pushpin").exists()
    return Path(NGINX).exists() and NCHAN_MODULE.exists()


# ------------------------------------------------------------ one measure


def measure(engine: str, streams: int, channels: int, rate: int, seconds: float, processes: int) -> dict[str, Any]:
    """One engine under the load the module describes."""
    names = [f"c{i}" for i in range(channels)]
    paths = [f"/sub/{names[i % channels]}" for i in range(streams)]
    ticks = rate / streams  # ticks a second: each sends one line to every channel, so to every stream
    with ENGINES[engine]() as (port, pid, publish):
        out: Any = mp.Queue()
        clients = [
            mp.Process(target=_clients, args=(port, paths[k::processes], seconds, out)) for k in range(processes)
        ]
        for c in clients:
            c.start()
        time.sleep(1.0)  # the clients open their streams (about 0.5 s) and wait 2 s before they count
        stop = time.perf_counter() + seconds + 1.5
        cpu_before, published, publisher_cpu = _tree_cpu_seconds(pid), 0, time.process_time()
        started = time.perf_counter()
        while time.perf_counter() < stop:
            publish(names)
            published += channels
            time.sleep(max(0.0, started + published / channels / ticks - time.perf_counter()))
        engine_cpu = _tree_cpu_seconds(pid) - cpu_before
        publisher_cpu = time.process_time() - publisher_cpu
        results = [out.get(timeout=seconds + 60) for _ in clients]
        for c in clients:
            c.join()
    lines = sum(r[0] for r in results)
    elapsed = seconds + 1.5
    return {
        "engine": engine,
        "streams_open": sum(r[2] for r in results),
        "lines_per_s": lines / seconds,
        # the engine's CPU over the publishing, against the lines of the same rate over it
        "engine_us_per_line": 1e6 * engine_cpu / max(1.0, lines / seconds * elapsed),
        "publisher_us_per_publish": 1e6 * publisher_cpu / max(1, published),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--rate", type=int, default=10000, help="lines a second to reach the subscribers, in all")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--processes", type=int, default=2, help="client processes holding the streams")
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=list(ENGINES))
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    table = Table(
        title=f"A line's CPU in each engine ({args.streams} streams on {args.channels} channels, "
        f"{args.rate} lines/s asked)"
    )
    for col in ("round", "engine", "streams open", "lines/s read", "engine µs/line", "publisher µs/publish"):
        table.add_column(col, justify="right")
    for r in range(args.rounds):
        for engine in args.engines if r % 2 == 0 else args.engines[::-1]:
            if not installed(engine):
                console.print(f"{engine} is not installed: left out")
                continue
            m = measure(engine, args.streams, args.channels, args.rate, args.seconds, args.processes)
            print(orjson.dumps({"round": r, **m}).decode(), flush=True)
            table.add_row(
                str(r),
                engine,
                str(m["streams_open"]),
                f"{m['lines_per_s']:.0f}",
                f"{m['engine_us_per_line']:.1f}",
                f"{m['publisher_us_per_publish']:.1f}",
            )
    console.print(table)


if __name__ == "__main__":
    main()
