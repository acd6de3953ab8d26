"""A stream under a plain WSGI server, followed by the same ``StreamHub`` as under ``dragonhall serve``.

WSGI wants a stream's body to hold its request's thread for as long as the client
listens (Werkzeug's threaded server, the Flask test client, a synchronous worker
of another server). Such a body still builds no line itself: the stream is handed
to a ``StreamHub`` that runs on an event loop of its own thread (one per app,
started with its first stream), and the body passes on what the hub writes. So
there is one stream engine, whatever serves the app: the same reads, the same
lines, keep-alives, token checks and backlog limit (issue 35).

The hub waits for the body to take a frame before it writes the next, so a client
that stops reading fills the feed's backlog and its stream ends, as under the
gateway.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

from flask import Flask, current_app

from api.context import platform_of
from api.stream_feeds import Handoff
from api.stream_hub import StreamHub

HUB = "dragonhall.wsgi_stream_hub"
"""Where an app keeps its ``LoopThread`` (``Flask.extensions``), once its first stream is held."""
LINE_THREADS = 2
"""Threads that read the stores and build the lines for the hub (as ``--threads`` under the gateway)."""

CLOSING = 1.0
"""Seconds a closed body waits for the hub to let go of its stream (a few milliseconds)."""

_lock = threading.Lock()


class LoopThread:
    """A ``StreamHub`` on an event loop of its own thread, and the threads that build its lines."""

    def __init__(self, app: Flask) -> None:
        platform = platform_of(app)
        self.loop = asyncio.new_event_loop()
        self.lines = ThreadPoolExecutor(LINE_THREADS, thread_name_prefix="dragonhall-stream-lines")
        self.hub = StreamHub(platform.streams, self.lines)
        self._thread = threading.Thread(target=self.loop.run_forever, name="dragonhall-stream-hub", daemon=True)
        self.bodies: weakref.WeakSet[Body] = weakref.WeakSet()
        """The bodies of the streams it holds: ended where they wait when it stops."""
        self._thread.start()
        self.loop.call_soon_threadsafe(self.hub.attach, self.loop)
        platform.on_close(self.stop)

    def stop(self) -> None:
        """Ends the streams it holds (each sends what it has queued), then its loop and threads."""
        if self.loop.is_closed():
            return
        with contextlib.suppress(TimeoutError, concurrent.futures.CancelledError):
            asyncio.run_coroutine_threadsafe(self._wind_up(), self.loop).result(timeout=5.0)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5.0)
        if not self._thread.is_alive():
            self.loop.close()
        self.lines.shutdown(wait=False, cancel_futures=True)
        for body in list(self.bodies):
            body.end()

    async def _wind_up(self) -> None:
        """Ends every stream, then stops what still runs on the loop (the hub's poll)."""
        self.hub.end_all()
        await asyncio.sleep(0)
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def hub_of(app: Flask) -> LoopThread:
    """The app's hub for WSGI streams, started on its first stream."""
    held = app.extensions.get(HUB)
    if held is None:
        with _lock:
            held = app.extensions.get(HUB)
            if held is None:
                held = app.extensions[HUB] = LoopThread(app)
    return held


def follow_on(first: bytes, handoff: Handoff) -> Iterator[bytes]:
    """A stream's body under a WSGI server, in a request of the app: its ``first`` lines, then
    what the app's hub writes for it."""
    return Body(hub_of(current_app), first, handoff)


_DONE: tuple[bytes, asyncio.Future[None] | None] = (b"", None)


class Body:
    """A stream's body for a WSGI server, on the request's thread: its first lines, then the
    frames the hub writes. The hub takes the stream once the first lines are out (the next
    ``next``), as under the gateway; ``close`` (the server calls it when the client goes, or
    when the body is done) tells the hub the client went, or gives back the slot of a stream
    never followed."""

    def __init__(self, held: LoopThread, first: bytes, handoff: Handoff) -> None:
        self._held = held
        self._first: bytes | None = first
        """The first lines, until they are sent."""
        self._handoff: Handoff | None = handoff
        """The stream, until the hub takes it."""
        self._frames: queue.SimpleQueue[tuple[bytes, asyncio.Future[None] | None]] = queue.SimpleQueue()
        self._gone = asyncio.Event()
        """Set on the loop once the client went (``close``)."""
        self._taking: asyncio.Future[None] | None = None
        """The frame the hub waits for this thread to take."""
        self._done = False
        self._following: concurrent.futures.Future[None] | None = None
        held.bodies.add(self)

    def __iter__(self) -> Body:
        return self

    def __next__(self) -> bytes:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        handoff, self._handoff = self._handoff, None
        if handoff is not None:
            if self._held.loop.is_closed():  # its app's platform was closed
                handoff.release()
                raise StopIteration
            self._following = asyncio.run_coroutine_threadsafe(self._follow(handoff), self._held.loop)
        if self._done:
            raise StopIteration
        data, taken = self._frames.get()
        if taken is None:
            self._done = True
            raise StopIteration
        self._held.loop.call_soon_threadsafe(_settle, taken, None)
        return data

    def close(self) -> None:
        handoff, self._handoff = self._handoff, None
        if handoff is not None:  # never followed: only its slot to give back
            self._done = True
            handoff.release()
        elif self._following is not None and not self._held.loop.is_closed():
            self._held.loop.call_soon_threadsafe(self._disconnect)
            # the hub lets go of the stream at once: its slot is free when the server moves on
            with contextlib.suppress(Exception):
                self._following.result(timeout=CLOSING)

    def end(self) -> None:
        """Ends the body where it waits (its hub stopped)."""
        self._frames.put(_DONE)

    def _disconnect(self) -> None:
        self._gone.set()
        if self._taking is not None:
            _settle(self._taking, ConnectionError("the client went"))

    async def _follow(self, handoff: Handoff) -> None:
        try:
            await self._held.hub.follow(handoff, self._write, self._gone.wait())
        finally:
            self.end()

    async def _write(self, data: bytes) -> None:
        """Hands ``data`` to the request's thread, and returns once that thread has taken it."""
        if self._gone.is_set():
            raise ConnectionError("the client went")
        self._taking = asyncio.get_running_loop().create_future()
        self._frames.put((data, self._taking))
        await self._taking


def _settle(taken: asyncio.Future[None], error: BaseException | None) -> None:
    if taken.done():
        return
    if error is None:
        taken.set_result(None)
    else:
        taken.set_exception(error)
