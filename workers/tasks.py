"""Celery tasks: thin, idempotent entry points into the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import Celery

from workers.bot_turns import play_bot_turn

TRANSIENT = (ConnectionError, TimeoutError, OSError)


def register_tasks(app: Celery, platform: Callable[[], Any]) -> None:
    """Defines the tasks on ``app``; names are explicit so producers and workers agree."""

    @app.task(name="dragonhall.play_bot", acks_late=True, autoretry_for=TRANSIENT, retry_backoff=True,
              retry_backoff_max=30, max_retries=5)
    def play_bot(game_id: str, seat: int, version: int) -> bool:
        return play_bot_turn(platform(), game_id, seat, version)
