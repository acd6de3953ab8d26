"""Celery tasks: thin entry points that run the jobs of ``workers.jobs``.

``acks_late`` (a task lost with its worker is delivered again; jobs are
idempotent) and retries with exponential backoff on transient errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import Celery

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
        bound = log_lines.bind(game_id=str(args[0])) if name in GAME_JOBS and args else None
        try:
            return job(platform(), send, *args)
        except RetryLater as later:
            raise self.retry(countdown=later.seconds) from None
        finally:
            if bound is not None:
                log_lines.CONTEXT.reset(bound)

    task.__name__ = name.rsplit(".", 1)[-1]
    app.task(name=name, bind=True, **OPTIONS)(task)
