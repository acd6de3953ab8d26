"""The two framings of a stream's lines: NDJSON and Server-Sent Events.

One module for both stream engines: the process's own (``api.streams``) frames a line as it
sends it, and the fan-out engine's publisher (``services.streams.grip``) frames it once per channel,
so a line reads the same whichever holds the stream."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

Line = dict[str, Any]
Frame = Callable[[Line | None], bytes]


def ndjson_frame(line: Line | None) -> bytes:
    """One JSON object and a newline; an empty line is the keep-alive."""
    return b"\n" if line is None else orjson.dumps(line) + b"\n"


def sse_frame(line: Line | None) -> bytes:
    """An event whose ``id`` is the line's version or cursor (what ``Last-Event-ID`` resumes
    from) and whose ``event`` is its type; a comment is the keep-alive."""
    if line is None:
        return b": keep-alive\n\n"
    position = line.get("cursor", line.get("version") if line.get("type") in ("game", "events") else None)
    head = f"id: {position}\n" if position is not None else ""
    return f"{head}event: {line.get('type', 'message')}\n".encode() + b"data: " + orjson.dumps(line) + b"\n\n"


FRAMES: dict[str, Frame] = {"ndjson": ndjson_frame, "sse": sse_frame}
"""The framings by name, as the fan-out engine's channels are suffixed."""
