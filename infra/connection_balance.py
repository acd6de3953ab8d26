"""Spreading clients' keep-alive connections evenly over the HTTP processes.

Each HTTP process of ``dragonhall serve`` binds its own socket to the port
(``SO_REUSEPORT``), and the kernel hands each new connection to one of them by a
hash of its addresses. A client's keep-alive connection then stays with that
process as long as it lives, and the split is whatever the hash made it: with 32
connections, 21 and 11 is common. The two processes get the same share of the
CPU, so the clients of the fuller one wait nearly twice as long, for the whole of
their session. Measured with ``bench/http_load.py`` (32 games in flight): in a 16/14
split each client of the lighter process made 1,030 moves where those of the other
made 868; a run split 21/11 had a p99 of 46.7 ms per move, and runs evened out by
this module 33.6-39.6 ms.

So every process counts, each second, the port's active connections (those a
request came on lately), everyone's and its own, from the kernel's socket table.
When it holds more than its share, it answers as many requests as it has
connections over its share with ``Connection: close``. Those clients reconnect, as
HTTP/1.1 clients do, the kernel hashes their new connections afresh, and within a
few seconds the split is even to one connection.

It asks Linux (``sock_diag`` for the connections and how long each has been
quiet, ``/proc/self/fd`` for its own); elsewhere it sheds nothing.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import struct
import threading

from flask import Flask, Response, request

log = logging.getLogger("dragonhall.http")

ESTABLISHED, LISTEN = 1, 10
"""TCP states, as the kernel numbers them."""

INTERVAL = 1.0
"""Seconds between counts."""
ACTIVE_MS = 5000
"""A connection counts if a request came on it in this many milliseconds: idle keep-alive
connections (a browser's, say) weigh nothing, so closing busy connections to even
out idle ones never piles the busy ones onto one process."""

_NETLINK_SOCK_DIAG, _SOCK_DIAG_BY_FAMILY = 4, 20
_NLM_F_REQUEST_DUMP = 0x1 | 0x300
_NLMSG_ERROR, _NLMSG_DONE = 2, 3
_INET_DIAG_INFO = 2
_INET_DIAG_REQ_BYTECODE, _INET_DIAG_BC_S_GE, _INET_DIAG_BC_S_LE = 1, 2, 3
_OP = struct.Struct("=BBH")  # struct inet_diag_bc_op: code, bytes to jump if true, if false
_HEADER = struct.Struct("=IHHII")  # struct nlmsghdr
_REQUEST = struct.Struct("=BBBxI48x")  # struct inet_diag_req_v2, its socket id left zero
_MESSAGE = struct.Struct("=BBBB2s34x12xIIIII")  # struct inet_diag_msg: sport (big-endian) ... inode
_ATTRIBUTE = struct.Struct("=HH")  # struct rtattr
_LAST_DATA_RECV = struct.Struct("=52xI")  # struct tcp_info: tcpi_last_data_recv, in ms


def tcp_sockets(port: int, state: int = ESTABLISHED) -> dict[int, int]:
    """The TCP sockets in ``state`` whose local end is ``port``, by inode, each with the
    milliseconds since it last received data; from the kernel's ``sock_diag`` (Linux).
    ``OSError`` where that is missing."""
    found: dict[int, int] = {}
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG) as nl:
        for family in (socket.AF_INET, socket.AF_INET6):
            body = _REQUEST.pack(family, socket.IPPROTO_TCP, 1 << (_INET_DIAG_INFO - 1), 1 << state)
            body += _port_filter(port)
            nl.send(_HEADER.pack(_HEADER.size + len(body), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST_DUMP, 1, 0) + body)
            _read_dump(nl, port, found)
    return found


def _port_filter(port: int) -> bytes:
    """The kernel's filter program for "local port is ``port``" (``port >= p`` and then
    ``port <= p``; each comparison is followed by the operand, and a failed one jumps past
    the end, which rejects the socket), so that a busy host's other sockets are not sent
    here at all: with 3,000 other connections open, a count cost 5.3 ms of this process's
    CPU without it and 0.9 ms with it."""
    program = (
        _OP.pack(_INET_DIAG_BC_S_GE, 8, 20)
        + _OP.pack(0, 0, port)
        + _OP.pack(_INET_DIAG_BC_S_LE, 8, 12)
        + _OP.pack(0, 0, port)
    )
    return _ATTRIBUTE.pack(_ATTRIBUTE.size + len(program), _INET_DIAG_REQ_BYTECODE) + program


def _read_dump(nl: socket.socket, port: int, found: dict[int, int]) -> None:
    while True:
        data = nl.recv(1 << 16)
        at = 0
        while at + _HEADER.size <= len(data):
            length, kind = _HEADER.unpack_from(data, at)[:2]
            if kind == _NLMSG_DONE:
                return
            if kind == _NLMSG_ERROR or length < _HEADER.size + _MESSAGE.size:
                raise OSError("sock_diag refused the request, or answered in a shape not known here")
            fields = _MESSAGE.unpack_from(data, at + _HEADER.size)
            sport, inode = fields[4], fields[9]
            if int.from_bytes(sport, "big") == port:
                found[inode] = _last_data_recv(data, at + _HEADER.size + _MESSAGE.size, at + length)
            at += (length + 3) & ~3


def _last_data_recv(data: bytes, at: int, end: int) -> int:
    while at + _ATTRIBUTE.size <= end:
        length, kind = _ATTRIBUTE.unpack_from(data, at)
        if length < _ATTRIBUTE.size:
            break
        if kind == _INET_DIAG_INFO and length - _ATTRIBUTE.size >= _LAST_DATA_RECV.size:
            return int(_LAST_DATA_RECV.unpack_from(data, at + _ATTRIBUTE.size)[0])
        at += (length + 3) & ~3
    return 0


def own_sockets(fd_dir: str = "/proc/self/fd") -> set[int]:
    """The inodes of the sockets this process holds."""
    inodes: set[int] = set()
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
            inodes.add(int(link[8:-1]))
    return inodes


def excess(mine: int, everyone: int, processes: int) -> int:
    """How many connections a process holding ``mine`` of ``everyone`` holds over its share."""
    return max(0, mine - math.ceil(everyone / processes))


class ConnectionBalancer:
    """Counts this process's share of the port's connections, and says which responses
    should close theirs (``should_close``), one per connection over the share."""

    def __init__(self, port: int, processes: int, active_ms: int = ACTIVE_MS) -> None:
        self.port = port
        self.processes = processes
        self.active_ms = active_ms
        self._to_close = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def count(self) -> int:
        """Counts the active connections now, and sets how many responses are to close theirs."""
        everyone = {inode for inode, quiet in tcp_sockets(self.port).items() if quiet <= self.active_ms}
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
            # HTTP/2 has no Connection header (RFC 9113, 8.2.2): its clients stay where they are
            if request.environ.get("SERVER_PROTOCOL", "").startswith("HTTP/1") and self.should_close():
                response.headers["Connection"] = "close"
            return response

        self._thread = threading.Thread(target=self._run, name="connection-balance", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            try:
                self.count()
            except OSError as e:  # the kernel refused: leave the connections as they fall
                log.warning("connection balance stopped: %s", e)
                return


def from_environment() -> ConnectionBalancer | None:
    """The balancer of one of several HTTP processes of ``dragonhall serve``, which sets
    ``DRAGONHALL_HTTP_WORKERS`` and ``DRAGONHALL_HTTP_PORT``; None when alone, or where
    the kernel cannot say (not Linux)."""
    processes = int(os.environ.get("DRAGONHALL_HTTP_WORKERS") or 1)
    port = os.environ.get("DRAGONHALL_HTTP_PORT")
    if processes < 2 or not port or not available():
        return None
    return ConnectionBalancer(int(port), processes)


def available() -> bool:
    """Whether this system answers ``tcp_sockets`` and lists this process's descriptors."""
    try:
        tcp_sockets(0)
    except (OSError, AttributeError):  # AttributeError: no AF_NETLINK
        return False
    return os.path.isdir("/proc/self/fd")
