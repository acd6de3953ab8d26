"""The HTTP benches' load generator: lean keep-alive clients, many driven by one thread.

The load generator shares the server's two cores, so every microsecond it spends
is taken from the server. A request is formatted in one string, a response is
read by its ``Content-Length`` (``http.client`` costs several times more CPU per
call), and bodies go through ``orjson``.

Each client process drives all its connections from one thread (``drive``), over
a selector: a client's play is a generator that yields requests and is sent the
replies (``bench/game_driver.py``). With a thread per connection the client
processes took 0.137 ms of CPU per move at about 1,400 moves/s, and 0.131 ms this
way: most of it is the kernel's work for the sockets, which no client avoids.

A response with ``Connection: close`` is the last on its connection (the server
sends it to even out its processes' connections, ``infra.connection_balance``): the
next request opens a new one, and its time counts in that request's latency.
"""

from __future__ import annotations

import heapq
import selectors
import socket
import time
from collections.abc import Generator
from typing import Any

import orjson

from bench.game_driver import Reply, Request


class Client:
    """One keep-alive HTTP/1.1 connection on a plain socket."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reconnects = 0
        self.started = 0.0
        self.next_move = 0.0
        """When this client may post its next move (``drive``'s ``pace``; ``time.monotonic``)."""
        self._connect()

    def _connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.closing = False

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Reply:
        """Sends a request and waits for its reply."""
        self.send(method, path, body, token)
        reply = self._parse()
        while reply is None:
            self._fill()
            reply = self._parse()
        return reply

    def send(self, method: str, path: str, body: Any = None, token: str | None = None) -> None:
        """Sends a request, on a new connection if the last reply closed this one."""
        data = b"" if body is None else orjson.dumps(body)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
            f"{auth}Content-Length: {len(data)}\r\n\r\n"
        )
        self.started = time.perf_counter()
        if self.closing:
            self.sock.close()
            self._connect()
            self.reconnects += 1
        self.sock.sendall(head.encode() + data)

    def receive(self) -> Reply | None:
        """Reads what the socket holds (call it when it is readable): the reply once it is whole."""
        self._fill()
        return self._parse()

    def _parse(self) -> Reply | None:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = self.buffer[:end].lower()
        at = head.index(b"\r\ncontent-length:") + 17
        line_end = head.find(b"\r\n", at)
        length = int(head[at:] if line_end < 0 else head[at:line_end])
        body_at = end + 4
        if len(self.buffer) < body_at + length:
            return None
        raw, self.buffer = self.buffer[body_at : body_at + length], self.buffer[body_at + length :]
        self.closing = b"\r\nconnection: close" in head
        return int(head[9:12]), orjson.loads(raw) if raw else None, time.perf_counter() - self.started

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk


Play = Generator[Request, Reply, Any]


def drive(port: int, plays: list[Play], pace: float = 0.0) -> list[Client]:
    """Runs ``plays`` to their ends, each on a connection of its own, all from this thread;
    returns their clients (for their reconnection counts). With ``pace``, a client posts a move
    at most once every ``pace`` seconds (an offered load, rather than as fast as answered)."""
    selector = selectors.DefaultSelector()
    watched: dict[Client, socket.socket] = {}
    held: list[tuple[float, int, Client, Play, Request]] = []  # moves due later, by when
    clients = [Client(port) for _ in plays]

    def go(client: Client, play: Play, request: Request | None) -> None:
        if pace and request is not None and _is_move(request):
            now = time.monotonic()
            if now < client.next_move:
                if client.closing and client in watched:  # the server closes it meanwhile: not a reply
                    selector.unregister(watched.pop(client))
                heapq.heappush(held, (client.next_move, id(client), client, play, request))
                return
            client.next_move = (client.next_move or now) + pace
        _next(selector, watched, client, play, request)

    for client, play in zip(clients, plays, strict=True):
        go(client, play, next(play, None))
    while watched or held:
        timeout = max(0.0, held[0][0] - time.monotonic()) if held else None
        for key, _ in selector.select(timeout):
            client, play = key.data
            reply = client.receive()
            if reply is not None:
                go(client, play, _send(play, reply))
        while held and held[0][0] <= time.monotonic():
            _, _, client, play, request = heapq.heappop(held)
            go(client, play, request)
    selector.close()
    return clients


def _is_move(request: Request) -> bool:
    return request[0] == "POST" and request[1].endswith("/moves")


def _send(play: Play, reply: Reply) -> Request | None:
    try:
        return play.send(reply)
    except StopIteration:
        return None


def _next(
    selector: selectors.BaseSelector,
    watched: dict[Client, socket.socket],
    client: Client,
    play: Play,
    request: Request | None,
) -> None:
    """Sends ``play``'s next request on ``client`` and watches for the reply, or lets the
    client go when the play is over. A client whose connection is closing gets a new
    socket in ``send``, so the old one leaves the selector first."""
    if client in watched and (request is None or client.closing):
        selector.unregister(watched.pop(client))
    if request is None:
        client.sock.close()
        return
    client.send(*request)
    if client not in watched:
        selector.register(client.sock, selectors.EVENT_READ, (client, play))
        watched[client] = client.sock
