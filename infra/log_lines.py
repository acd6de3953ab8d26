"""The ``dragonhall`` command's log: one JSON object a line, or a readable line on a terminal.

A line carries, where they apply, the request id, the game id and the account: from the
request being served (``context_source``, which the API sets, asked only when a line is
written, so a request that logs nothing pays nothing) and from ``CONTEXT`` (a worker's task
binds its game). On a terminal the same records read as before:
``2026-11-27 10:00:00,000 WARNING dragonhall.projections: message``.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

import orjson

CONTEXT: contextvars.ContextVar[dict[str, str]] = contextvars.ContextVar("dragonhall_log_context", default={})  # noqa: B039 - never mutated: bind replaces it
context_source: Callable[[], dict[str, Any]] | None = None
"""Fields of the request being served, if any (``api.app`` sets it)."""
HUMAN = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def bind(**fields: str) -> contextvars.Token[dict[str, str]]:
    """Adds ``fields`` to the lines this context writes from now on (undo with ``CONTEXT.reset``)."""
    return CONTEXT.set({**CONTEXT.get(), **fields})


class JsonLines(logging.Formatter):
    """One JSON object a line: ``at``, ``level``, ``logger``, ``message``, the context's fields,
    the record's ``extra`` fields given as ``fields``, and ``error`` (the traceback) if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if context_source is not None:
            with contextlib.suppress(Exception):  # outside a request, or half torn down: the line goes without
                entry.update(context_source())
        entry.update(CONTEXT.get())
        entry.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


def configure(level: str, stream: TextIO | None = None) -> None:
    """Sends the root logger's records to ``stream`` (stderr): JSON lines, readable on a terminal."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(HUMAN) if stream.isatty() else JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
