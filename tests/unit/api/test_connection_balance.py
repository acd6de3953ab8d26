"""An HTTP process over its share of the port's active connections closes the excess (``infra.connection_balance``)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from infra.connection_balance import (
    LISTEN,
    ConnectionBalancer,
    available,
    excess,
    from_environment,
    own_sockets,
    tcp_sockets,
)

linux = pytest.mark.skipif(not available(), reason="needs Linux's sock_diag and /proc")


def test_the_share_is_the_even_split_rounded_up() -> None:
    assert excess(21, 32, 2) == 5
    assert excess(16, 32, 2) == 0
    assert excess(17, 33, 2) == 0  # 17 and 16 is as even as 33 goes
    assert excess(18, 33, 2) == 1
    assert excess(11, 32, 2) == 0
    assert excess(5, 12, 3) == 1


def test_a_processs_sockets_are_read_from_its_descriptors(tmp_path: Path) -> None:
    (tmp_path / "3").symlink_to("socket:[4242]")
    (tmp_path / "4").symlink_to("/dev/null")
    (tmp_path / "5").symlink_to("pipe:[77]")
    assert own_sockets(str(tmp_path)) == {4242}
    assert own_sockets(str(tmp_path / "missing")) == set()


class Port:
    """A port this process listens on, with connections it has accepted: all its own."""

    def __init__(self, connections: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.number = self.listener.getsockname()[1]
        self.pairs = []
        for _ in range(connections):
            client = socket.create_connection(("127.0.0.1", self.number))
            self.pairs.append((client, self.listener.accept()[0]))

    def request_on(self, k: int) -> None:
        client, server = self.pairs[k]
        client.sendall(b"GET / HTTP/1.1\r\n\r\n")
        server.recv(1024)

    def close(self) -> None:
        for client, server in self.pairs:
            client.close()
            server.close()
        self.listener.close()


@pytest.fixture
def port() -> Iterator[Port]:
    p = Port(10)
    yield p
    p.close()


@linux
def test_the_kernel_lists_the_ports_end_of_each_connection_and_how_long_it_has_been_quiet(port: Port) -> None:
    time.sleep(0.3)
    port.request_on(0)
    quiet = tcp_sockets(port.number)
    assert len(quiet) == 10 and set(quiet) <= own_sockets()  # the clients' ends are on other ports
    assert sorted(quiet.values())[0] < 200 <= sorted(quiet.values())[1]
    listening = tcp_sockets(port.number, LISTEN)
    assert len(listening) == 1 and set(listening) <= own_sockets()


@linux
def test_a_process_holding_every_active_connection_closes_those_over_its_share(port: Port) -> None:
    balancer = ConnectionBalancer(port.number, processes=2)
    assert balancer.count() == 5  # all ten are new, so all count as active
    assert [balancer.should_close() for _ in range(7)] == [True] * 5 + [False] * 2
    alone = ConnectionBalancer(port.number, processes=1)
    assert alone.count() == 0 and not alone.should_close()


@linux
def test_quiet_connections_do_not_count(port: Port) -> None:
    """Four of ten connections carry requests; the six quiet ones weigh nothing, so the
    share is two of four, not five of ten."""
    balancer = ConnectionBalancer(port.number, processes=2, active_ms=250)
    time.sleep(0.4)
    for k in range(4):
        port.request_on(k)
    assert balancer.count() == 2


@linux
def test_the_responses_over_the_share_say_connection_close(port: Port) -> None:
    app = Flask("t")
    app.add_url_rule("/", "index", lambda: "ok")
    balancer = ConnectionBalancer(port.number, processes=2)
    balancer.attach(app)
    try:
        balancer.count()
        client = app.test_client()
        over_http2 = client.get("/", environ_overrides={"SERVER_PROTOCOL": "HTTP/2"}).headers.get("Connection")
        headers: list[Any] = [client.get("/").headers.get("Connection") for _ in range(7)]
    finally:
        balancer.stop()
    assert over_http2 is None
    assert headers == ["close"] * 5 + [None] * 2


def test_it_is_off_for_a_single_process_or_without_a_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONHALL_HTTP_PORT", "8000")
    monkeypatch.setenv("DRAGONHALL_HTTP_WORKERS", "1")
    assert from_environment() is None
    monkeypatch.delenv("DRAGONHALL_HTTP_PORT")
    monkeypatch.setenv("DRAGONHALL_HTTP_WORKERS", "2")
    assert from_environment() is None
    if available():
        monkeypatch.setenv("DRAGONHALL_HTTP_PORT", "8000")
        balancer = from_environment()
        assert balancer is not None and (balancer.port, balancer.processes) == (8000, 2)
