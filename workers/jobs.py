"""The work behind each task, as plain functions: Celery tasks and the embedded executor run the same code.

Each job decodes its arguments, calls one service, and hands the follow-up
actions the service asks for to ``send``. Jobs are idempotent: a late, duplicate
or stale job writes nothing, because the services check the game version under
the game's lock before writing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Command
from services.aggregate import Game
from services.timers import Action, FireDeadline
from workers import broker_memory
from workers.bot_turns import bot_choice, play_bot_turn
from workers.platform import JobPlatform
from workers.webhooks import deliver

Send = Callable[[list[Action]], None]
TRANSIENT = (ConnectionError, TimeoutError, OSError)
MAX_RETRIES = 8


class RetryLater(Exception):
    """The job failed for a reason that may pass: run it again in ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry in {seconds} s")
        self.seconds = seconds


def play_bot(platform: JobPlatform, send: Send, game_id: str, seat: int, version: int) -> bool:
    return play_bot_turn(platform, game_id, seat, version)


def deadline(platform: JobPlatform, send: Send, game_id: str, seat: int, version: int) -> str:
    def stand_in(game: Game) -> Command:
        return bot_choice(game, seat, None, platform.settings.bot_budget, platform.seeds.of(game.id))

    result, when = platform.timers.fire_deadline(game_id, seat, version, stand_in)
    if result == "early" and when is not None:
        send([FireDeadline(game_id, seat, version, when)])
    return result


def remind(platform: JobPlatform, send: Send, game_id: str, seat: int, since: str) -> None:
    send(platform.timers.remind(game_id, seat, since))


def start(platform: JobPlatform, send: Send, game_id: str) -> bool:
    return bool(platform.timers.start_scheduled(game_id))


def webhook(platform: JobPlatform, send: Send, delivery_id: str, attempt: int = 0) -> str:
    status = deliver(platform.inbox, delivery_id, platform.accounts.webhook_secret, platform.accounts.webhook_targets)
    if status == "retry":
        raise RetryLater(min(300.0, 2.0 ** (attempt + 1)))
    return status


def tournament(platform: JobPlatform, send: Send, tournament_id: str) -> str:
    return platform.tournaments.advance(tournament_id)


def sweep(platform: JobPlatform, send: Send) -> int:
    if not platform.sweep_lock():
        return 0
    lost = broker_memory.forgotten(platform.settings)
    actions = platform.timers.sweep(tasks_lost=lost)
    send(actions)
    if lost:
        broker_memory.remember(platform.settings)
    return len(actions)


JOBS: dict[str, Callable[..., Any]] = {
    "dragonhall.play_bot": play_bot,
    "dragonhall.deadline": deadline,
    "dragonhall.remind": remind,
    "dragonhall.start": start,
    "dragonhall.webhook": webhook,
    "dragonhall.tournament": tournament,
    "dragonhall.sweep": sweep,
}
