"""The HTTP benches' client: lean, so it must still read every response right."""

from __future__ import annotations

import importlib
import socket
import threading
import time
from typing import Any

import pytest


@pytest.fixture(scope="module")
def http_load() -> Any:
    return importlib.import_module("bench.http_client")  # bench/ is a folder of scripts, not a package


def _serve_once(chunks: list[bytes]) -> tuple[int, list[bytes]]:
    """A server on a free port that reads two requests and writes ``chunks`` back, one send each."""
    listener = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def run() -> None:
        conn, _ = listener.accept()
        with conn:
            received.append(conn.recv(65536))
            for chunk in chunks:
                conn.sendall(chunk)
                threading.Event().wait(0.02)  # separate segments: the client must join them
            received.append(conn.recv(65536))
        listener.close()

    threading.Thread(target=run, daemon=True).start()
    return listener.getsockname()[1], received


def test_it_reads_a_body_in_pieces_and_keeps_the_next_response(http_load: Any) -> None:
    first = b'{"version": 3, "moves": [1, 2]}'
    second = b'{"ok":true}'
    port, received = _serve_once(
        [
            b"HTTP/1.1 201 CREATED\r\nCONTENT-TYPE: application/json\r\nContent-Length: " + str(len(first)).encode(),
            b"\r\n\r\n" + first[:10],
            first[10:]
            + b"HTTP/1.1 409 CONFLICT\r\ncontent-length: "
            + str(len(second)).encode()
            + b"\r\n\r\n"
            + second,
        ]
    )
    client = http_load.Client(port)
    status, body, took = client.call("POST", "/api/v1/games/g/moves", {"move": {"die": 1}}, "tok")
    assert (status, body) == (201, {"version": 3, "moves": [1, 2]})
    assert took > 0
    assert client.call("GET", "/x")[:2] == (409, {"ok": True})
    request = received[0]
    assert request.startswith(b"POST /api/v1/games/g/moves HTTP/1.1\r\n")
    assert b"Authorization: Bearer tok\r\n" in request
    assert request.endswith(b'\r\n\r\n{"move":{"die":1}}')


def test_an_empty_body_reads_as_none(http_load: Any) -> None:
    port, _ = _serve_once([b"HTTP/1.1 204 NO CONTENT\r\nContent-Length: 0\r\n\r\n"])
    assert http_load.Client(port).call("GET", "/x")[:2] == (204, None)


def test_after_connection_close_the_next_call_opens_a_new_connection(http_load: Any) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[int] = []

    def run() -> None:
        for close in (True, False):
            conn, _ = listener.accept()
            accepted.append(1)
            with conn:
                conn.recv(65536)
                extra = b"Connection: close\r\n" if close else b""
                conn.sendall(b"HTTP/1.1 200 OK\r\n" + extra + b"Content-Length: 2\r\n\r\n{}")
                if not close:
                    conn.recv(65536)
        listener.close()

    threading.Thread(target=run, daemon=True).start()
    client = http_load.Client(listener.getsockname()[1])
    assert client.call("GET", "/a")[:2] == (200, {})
    before = time.perf_counter()
    status, body, took = client.call("GET", "/b")
    assert (status, body) == (200, {})
    assert 0 < took <= time.perf_counter() - before  # timed from this request, the reconnection included
    assert (len(accepted), client.reconnects) == (2, 1)


def test_one_thread_drives_many_plays_to_their_ends(http_load: Any) -> None:
    """Three plays on three connections, answered out of order: each gets its own replies."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.listen(8)

    def serve() -> None:
        conns = [listener.accept()[0] for _ in range(3)]
        for _ in range(2):
            for conn in reversed(conns):
                path = conn.recv(65536).split(b" ")[1]
                body = b'{"path":"' + path + b'"}'
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        for conn in conns:
            conn.close()
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    seen: dict[int, list[str]] = {0: [], 1: [], 2: []}

    def play(k: int) -> Any:
        for step in range(2):
            status, body, took = yield ("GET", f"/{k}/{step}", None, None)
            assert status == 200 and took > 0
            seen[k].append(body["path"])

    clients = http_load.drive(listener.getsockname()[1], [play(k) for k in range(3)])
    assert seen == {k: [f"/{k}/0", f"/{k}/1"] for k in range(3)}
    assert [c.reconnects for c in clients] == [0, 0, 0]
