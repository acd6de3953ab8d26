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
from infra import metrics
from services.common import clock
from services.deadlines.timers import BOT_NUDGE, Action, FireDeadline, PlayBot
from services.operations.heartbeats import SWEEP
from services.play.aggregate import Game
from services.play.table_seats import awaits
from workers import bot_claims, broker_memory
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
    """Plays the seat's decision, giving up its claim (``workers.bot_claims``) just before the move
    is saved, or when nothing is played. A seat found awaited again for a decision its claim kept
    unsent (it acted since ``version`` through another path) gets that task now."""

    def give_up() -> None:
        bot_claims.give_up(platform.settings, game_id, seat, version)

    played = False
    try:
        played = play_bot_turn(platform, game_id, seat, version, before_save=give_up)
    finally:
        if not played:
            give_up()
    metrics.BOT_TURNS_BY("played" if played else "wasted").inc()
    if not played:
        game = platform.games.load(game_id)
        if awaits(game, seat, game.version) and game.seat_info(seat).get("bot"):
            send([PlayBot(game_id, seat, game.version)])
    return played


def deadline(platform: JobPlatform, send: Send, game_id: str, seat: int, version: int) -> str:
    def stand_in(game: Game) -> Command:
        return bot_choice(game, seat, None, platform.settings.bot_budget, platform.seeds.of(game.id))

    result, when = platform.timers.fire_deadline(game_id, seat, version, stand_in)
    if result == "fired" and when is not None:
        metrics.TIMER_LATENESS.observe(max(0.0, (clock.now() - when).total_seconds()))
    if result == "early" and when is not None:
        send([FireDeadline(game_id, seat, version, when)])
    return result


def remind(platform: JobPlatform, send: Send, game_id: str, seat: int, since: str) -> None:
    send(platform.timers.remind(game_id, seat, since))


def start(platform: JobPlatform, send: Send, game_id: str) -> bool:
    return bool(platform.timers.start_scheduled(game_id))


def webhook(platform: JobPlatform, send: Send, delivery_id: str, attempt: int = 0) -> str:
    status = deliver(platform.inbox, delivery_id, platform.accounts.webhook_secret, platform.accounts.webhook_targets)
    metrics.WEBHOOKS_BY(status).inc()
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
    platform.heartbeats.beat(SWEEP, SWEEP)  # the health model's sweep check (``services.operations.health``)
    return len(actions)


def nudge_bots(platform: JobPlatform, send: Send) -> int:
    """Sends a task for each bot turn awaited longer than ``BOT_NUDGE`` that no live task claims:
    its task was lost with a worker killed between a save and the send, or its claim lapsed."""
    actions = platform.timers.stalled_bots(clock.now() - BOT_NUDGE)
    send(actions)
    return len(actions)


JOBS: dict[str, Callable[..., Any]] = {
    "dragonhall.play_bot": play_bot,
    "dragonhall.deadline": deadline,
    "dragonhall.remind": remind,
    "dragonhall.start": start,
    "dragonhall.webhook": webhook,
    "dragonhall.tournament": tournament,
    "dragonhall.sweep": sweep,
    "dragonhall.nudge_bots": nudge_bots,
}
