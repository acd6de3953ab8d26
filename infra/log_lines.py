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
import os
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from types import TracebackType
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
            "message": _message(record),
        }
        entry.update(fields())  # outside a request, or half torn down: the line goes without
        entry.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


def _message(record: logging.LogRecord) -> str:
    """The record's message; a record whose arguments do not fit its message (a library's, say)
    is still one JSON line, with both as given, rather than a "Logging error" on stderr."""
    try:
        return record.getMessage()
    except Exception as e:
        return f"{record.msg!s} {record.args!r} (not formatted: {type(e).__name__}: {e})"


def fields() -> dict[str, Any]:
    """The request id, game id and account of the lines written here now (``{}`` outside any)."""
    entry: dict[str, Any] = {}
    if context_source is not None:
        with contextlib.suppress(Exception):
            entry.update(context_source())
    entry.update(CONTEXT.get())
    return entry


ACCESS_LOG = "DRAGONHALL_ACCESS_LOG"
OPERATOR = "dragonhall.cli"
"""What a command tells its operator (where it serves, what a rebuild read): written at INFO
whatever the level, so that a server started off a terminal still says where it listens."""


def configure(level: str, stream: TextIO | None = None) -> None:
    """Sends every record to ``stream`` (stderr), JSON lines, or readable on a terminal, at
    ``level``; and everything else a process could write there too: uncaught exceptions (of any
    thread), warnings. The access log (logger ``dragonhall.access``) writes at INFO only when
    ``DRAGONHALL_ACCESS_LOG`` is set, and the operator's messages (``OPERATOR``) always, whatever
    ``level`` says."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(HUMAN) if stream.isatty() else JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("dragonhall.access").setLevel(logging.INFO if os.environ.get(ACCESS_LOG) else logging.WARNING)
    logging.getLogger(OPERATOR).setLevel(logging.INFO)
    logging.captureWarnings(True)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread


def dict_config(level: str) -> dict[str, Any]:
    """The same, as a ``logging.config`` dictionary: for a library that configures logging in the
    processes it starts (Granian, in each HTTP process), so that its lines are ours too."""
    human = sys.stderr.isatty()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"dragonhall": {"format": HUMAN} if human else {"()": f"{__name__}.JsonLines"}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "dragonhall", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "_granian": {"handlers": [], "propagate": True},
            "granian.access": {"handlers": [], "propagate": False},  # the app writes the access log
            "dragonhall.access": {"level": "INFO" if os.environ.get(ACCESS_LOG) else "WARNING"},
            OPERATOR: {"level": "INFO"},
            "py.warnings": {"handlers": [], "propagate": True},
        },
    }


def _uncaught(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, tb)
        return
    logging.getLogger("dragonhall").critical("uncaught %s: %s", kind.__name__, error, exc_info=(kind, error, tb))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None or issubclass(args.exc_type, SystemExit):
        return
    name = args.thread.name if args.thread is not None else "a thread"
    logging.getLogger("dragonhall").error(
        "uncaught %s in %s: %s", args.exc_type.__name__, name, args.exc_value,
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )  # fmt: skip
