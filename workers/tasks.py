"""Celery tasks: thin entry points that run the jobs of ``workers.jobs``.

``acks_late`` (a task lost with its worker is delivered again; jobs are
idempotent) and retries with exponential backoff on transient errors.

Every line a task writes, Celery's own included (its "raised unexpected" error),
carries the task's game and the request that caused it: the sender puts the request
id and the account in the message's headers (``workers.dispatch``), and they are
bound from before the task runs until after Celery has logged its outcome
(``task_prerun`` to ``task_postrun``). A task sent by a task carries them on.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from celery import Celery, signals

from infra import log_lines
from workers.jobs import JOBS, MAX_RETRIES, TRANSIENT, RetryLater, Send
from workers.platform import JobPlatform

OPTIONS = {
    "acks_late": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": MAX_RETRIES,
}


GAME_JOBS = ("dragonhall.play_bot", "dragonhall.deadline", "dragonhall.remind", "dragonhall.start")
"""The jobs whose first argument is a game id: their log lines carry it (``infra.log_lines``)."""


def register_tasks(app: Celery, platform: Callable[[], JobPlatform], send: Send) -> None:
    """Defines one task per job on ``app``; names are explicit so producers and workers agree."""
    for name, job in JOBS.items():
        _register(app, name, job, platform, send)


def _register(app: Celery, name: str, job: Callable[..., Any], platform: Callable[[], JobPlatform], send: Send) -> None:
    def task(self: Any, *args: Any) -> Any:
        try:
            return job(platform(), send, *args)
        except RetryLater as later:
            raise self.retry(countdown=later.seconds) from None

    task.__name__ = name.rsplit(".", 1)[-1]
    app.task(name=name, bind=True, shared=False, **OPTIONS)(task)  # this app's alone: no other app finalizes it


TRACE_HEADERS = {"dragonhall_request_id": "request_id", "dragonhall_account": "account"}
"""The message headers that carry a task's cause, and the log fields they become."""


def trace_headers() -> dict[str, str]:
    """The headers a task sent now carries: the request id and account of the request (or task) sending it."""
    here = log_lines.fields()
    return {header: str(here[name]) for header, name in TRACE_HEADERS.items() if here.get(name)}


def task_fields(name: str, args: tuple[Any, ...] | list[Any], request: Any) -> dict[str, str]:
    """The log fields of a task: its game (for the jobs of a game) and the request that caused it."""
    out = {"task": name}
    if name in GAME_JOBS and args:
        out["game_id"] = str(args[0])
    headers = getattr(request, "headers", None) or {}
    for header, field in TRACE_HEADERS.items():
        value = getattr(request, header, None) or headers.get(header)
        if value:
            out[field] = str(value)
    return out


_bound: dict[str, contextvars.Token[dict[str, str]]] = {}


@signals.task_prerun.connect(weak=False)
def _bind(task_id: str = "", task: Any = None, args: Any = (), **_: Any) -> None:
    if task is not None and str(task.name).startswith("dragonhall."):
        _bound[task_id] = log_lines.bind(**task_fields(task.name, args or (), task.request))


@signals.task_postrun.connect(weak=False)
def _unbind(task_id: str = "", **_: Any) -> None:
    token = _bound.pop(task_id, None)
    if token is not None:
        log_lines.CONTEXT.reset(token)
