"""Celery tasks: thin, idempotent entry points into the services.

Each task decodes its arguments, calls one service, and sends the follow-up
tasks the service asks for. A late, duplicate or stale task writes nothing: the
services check the game version under the game's lock before writing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import Celery

from workers.bot_turns import bot_choice, play_bot_turn
from workers.webhooks import deliver

log = logging.getLogger("dragonhall.tasks")

TRANSIENT = (ConnectionError, TimeoutError, OSError)
RETRY = {"acks_late": True, "autoretry_for": TRANSIENT, "retry_backoff": True, "retry_backoff_max": 60,
         "max_retries": 8}


def register_tasks(app: Celery, platform: Callable[[], Any], send: Callable[[list[Any]], None]) -> None:
    """Defines the tasks on ``app``; names are explicit so producers and workers agree."""

    @app.task(name="dragonhall.play_bot", **RETRY)
    def play_bot(game_id: str, seat: int, version: int) -> bool:
        return play_bot_turn(platform(), game_id, seat, version)

    @app.task(name="dragonhall.deadline", **RETRY)
    def deadline(game_id: str, seat: int, version: int) -> str:
        p = platform()

        def stand_in(game: Any) -> Any:
            return bot_choice(game, seat, None, p.settings.bot_budget)

        result, when = p.timers.fire_deadline(game_id, seat, version, stand_in)
        if result == "early" and when is not None:
            send([_fire(game_id, seat, version, when)])
        return result

    @app.task(name="dragonhall.remind", **RETRY)
    def remind(game_id: str, seat: int, since: str) -> None:
        send(platform().timers.remind(game_id, seat, since))

    @app.task(name="dragonhall.start", **RETRY)
    def start(game_id: str) -> bool:
        return platform().timers.start_scheduled(game_id)

    @app.task(name="dragonhall.webhook", bind=True, acks_late=True, max_retries=8)
    def webhook(self: Any, delivery_id: str) -> str:
        status = deliver(platform().inbox, delivery_id)
        if status == "retry":
            raise self.retry(countdown=min(300, 2 ** (self.request.retries + 1)))
        return status

    @app.task(name="dragonhall.sweep", acks_late=True)
    def sweep() -> int:
        p = platform()
        if not p.sweep_lock():
            return 0
        actions = p.timers.sweep()
        send(actions)
        return len(actions)


def _fire(game_id: str, seat: int, version: int, when: Any) -> Any:
    from services.timers import FireDeadline

    return FireDeadline(game_id, seat, version, when)
