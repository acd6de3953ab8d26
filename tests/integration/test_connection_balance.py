"""Keep-alive connections even out over the HTTP processes of a real server (``infra.connection_balance``)."""

from __future__ import annotations

import http.client
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from infra.connection_balance import INTERVAL, LISTEN, available, own_sockets, tcp_sockets
from tests.support.processes import Server

pytestmark = pytest.mark.skipif(not available(), reason="needs Linux's sock_diag and /proc")


def _children(server: Server) -> list[str]:
    pid = server.popen.pid
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def _owner(server: Server, conn: http.client.HTTPConnection) -> str | None:
    """The server process that holds the other end of ``conn``."""
    assert conn.sock is not None
    peer = _peer_of(conn.sock, server.port)
    return next((c for c in _children(server) if peer in own_sockets(f"/proc/{c}/fd")), None)


def _peer_of(sock: socket.socket, port: int) -> int | None:
    """The inode of the server's end of a client socket, matched by the client's port."""
    client_port = sock.getsockname()[1]
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        f = line.split()
        if int(f[1].rsplit(":", 1)[1], 16) == port and int(f[2].rsplit(":", 1)[1], 16) == client_port:
            return int(f[9])
    return None


def _split(server: Server, conns: list[http.client.HTTPConnection]) -> dict[str | None, int]:
    split: dict[str | None, int] = {}
    for conn in conns:
        owner = _owner(server, conn) if conn.sock is not None else None
        split[owner] = split.get(owner, 0) + 1
    return split


def _get(conn: http.client.HTTPConnection) -> int:
    conn.request("GET", "/healthz")
    response = conn.getresponse()
    response.read()
    return response.status


def _open(server: Server, deadline: float) -> tuple[http.client.HTTPConnection, str]:
    """A new keep-alive connection that has carried no request yet, and the server process
    that accepted it. The balancer acts only through responses (``Connection: close``), so
    it cannot touch a connection before its first request, however long the set-up takes."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.connect()
    while (owner := _owner(server, conn)) is None:
        assert time.time() < deadline, "no server process accepted the connection"
        time.sleep(0.01)
    return conn, owner


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[Server]:
    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(tmp_path / "var"), "DRAGONHALL_STORE": "sqlite"}
    env.pop("DRAGONHALL_DATABASE_URL", None)
    env.pop("DRAGONHALL_BROKER_URL", None)
    server = Server(env, tmp_path, ("--workers", "2"))
    deadline = time.time() + 30
    listening = set(tcp_sockets(server.port, LISTEN))
    while sum(1 for c in _children(server) if own_sockets(f"/proc/{c}/fd") & listening) < 2:
        assert time.time() < deadline, "the second HTTP process did not listen"
        time.sleep(0.1)
        listening = set(tcp_sockets(server.port, LISTEN))
    yield server
    server.stop()


def test_a_lopsided_split_of_keep_alive_connections_evens_out(two_processes: Server) -> None:
    server = two_processes
    # 12 connections on one process and 3 on the other: new connections are hashed to
    # either, so those beyond 3 that land on the second are closed again. They carry no
    # request until the split is made, so the balancer, which counts every second, has
    # nothing to close meanwhile, however slow the set-up (a busy machine). The set-up
    # pauses for two counts halfway, as a busy machine would, to keep it so.
    conns: list[http.client.HTTPConnection] = []
    first = None
    held = {True: 0, False: 0}
    deadline = time.time() + 60
    for _ in range(400):
        if held[True] == 12 and held[False] == 3:
            break
        conn, owner = _open(server, deadline)
        first = first or owner
        on_first = owner == first
        if held[on_first] < (12 if on_first else 3):
            held[on_first] += 1
            conns.append(conn)
            if on_first and held[True] == 8:
                time.sleep(2 * INTERVAL)
        else:
            conn.close()
    assert sorted(_split(server, conns).values()) == [3, 12]

    statuses = []
    deadline = time.time() + 60  # ends as soon as the split is even; a busy machine counts slowly
    while time.time() < deadline:
        for conn in conns:
            statuses.append(_get(conn))  # a closed connection is reopened by the next request
        split = _split(server, conns)
        if None not in split and max(split.values()) - min(split.values()) <= 1 and len(split) == 2:
            break
        time.sleep(0.05)
    assert set(statuses) == {200}
    assert sorted(split.values()) == [7, 8], split
    for conn in conns:
        conn.close()
