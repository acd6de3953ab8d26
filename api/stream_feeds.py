"""A stream held by a ``StreamHub`` (``api.stream_hub``): what the route hands over, and its queue of frames."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from services.streams import lines as stream_lines
from services.streams.lines import AccountFollower, GameFollower, Line, StillValid

Write = Callable[[bytes], Awaitable[None]]
"""Sends bytes of a stream's body to its client (Granian's ``send_bytes``); raises once it has gone."""
BACKLOG = 256
"""Frames a feed may have waiting for a client that does not read them; past that the stream
ends, and the client resumes with ``after`` when it comes back."""
END = b""
"""Queued to end a stream (a frame is never empty)."""


@dataclass(eq=False)
class Handoff:
    """A stream opened by the Flask route, for the hub to follow on with: what to follow, from
    where, how to frame a line, whether its token still holds, its slot to give back, and the id
    of the token it was opened with (None without one): the streams of one token share its checks."""

    follower: GameFollower | AccountFollower
    position: int
    frame: Callable[[Line | None], bytes]
    still_valid: StillValid
    release: Callable[[], None]
    token: str | None = None


@dataclass(eq=False)
class Feed:
    """One stream held by the hub: the frames queued for its writer, and when it last wrote one
    and last had its token checked (``time.monotonic``)."""

    handoff: Handoff
    position: int
    outbox: asyncio.Queue[bytes] = field(default_factory=asyncio.Queue)
    last_queued: float = field(default_factory=time.monotonic)
    last_checked: float = field(default_factory=time.monotonic)

    @property
    def follower(self) -> GameFollower | AccountFollower:
        return self.handoff.follower

    def push(self, frame: bytes) -> None:
        if self.outbox.qsize() >= BACKLOG:
            self.end()
            return
        self.outbox.put_nowait(frame)
        self.last_queued = time.monotonic()

    def keep_alive_if_quiet(self, now: float, quiet_for: float, idle: bool = True) -> None:
        """Queues a keep-alive when nothing was queued for ``quiet_for`` seconds (and, when
        ``idle``, nothing waits to be sent)."""
        if now - self.last_queued >= quiet_for and (not idle or self.outbox.empty()):
            self.push(self.handoff.frame(None))

    def end(self) -> None:
        self.outbox.put_nowait(END)


class Framed:
    """A line framed once for each framing its feeds use (NDJSON, SSE), however many feeds take it."""

    def __init__(self, line: Line) -> None:
        self.line = line
        self._frames: dict[Callable[[Line | None], bytes], bytes] = {}

    def to(self, feed: Feed) -> bytes:
        frame = feed.handoff.frame
        framed = self._frames.get(frame)
        if framed is None:
            framed = self._frames[frame] = frame(self.line)
        return framed


def keep_alive_when_quiet(feeds: list[Feed]) -> None:
    """A keep-alive to each of ``feeds`` (read up to the stored head) that has queued nothing for
    ``KEEPALIVE`` seconds. The poll sends them too; this is when ``KEEPALIVE`` is 0 (tests), where
    a stream says at once that it has nothing more to send."""
    now = time.monotonic()
    quiet_for = stream_lines.KEEPALIVE
    for feed in feeds:
        feed.keep_alive_if_quiet(now, quiet_for, idle=False)
