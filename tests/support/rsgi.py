"""Granian's RSGI side, made by hand, so that a test drives ``api.gateway`` in-process and sees every
byte it sends.

``Exchange`` runs one request as a task and records what the gateway answers as messages shaped as
ASGI's were: ``{"type": "http.response.start", "status"}`` first, then
``{"type": "http.response.body", "body", "more_body"}`` for each piece, the last with
``more_body`` false (sent once the gateway returns, for a stream).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from api.gateway import Gateway

WAIT = 20.0
"""Seconds a test waits for a message it expects (a failure, never a pace)."""


class Headers:
    """RSGI's request headers: lower-case names, every value of a repeated one in ``items``."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = [(name.lower(), value) for name, value in pairs]

    def __contains__(self, name: object) -> bool:
        return any(n == name for n, _ in self.pairs)

    def get(self, name: str, default: Any = None) -> Any:
        return next((v for n, v in self.pairs if n == name), default)

    def items(self) -> list[tuple[str, str]]:
        return list(self.pairs)


@dataclass
class Scope:
    method: str
    path: str
    query_string: str = ""
    header_pairs: Sequence[tuple[str, str]] = ()
    proto: str = "http"
    http_version: str = "1.1"
    client: str = "127.0.0.1:50000"
    server: str = "test:80"
    scheme: str = "http"
    headers: Headers = field(init=False)

    def __post_init__(self) -> None:
        self.headers = Headers([("host", "test"), *self.header_pairs])


class _Transport:
    def __init__(self, exchange: Exchange) -> None:
        self.exchange = exchange

    async def send_bytes(self, data: bytes) -> None:
        if self.exchange.gone.is_set():
            raise RuntimeError("the client went")  # as Granian's transport raises
        await self.exchange.sent.put({"type": "http.response.body", "body": data, "more_body": True})


class Exchange:
    """One request to the gateway, run as a task: what it sent back, message by message."""

    def __init__(
        self,
        gateway: Gateway,
        method: str,
        path: str,
        token: str | None = None,
        body: bytes = b"",
        chunks: Sequence[bytes] | None = None,
    ) -> None:
        """``chunks``: a body sent chunked, in these pieces (no ``Content-Length``)."""
        path, _, query = path.partition("?")
        headers = [("authorization", f"Bearer {token}")] if token else []
        if chunks is not None:
            headers += [("content-type", "application/json"), ("transfer-encoding", "chunked")]
        elif body:
            headers += [("content-type", "application/json"), ("content-length", str(len(body)))]
        self.scope = Scope(method, path, query, headers)
        self._chunks = list(chunks) if chunks is not None else [body]
        self.sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.gone = asyncio.Event()
        self.task = asyncio.ensure_future(gateway.__rsgi__(self.scope, self))  # type: ignore[arg-type]
        self.task.add_done_callback(self._ended)
        self._streaming = False

    # ------------------------------------------------------------ the protocol the gateway sees

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._body()

    async def _body(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            if chunk:
                yield chunk

    async def client_disconnect(self) -> None:
        await self.gone.wait()

    def response_bytes(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self._start(status, headers)
        self.sent.put_nowait({"type": "http.response.body", "body": body, "more_body": False})

    def response_stream(self, status: int, headers: list[tuple[str, str]]) -> _Transport:
        self._start(status, headers)
        self._streaming = True
        return _Transport(self)

    def _start(self, status: int, headers: list[tuple[str, str]]) -> None:
        assert all(isinstance(n, str) and isinstance(v, str) for n, v in headers), headers
        self.sent.put_nowait({"type": "http.response.start", "status": status, "headers": headers})

    def _ended(self, task: asyncio.Future[None]) -> None:
        if self._streaming:
            self.sent.put_nowait({"type": "http.response.body", "body": b"", "more_body": False})

    # ------------------------------------------------------------ what the test reads

    async def start(self) -> int:
        message = await asyncio.wait_for(self.sent.get(), WAIT)
        assert message["type"] == "http.response.start"
        return int(message["status"])

    async def whole(self) -> tuple[int, bytes]:
        status = await self.start()
        body = b""
        while True:
            message = await asyncio.wait_for(self.sent.get(), WAIT)
            body += message.get("body", b"")
            if not message.get("more_body"):
                return status, body

    async def line(self) -> dict[str, Any] | None:
        """The next line that is not a keep-alive; None once the stream has ended."""
        while True:
            message = await asyncio.wait_for(self.sent.get(), WAIT)
            if not message.get("more_body"):
                return None
            for raw in message["body"].splitlines():
                if raw.strip():
                    return dict(json.loads(raw))
