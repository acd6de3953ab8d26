"""From a saved game to background work: which tasks to send, and the embedded worker."""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import Celery
from celery.worker import WorkController

from workers.celery_app import QUEUES, make_celery, queue

log = logging.getLogger("dragonhall.work")


class CeleryWork:
    """Sends a bot task for every awaited seat that a server bot holds."""

    def __init__(self, celery: Celery, settings: Any) -> None:
        self.celery = celery
        self.bots_queue = queue(settings, "bots")

    def game_changed(self, service: Any, game: Any) -> None:
        if game.status != "active":
            return
        gid = str(game.id)
        for seat in game.awaiting:
            info = game.seat_info(seat)
            if info.get("bot"):
                self.celery.send_task("dragonhall.play_bot", args=(gid, seat, game.version), queue=self.bots_queue)


class EmbeddedWorker:
    """A Celery worker on a thread of this process (in-memory transport)."""

    def __init__(self, celery: Celery, settings: Any, concurrency: int = 4) -> None:
        celery.finalize()
        self.controller = WorkController(
            app=celery, hostname=f"embedded-{id(self)}@dragonhall", pool="threads", concurrency=concurrency,
            queues=[queue(settings, q) for q in QUEUES], loglevel="WARNING", without_heartbeat=True,
            without_mingle=True, without_gossip=True, ready_callback=None,
        )
        self.thread = threading.Thread(target=self.controller.start, name="celery-embedded", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        try:
            self.controller.stop(in_sighandler=False)
        finally:
            self.thread.join(10)


def attach_celery(platform: Any, start_worker: bool | None = None) -> None:
    """Plugs Celery into the platform, and starts the embedded worker when there is no broker."""
    celery = make_celery(platform.settings, lambda: platform)
    platform.extras["celery"] = celery
    platform.games.work = CeleryWork(celery, platform.settings)
    run_worker = platform.settings.embedded if start_worker is None else start_worker
    if run_worker and platform.settings.embedded:
        worker = EmbeddedWorker(celery, platform.settings)
        worker.start()
        platform.extras["worker"] = worker
        platform._closers.append(worker.stop)
