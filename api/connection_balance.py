"""Spreading clients' keep-alive connections evenly over the HTTP processes.

Each HTTP process of ``dragonhall serve`` binds its own socket to the port
(``SO_REUSEPORT``), and the kernel hands each new connection to one of them by a
hash of its addresses. A client's keep-alive connection then stays with that
process as long as it lives, and the split is whatever the hash made it: with 32
connections, 21 and 11 is common. The two processes get the same share of the
CPU, so the clients of the fuller one wait nearly twice as long, for the whole of
their session. Measured with ``bench/http_load.py``, a 16/14 split served 1,030
moves per client where the other side served 868, and a 21/11 split put the p99
of a move near 47 ms where an even one kept it near 35.

So every process counts, each second, the established connections on the port
(everyone's, and its own). When it holds more than its share, it answers as many
requests as it has connections over its share with ``Connection: close``. Those
clients reconnect, as HTTP/1.1 clients do, the kernel hashes their new connections
afresh, and within a few seconds the split is even to one connection.

It reads Linux's ``/proc``; where that is missing, it sheds nothing.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable
from pathlib import Path

from flask import Flask, Response

ESTABLISHED, LISTEN = "01", "0A"
"""TCP states as ``/proc/net/tcp`` writes them: an open connection, a listening socket."""

INTERVAL = 1.0
"""Seconds between counts."""


def sockets_on(port: int, state: str = ESTABLISHED,
               tables: Iterable[str] = ("/proc/net/tcp", "/proc/net/tcp6")) -> set[str]:
    """The inodes of the sockets in TCP ``state`` whose local end is ``port``."""
    inodes: set[str] = set()
    for table in tables:
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == state and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def own_sockets(fd_dir: str = "/proc/self/fd") -> set[str]:
    """The inodes of the sockets this process holds."""
    inodes = set()
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return inodes
    for name in names:
        try:
            link = os.readlink(f"{fd_dir}/{name}")
        except OSError:
            continue  # closed since the listing
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    return inodes


def excess(mine: int, everyone: int, processes: int) -> int:
    """How many connections a process holding ``mine`` of ``everyone`` holds over its share."""
    return max(0, mine - math.ceil(everyone / processes))


class ConnectionBalancer:
    """Counts this process's share of the port's connections, and says which responses
    should close theirs (``should_close``), one per connection over the share."""

    def __init__(self, port: int, processes: int) -> None:
        self.port = port
        self.processes = processes
        self._to_close = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def count(self) -> int:
        """Counts the connections now, and sets how many responses are to close theirs."""
        everyone = sockets_on(self.port)
        over = excess(len(everyone & own_sockets()), len(everyone), self.processes)
        with self._lock:
            self._to_close = over
        return over

    def should_close(self) -> bool:
        """Whether the response being written should close its connection."""
        if not self._to_close:  # the common case, without the lock
            return False
        with self._lock:
            if self._to_close <= 0:
                return False
            self._to_close -= 1
            return True

    def attach(self, app: Flask) -> None:
        """Marks ``app``'s responses to close when this process is over its share, and
        starts counting."""

        @app.after_request
        def close_if_over_share(response: Response) -> Response:
            if self.should_close():
                response.headers["Connection"] = "close"
            return response

        self._thread = threading.Thread(target=self._run, name="connection-balance", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            self.count()


def from_environment() -> ConnectionBalancer | None:
    """The balancer of one of several HTTP processes of ``dragonhall serve``, which sets
    ``DRAGONHALL_HTTP_WORKERS`` and ``DRAGONHALL_HTTP_PORT``; None when alone, or where
    there is no ``/proc``."""
    processes = int(os.environ.get("DRAGONHALL_HTTP_WORKERS") or 1)
    port = os.environ.get("DRAGONHALL_HTTP_PORT")
    if processes < 2 or not port or not Path("/proc/net/tcp").exists():
        return None
    return ConnectionBalancer(int(port), processes)
