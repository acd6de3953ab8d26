"""A consuming worker's heartbeat: the health model counts the workers it has seen lately.

A consumer bootstep, so it beats only while the worker consumes: a worker that lost
its broker stops its consumer, and with it its heartbeat, until it reconnects. Each
beat is a row in ``dh_heartbeats`` (``services.operations.heartbeats``); a worker that stops on
purpose removes its row, one killed leaves it to grow old. ``PULSE`` remembers the
last beat that was written, for the worker's ``/readyz``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import bootsteps

from services.operations.heartbeats import WORKER_BEAT, process_name
from workers.platform import JobPlatform

log = logging.getLogger("dragonhall.workers")


class Pulse:
    """When this process's worker last wrote its heartbeat (monotonic seconds), if ever."""

    def __init__(self) -> None:
        self.last: float | None = None

    def ready(self, within: float = 3 * WORKER_BEAT) -> bool:
        return self.last is not None and time.monotonic() - self.last <= within


PULSE = Pulse()


class Heartbeat:
    """A thread that writes this worker's heartbeat every ``every`` seconds until stopped."""

    def __init__(self, platform: JobPlatform, pulse: Pulse, every: float = WORKER_BEAT) -> None:
        self.platform = platform
        self.pulse = pulse
        self.every = every
        self.process = process_name("worker")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dragonhall-heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def beat(self) -> None:
        self.platform.heartbeats.beat(self.process, "worker")
        self.pulse.last = time.monotonic()

    def _run(self) -> None:
        while True:
            try:
                self.beat()
            except Exception as e:  # the database is away: the health model will say so, by our silence
                log.warning("could not write this worker's heartbeat: %s", e)
            if self._stop.wait(self.every):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.pulse.last = None
        try:
            self.platform.heartbeats.gone(self.process)
        except Exception as e:
            log.warning("could not remove this worker's heartbeat: %s", e)


def heartbeat_step(platform: Callable[[], JobPlatform]) -> type[bootsteps.StartStopStep]:
    """The consumer bootstep that beats while the worker consumes."""

    class Beat(bootsteps.StartStopStep):
        requires = ("celery.worker.consumer.tasks:Tasks",)

        def __init__(self, c: Any, **kwargs: Any) -> None:
            super().__init__(c, **kwargs)
            self.heartbeat: Heartbeat | None = None

        def start(self, c: Any) -> None:
            self.heartbeat = Heartbeat(platform(), PULSE)
            self.heartbeat.start()

        def stop(self, c: Any) -> None:
            if self.heartbeat is not None:
                self.heartbeat.stop()
                self.heartbeat = None

        shutdown = stop

    return Beat
