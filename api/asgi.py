"""The API under ASGI: the Flask app on worker threads, its streams on the event loop.

``dragonhall serve`` runs this with Granian's ASGI interface. Every request is
answered by the Flask app, on a thread of ``executor``, exactly as under WSGI:
the same routes, checks, errors and rate limits. The one difference is a
stream's route: instead of a body that holds its thread for as long as the
client listens, it answers with the stream's first lines and leaves a
``stream_hub.Handoff`` in the environ; the gateway sends those lines and gives
the stream to the ``StreamHub``, where it waits on the loop, at no thread's cost.
``bench/streams.py`` measured why: a thread per stream held 1,200 streams, but
their wake-ups cut the move throughput to a quarter.

An ordinary answer is collected whole on the thread and sent in one piece: the
API's answers are small, and one hand-over between thread and loop per request
is the cheapest there is. The request threads are few (``--threads``): every
thread more that wants the GIL delays the loop, which then writes the streams'
lines late. With one thread (SQLite's default) there is no thread: the loop
answers the request itself (``requests`` is None). A hand-over is a future, a
write to the loop's wake-up pipe and two passes of the GIL, and measured under
``bench/http_load.py`` the worker threads spent a third of their time in that
write; a second thread overlapped nothing, since a SQLite save waits on no
network and the GIL lets one of them run at a time. The streams wait meanwhile,
as they waited for the thread's GIL before. The request body is read on the loop first, at most
one byte past the app's ``MAX_CONTENT_LENGTH`` (the app answers 413 past it).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, cast

from a2wsgi.wsgi import build_environ
from flask import Flask

from api.stream_hub import HANDOFF_KEY, HUB_KEY, Handoff, StreamHub

log = logging.getLogger("dragonhall.api")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Gateway:
    """An ASGI app serving a Flask app, whose streams the ``StreamHub`` holds."""

    def __init__(self, app: Flask, hub: StreamHub, requests: Executor | None, waits: Executor) -> None:
        self.app = app
        self.hub = hub
        self.requests = requests
        """The request threads; None answers each request on the loop's own thread (``INLINE``)."""
        self.waits = waits
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 1 << 20)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            self.hub.attach(asyncio.get_running_loop())
            await self._http(scope, receive, send)
        # a WebSocket is not served: returning without accepting it refuses it

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.attach(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.end_all()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        body, whole = await _read_body(receive, self.max_body + 1)
        environ: dict[str, Any] = dict(build_environ(cast(Any, scope), cast(Any, io.BytesIO(body))))
        if "CONTENT_LENGTH" not in environ:
            environ["wsgi.input_terminated"] = True  # chunked: the body ends where the stream does
        environ[HUB_KEY] = self.hub
        pool = self.waits if _may_wait(scope) else self.requests
        if pool is None:
            status, headers, content = _answer(self.app, environ)
        else:
            loop = asyncio.get_running_loop()
            status, headers, content = await loop.run_in_executor(pool, _answer, self.app, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        handoff: Handoff | None = environ.get(HANDOFF_KEY)
        if handoff is None:
            await send({"type": "http.response.body", "body": content})
            return
        if content:
            await send({"type": "http.response.body", "body": content, "more_body": True})
        await self.hub.follow(handoff, send, receive if whole else _gone)
        try:
            await send({"type": "http.response.body", "body": b""})
        except Exception:  # the client went first
            log.debug("a stream's client went before its end")


def _may_wait(scope: Scope) -> bool:
    """A long poll (``?wait=``) waits on its thread for up to a minute: it runs on a pool of its
    own, so that it never holds up the ordinary requests queued for the few request threads."""
    return any(part.partition(b"=")[0] == b"wait" for part in scope.get("query_string", b"").split(b"&"))


def _answer(app: Flask, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Runs the WSGI app on this thread; its status, headers and whole body."""
    started: list[Any] = []
    written: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        started[:] = [status, headers]
        return written.append

    result = app(environ, start_response)
    try:
        written.extend(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    status, headers = started
    encoded = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]
    return int(status.split(" ", 1)[0]), encoded, b"".join(written)


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The request body, up to ``limit`` bytes, and whether it was read to its end."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True
        if size >= limit:
            return b"".join(chunks), False


async def _gone() -> dict[str, Any]:
    """The ``receive`` of a request whose body was not read to its end: the hub then learns
    that its client went when a write fails, not from ``http.disconnect``."""
    await asyncio.Event().wait()
    return {"type": "http.disconnect"}
