"""An HTTP process over its share of the port's connections closes the excess (``api.connection_balance``)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.connection_balance import ESTABLISHED, LISTEN, ConnectionBalancer, excess, own_sockets, sockets_on

TABLE_HEAD = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"


def _row(local_port: int, remote_port: int, state: str, inode: int) -> str:
    return (f"   0: 0100007F:{local_port:04X} 0100007F:{remote_port:04X} {state} 00000000:00000000 "
            f"00:00000000 00000000     0        0 {inode} 1 0000000000000000 20 4 30 10 -1\n")


def test_the_share_is_the_even_split_rounded_up() -> None:
    assert excess(21, 32, 2) == 5
    assert excess(16, 32, 2) == 0
    assert excess(17, 33, 2) == 0  # 17 and 16 is as even as 33 goes
    assert excess(18, 33, 2) == 1
    assert excess(11, 32, 2) == 0
    assert excess(5, 12, 3) == 1


def test_only_the_ports_own_end_of_an_open_connection_counts(tmp_path: Path) -> None:
    table = tmp_path / "tcp"
    table.write_text(TABLE_HEAD + _row(8000, 50001, ESTABLISHED, 11) + _row(50001, 8000, ESTABLISHED, 12)
                     + _row(8000, 0, LISTEN, 13) + _row(8000, 50002, "06", 14) + _row(8001, 50003, ESTABLISHED, 15))
    assert sockets_on(8000, tables=[str(table), str(tmp_path / "missing")]) == {"11"}
    assert sockets_on(8000, LISTEN, tables=[str(table)]) == {"13"}


def test_a_processs_sockets_are_read_from_its_descriptors(tmp_path: Path) -> None:
    (tmp_path / "3").symlink_to("socket:[4242]")
    (tmp_path / "4").symlink_to("/dev/null")
    (tmp_path / "5").symlink_to("pipe:[77]")
    assert own_sockets(str(tmp_path)) == {"4242"}
    assert own_sockets(str(tmp_path / "missing")) == set()


@pytest.fixture
def connections() -> Iterator[tuple[int, list[socket.socket]]]:
    """Ten connections to a port that this process listens on and has accepted: all its own."""
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux /proc")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    held = [listener]
    for _ in range(10):
        held.append(socket.create_connection(("127.0.0.1", port)))
        held.append(listener.accept()[0])
    yield port, held
    for s in held:
        s.close()


def test_a_process_holding_every_connection_closes_those_over_its_share(
        connections: tuple[int, list[socket.socket]]) -> None:
    port, _ = connections
    balancer = ConnectionBalancer(port, processes=2)
    assert balancer.count() == 5
    assert [balancer.should_close() for _ in range(7)] == [True] * 5 + [False] * 2
    alone = ConnectionBalancer(port, processes=1)
    assert alone.count() == 0 and not alone.should_close()


def test_the_responses_over_the_share_say_connection_close(connections: tuple[int, list[socket.socket]]) -> None:
    port, _ = connections
    app = Flask("t")
    app.add_url_rule("/", "index", lambda: "ok")
    balancer = ConnectionBalancer(port, processes=2)
    balancer.attach(app)
    try:
        balancer.count()
        client = app.test_client()
        headers: list[Any] = [client.get("/").headers.get("Connection") for _ in range(7)]
    finally:
        balancer.stop()
    assert headers == ["close"] * 5 + [None] * 2


def test_it_is_off_for_a_single_process_or_without_a_port(monkeypatch: pytest.MonkeyPatch) -> None:
    from api.connection_balance import from_environment

    monkeypatch.setenv("DRAGONHALL_HTTP_PORT", "8000")
    monkeypatch.setenv("DRAGONHALL_HTTP_WORKERS", "1")
    assert from_environment() is None
    monkeypatch.delenv("DRAGONHALL_HTTP_PORT")
    monkeypatch.setenv("DRAGONHALL_HTTP_WORKERS", "2")
    assert from_environment() is None
    if Path("/proc/net/tcp").exists():
        monkeypatch.setenv("DRAGONHALL_HTTP_PORT", "8000")
        balancer = from_environment()
        assert balancer is not None and (balancer.port, balancer.processes) == (8000, 2)
