"""The API under Granian's own interface (RSGI): the Flask app for every request, its streams on the event loop.

``dragonhall serve`` runs this with Granian's RSGI interface. Every request is
answered by the Flask app, exactly as under WSGI: the same routes, checks,
errors and rate limits. The one difference is a stream's route: instead of a
body that holds its thread for as long as the client listens, it answers with
the stream's first lines and leaves a ``stream_hub.Handoff`` in the environ; the
gateway sends those lines and gives the stream to the ``StreamHub``, where it
waits on the loop, at no thread's cost. ``bench/streams.py`` measured why: a
thread per stream held 1,200 streams, but their wake-ups cut the move throughput
to a quarter.

Why RSGI rather than ASGI: an ordinary answer is collected whole and handed to
Granian in one synchronous call (``response_bytes``), and a request without a
body is never awaited at all, where ASGI awaits a ``receive`` and two ``send``
calls per request, each a future bridged between Granian's threads and the loop.
Measured under ``bench/http_load.py`` (32 games, SQLite, two rounds interleaved),
the HTTP processes' CPU per move fell by a tenth (``docs/operations.md``).

The request threads are few (``--threads``): every thread more that wants the GIL
delays the loop, which then writes the streams' lines late. With one thread
(SQLite's default) there is no thread: the loop answers the request itself
(``requests`` is None); a hand-over to a thread is a future, a write to the loop's
wake-up pipe and two passes of the GIL. The request body is read on the loop first,
at most one byte past the app's ``MAX_CONTENT_LENGTH`` (the app answers 413 past it).
"""

from __future__ import annotations

import asyncio
import io
import logging
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, Protocol

from flask import Flask

from api.stream_feeds import Handoff
from api.stream_hub import HANDOFF_KEY, HUB_KEY, StreamHub

log = logging.getLogger("dragonhall.api")

Headers = list[tuple[str, str]]


class Scope(Protocol):
    """What the gateway reads of Granian's RSGI scope."""

    proto: str
    http_version: str
    client: str
    server: str
    scheme: str
    method: str
    path: str
    """Percent-decoded, as WSGI's ``PATH_INFO``."""
    query_string: str

    @property
    def headers(self) -> Any:
        """A mapping of lower-case names (``get``, ``in``, ``items``: every value of a repeated name)."""


class Transport(Protocol):
    async def send_bytes(self, data: bytes) -> None: ...


class Proto(Protocol):
    """What the gateway uses of Granian's RSGI HTTP protocol object."""

    def __aiter__(self) -> Any: ...
    def client_disconnect(self) -> Awaitable[None]: ...
    def response_bytes(self, status: int, headers: Headers, body: bytes) -> None: ...
    def response_stream(self, status: int, headers: Headers) -> Transport: ...


class Gateway:
    """An RSGI app serving a Flask app, whose streams the ``StreamHub`` holds."""

    def __init__(self, app: Flask, hub: StreamHub, requests: Executor | None, waits: Executor) -> None:
        self.app = app
        self.hub = hub
        self.requests = requests
        """The request threads; None answers each request on the loop's own thread."""
        self.waits = waits
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 1 << 20)

    def __rsgi_init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.hub.attach(loop)

    def __rsgi_del__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.hub.end_all()

    async def __rsgi__(self, scope: Scope, proto: Proto) -> None:
        if scope.proto != "http":
            return  # a WebSocket is not served: returning without accepting it refuses it
        self.hub.attach(asyncio.get_running_loop())
        body, whole = await _read_body(scope, proto, self.max_body + 1)
        environ = wsgi_environ(scope, body)
        environ[HUB_KEY] = self.hub
        pool = self.waits if _may_wait(scope) else self.requests
        if pool is None:
            status, headers, content = _answer(self.app, environ)
        else:
            status, headers, content = await asyncio.get_running_loop().run_in_executor(
                pool, _answer, self.app, environ
            )
        handoff: Handoff | None = environ.get(HANDOFF_KEY)
        if handoff is None:
            proto.response_bytes(status, headers, content)
            return
        transport = proto.response_stream(status, headers)
        try:
            if content:
                await transport.send_bytes(content)
        except Exception:
            handoff.release()  # the client went before its first lines
            return
        await self.hub.follow(handoff, transport.send_bytes, proto.client_disconnect() if whole else _never())


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an RSGI request whose body is ``body``."""
    server, _, server_port = scope.server.rpartition(":")
    client, _, client_port = scope.client.rpartition(":")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": scope.path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": server.strip("[]") or "localhost",
        "SERVER_PORT": server_port or "80",
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client.strip("[]"),
        "REMOTE_PORT": client_port,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in scope.headers.items():
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = f"HTTP_{key}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    if "CONTENT_LENGTH" not in environ:
        environ["wsgi.input_terminated"] = True  # chunked: the body ends where the stream does
    return environ


def _may_wait(scope: Scope) -> bool:
    """A long poll (``?wait=``) waits on its thread for up to a minute: it runs on a pool of its
    own, so that it never holds up the ordinary requests queued for the few request threads."""
    return any(part.partition("=")[0] == "wait" for part in scope.query_string.split("&"))


def _answer(app: Flask, environ: dict[str, Any]) -> tuple[int, Headers, bytes]:
    """Runs the WSGI app on this thread; its status, headers and whole body."""
    started: list[Any] = []
    written: list[bytes] = []

    def start_response(status: str, headers: Headers, exc_info: Any = None) -> Callable[[bytes], None]:
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
    return int(status.split(" ", 1)[0]), headers, b"".join(written)


async def _read_body(scope: Scope, proto: Proto, limit: int) -> tuple[bytes, bool]:
    """The request body, up to ``limit`` bytes, and whether it was read to its end. A request that
    announces none (no ``Content-Length``, not chunked) is not awaited."""
    headers = scope.headers
    if "content-length" not in headers and "transfer-encoding" not in headers:
        return b"", True
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in proto:
            chunks.append(chunk)
            size += len(chunk)
            if size >= limit:
                return b"".join(chunks), False
    except RuntimeError:  # Granian's ProtocolClosed: the client went while it sent
        return b"".join(chunks), False
    return b"".join(chunks), True


async def _never() -> None:
    """The disconnection of a request whose body was not read to its end: the hub then learns
    that its client went when a write fails."""
    await asyncio.Event().wait()
