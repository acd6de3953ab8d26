"""From the services' plans to Celery messages (or the embedded executor); the embedded sweep."""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Any

from celery import Celery
from kombu.exceptions import OperationalError as BrokerUnreachable

from services.common import clock
from services.common.config import Settings
from services.deadlines.timers import (
    Action,
    AdvanceTournament,
    FireDeadline,
    PlayBot,
    PostWebhook,
    Remind,
    StartGame,
    Timers,
)
from services.operations.heartbeats import SWEEP
from services.play.aggregate import Game
from workers import bot_claims
from workers.celery_app import make_celery, queue
from workers.local import LocalExecutor
from workers.platform import JobPlatform, WorkPlatform
from workers.tasks import trace_headers

log = logging.getLogger("dragonhall.work")


class CeleryWork:
    """Sends the tasks ``Timers.plan`` asks for after every save: to Celery through the broker,
    or, in the embedded default, to the local executor that runs the same jobs in this process."""

    def __init__(
        self, celery: Celery, settings: Settings, timers: Timers, run_here: WorkPlatform | None = None
    ) -> None:
        """``run_here``: the platform whose jobs run in this process (the embedded default's
        executor), instead of through the broker."""
        self.celery = celery
        self.settings = settings
        self.timers = timers
        self.local = None if run_here is None else LocalExecutor(run_here, self.send)

    def game_changed(self, game: Game) -> None:
        self.send(self.timers.plan(game))

    def send(self, actions: list[Action]) -> None:
        """Sends each action's task. A broker that cannot be reached fails no request: the
        save that planned the task is already stored, and the sweep finds what is due (a bot
        awaited too long, a deadline or a start that passed) and sends it again."""
        for action in actions:
            name, args, q, eta = _message(action)
            if self.local is not None:
                self.local.submit(name, args, eta)
                continue
            if isinstance(action, PlayBot) and not bot_claims.take(self.settings, *args):
                continue  # a task for this seat's decision is queued or running
            options: dict[str, Any] = {"queue": queue(self.settings, q), "headers": trace_headers()}
            if eta is not None and eta > clock.now():
                options["countdown"] = (eta - clock.now()).total_seconds()
            try:
                self.celery.send_task(name, args=args, **options)
            except (BrokerUnreachable, OSError) as e:
                log.warning("the broker is unreachable (%s); %s%r waits for the sweep", e, name, args)
                continue
            if isinstance(action, PlayBot):
                bot_claims.hold(self.settings, action.game_id, action.seat)


def _message(action: Action) -> tuple[str, tuple[Any, ...], str, datetime | None]:
    if isinstance(action, PlayBot):
        return "dragonhall.play_bot", (action.game_id, action.seat, action.version), "bots", None
    if isinstance(action, FireDeadline):
        return "dragonhall.deadline", (action.game_id, action.seat, action.version), "timers", action.eta
    if isinstance(action, Remind):
        return "dragonhall.remind", (action.game_id, action.seat, action.since), "timers", action.eta
    if isinstance(action, StartGame):
        return "dragonhall.start", (action.game_id,), "timers", action.eta
    if isinstance(action, PostWebhook):
        return "dragonhall.webhook", (action.delivery_id,), "notifications", None
    if isinstance(action, AdvanceTournament):
        return "dragonhall.tournament", (action.tournament_id,), "timers", None
    raise TypeError(f"unknown action {action!r}")


class EmbeddedSweep:
    """The periodic sweep on a thread, where there is no celery beat (the embedded default)."""

    def __init__(self, platform: JobPlatform, work: CeleryWork, interval: float) -> None:
        self.platform = platform
        self.work = work
        self.interval = interval
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="dragonhall-sweep", daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.work.send(self.platform.timers.sweep())
                self.platform.heartbeats.beat(SWEEP, SWEEP)
            except Exception:
                log.exception("sweep failed")

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)


def attach_celery(platform: WorkPlatform, start_worker: bool | None = None) -> Celery:
    """Plugs Celery into the platform and returns its app; without a broker, starts the embedded
    worker and sweep. Feed entries appended in this process have their webhook deliveries claimed
    and sent at once (the sweep claims those appended where no worker is plugged in)."""
    holder: dict[str, CeleryWork] = {}
    celery = make_celery(platform.settings, lambda: platform, lambda actions: holder["work"].send(actions))
    run_here = platform.settings.embedded and (platform.settings.embedded if start_worker is None else start_worker)
    work = holder["work"] = CeleryWork(celery, platform.settings, platform.timers, platform if run_here else None)
    platform.uow.after_save.append(work.game_changed)
    platform.feed.listeners.append(lambda players: work.send([PostWebhook(d) for d in platform.webhooks.due(players)]))
    if work.local is not None:
        sweep = EmbeddedSweep(platform, work, platform.settings.sweep_interval)
        sweep.start()
        platform.on_close(work.local.stop, sweep.stop)
    return celery
