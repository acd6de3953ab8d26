"""Lean stream clients for ``streams.py``: they record what arrives and read it afterwards.

The bench's stream clients share the server's two cores. Read with ``httpx`` and parsed as they
arrive, 1,200 streams' lines cost the clients about 40 µs each, a fifth of the machine under load,
and a client process that falls behind delays every line it holds, which the bench would count as
the server's delay. So each stream here is an ``asyncio.Protocol`` that appends ``(time, bytes)``
for every read and does nothing else while play goes on, but notice that its response has ended
(the server ends a game's stream when the game ends). ``lines`` takes the record apart afterwards:
status, headers, chunked framing, one entry per line with the time its last byte was read.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

LAST_CHUNK = b"0\r\n\r\n"


@dataclass
class Record:
    """What one stream's connection read: each read's time and bytes, and whether it ended."""

    reads: list[tuple[float, bytes]] = field(default_factory=list)
    ended: bool = False
    lost: bool = False


class RawStream(asyncio.Protocol):
    """One streaming GET: records each read; ``done`` resolves when the response or connection ends."""

    def __init__(
        self, request: bytes, record: Record, on_head: Callable[[bool], None], on_read: Callable[[float], None]
    ) -> None:
        self.request = request
        self.record = record
        self.on_head = on_head
        self.on_read = on_read
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        reads = self.record.reads
        if not reads:
            self.on_head(data.startswith(b"HTTP/1.1 200"))
        now = time.monotonic()
        reads.append((now, data))
        if len(data) > KEEPALIVE_READ:  # a keep-alive alone is no line: the bench's wait for quiet ignores it
            self.on_read(now)
        self.tail = (self.tail + data)[-len(LAST_CHUNK) :]
        refused = len(reads) == 1 and not data.startswith(b"HTTP/1.1 200")
        if refused or self.tail == LAST_CHUNK:
            self.record.ended = True
            self._finish()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.record.ended:
            self.record.lost = True
        self._finish()

    def _finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)
        if self.transport is not None:
            self.transport.close()


KEEPALIVE_READ = 16
"""Bytes of a read at most that holds only a keep-alive (an empty line, chunked: ``1\\r\\n\\n\\r\\n``):
Pushpin sends each stream's on its own clock, so a wait for no line would never see quiet."""


def request_bytes(port: int, path: str, params: dict[str, object], token: str | None) -> bytes:
    query = f"?{urlencode(params)}" if params else ""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (
        f"GET {path}{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}Accept: application/x-ndjson\r\n\r\n"
    ).encode()


async def open_stream(
    port: int,
    path: str,
    params: dict[str, object],
    token: str | None,
    on_head: Callable[[bool], None],
    on_read: Callable[[float], None],
) -> tuple[RawStream, Record]:
    """Opens one streaming GET; ``on_head`` is told whether it answered 200, ``on_read`` the time
    of every read."""
    record = Record()
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(
        lambda: RawStream(request_bytes(port, path, params, token), record, on_head, on_read), "127.0.0.1", port
    )
    return protocol, record


def lines(record: Record) -> tuple[int, float | None, list[tuple[bytes, float]]]:
    """The response's status, when its head was read, and its non-empty lines, each with the time
    its last byte was read (NDJSON, chunked or not)."""
    if not record.reads:
        return 0, None, []
    raw = b"".join(data for _, data in record.reads)
    ends: list[int] = []
    total = 0
    for _, data in record.reads:
        total += len(data)
        ends.append(total)
    head_end = raw.find(b"\r\n\r\n")
    if head_end < 0:
        return 0, None, []
    head = raw[:head_end].decode("latin-1").lower()
    status = int(head.split(" ", 2)[1])
    segments = _body_segments(raw, head_end + 4, "transfer-encoding: chunked" in head)
    found: list[tuple[bytes, float]] = []
    pending = b""
    for start, stop in segments:
        part = raw[start:stop]
        offset = 0
        while True:
            newline = part.find(b"\n", offset)
            if newline < 0:
                pending += part[offset:]
                break
            line = pending + part[offset:newline]
            pending = b""
            if line.strip():
                at = record.reads[bisect.bisect_right(ends, start + newline)][0]
                found.append((line, at))
            offset = newline + 1
    return status, record.reads[0][0], found


def _body_segments(raw: bytes, at: int, chunked: bool) -> list[tuple[int, int]]:
    """Where the body's bytes lie in ``raw``: one segment per chunk (or the rest, unchunked)."""
    if not chunked:
        return [(at, len(raw))]
    segments = []
    while True:
        size_end = raw.find(b"\r\n", at)
        if size_end < 0:
            return segments
        size = int(raw[at:size_end].split(b";", 1)[0], 16)
        if size == 0:
            return segments
        start = size_end + 2
        segments.append((start, min(start + size, len(raw))))
        at = start + size + 2
