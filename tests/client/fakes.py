"""Fake transports for the client: scripted answers, recorded requests, streams that break."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpx

from dragonhall import Client, Retry

Answer = httpx.Response | BaseException
Handler = Callable[[httpx.Request], Answer]


class Script:
    """Answers each request with the next answer of its route (``"GET /api/v1/games/g/stream"``), and
    records every request. An answer that is an exception is raised, as a broken connection would."""

    def __init__(self, routes: dict[str, list[Answer | Handler]]) -> None:
        self.routes = {route: list(answers) for route, answers in routes.items()}
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        route = f"{request.method} {request.url.path}"
        answers = self.routes.get(route)
        if not answers:
            return httpx.Response(404, json={"error": {"code": "not_found", "message": f"no answer for {route}"}})
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        if callable(answer) and not isinstance(answer, httpx.Response | BaseException):
            answer = answer(request)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def sent(self, route: str) -> list[httpx.Request]:
        return [r for r in self.requests if f"{r.method} {r.url.path}" == route]


class Broken(httpx.SyncByteStream):
    """A response body that sends ``chunks`` and then breaks the connection (or ends, without ``error``)."""

    def __init__(self, chunks: Iterable[bytes], error: BaseException | None = None) -> None:
        self.chunks = list(chunks)
        self.error = error

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.error is not None:
            raise self.error


def ndjson(*lines: Any, cut: bool = False) -> httpx.Response:
    """An NDJSON stream of ``lines`` (``""`` is a keep-alive); ``cut`` breaks the connection at its end."""
    chunks = [(line if isinstance(line, str) else json.dumps(line)).encode() + b"\n" for line in lines]
    error = httpx.ReadError("connection reset") if cut else None
    return httpx.Response(200, headers={"Content-Type": "application/x-ndjson"}, stream=Broken(chunks, error))


def sse(*events: tuple[int | None, str, Any] | None, cut: bool = False, tail: bytes = b"") -> httpx.Response:
    """An SSE stream: each ``(id, event, data)`` a frame, ``None`` a keep-alive comment; ``tail`` is sent
    last, before the cut (half a frame)."""
    chunks = []
    for item in events:
        if item is None:
            chunks.append(b": keep-alive\n\n")
            continue
        ident, kind, data = item
        head = f"id: {ident}\n" if ident is not None else ""
        chunks.append(f"{head}event: {kind}\ndata: {json.dumps(data)}\n\n".encode())
    error = httpx.ReadError("connection reset") if cut else None
    return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=Broken([*chunks, tail], error))


def error(status: int, code: str, message: str = "refused", headers: dict[str, str] | None = None, **extra: Any):
    return httpx.Response(status, json={"error": {"code": code, "message": message, **extra}}, headers=headers)


def client(script: Script, token: str | None = "secret", attempts: int = 4) -> tuple[Client, list[float]]:
    """A client over ``script`` whose waits are recorded instead of slept."""
    waits: list[float] = []
    c = Client(
        "http://dragonhall.test",
        token,
        transport=httpx.MockTransport(script),
        retry=Retry(attempts=attempts, backoff=0.01),
        sleep=waits.append,
    )
    return c, waits


def body(request: httpx.Request) -> Any:
    return json.loads(request.content)
