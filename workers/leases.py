"""A live worker keeps the tasks it holds; a killed worker's tasks go to another within seconds.

With the Redis broker a worker holds each task it took (running, waiting for a
thread, or waiting for its ETA) unacknowledged, and Redis delivers it again to
another worker once it has been held for the visibility timeout. With the
usual hour, the tasks of a worker killed outright (SIGKILL, the OOM killer, a
lost machine) waited an hour, and bot turns stalled until the sweep nudged them
30 s later (``services.deadlines.timers.BOT_STALL``). A short timeout alone would hand a
live worker's slow or delayed tasks to a second worker.

So the timeout is a lease, and a live worker renews it: every ``RENEW_SHARE``
of the timeout, it stamps every task it holds as delivered now, in the broker's
index of unacknowledged tasks (kombu's ``unacked_index``, a sorted set of
delivery tags scored by delivery time; ``ZADD XX`` only touches tags still
there). Each worker's consumer looks every second for tasks held longer than
the timeout (kombu's ``unacked_restore_interval``) and queues them again: those
of a dead worker, whose lease ran out. At-least-once is unchanged; a worker too
starved to renew for a whole timeout at worst gets a task run twice, which
writes nothing the second time (``workers.jobs``).

This reads two of kombu's Redis transport internals, checked at start: the
channel's ``QoS._delivered`` (the tags this consumer holds) and
``unacked_index_key``. If they are missing the worker logs it and runs without
renewals, as before: set a long ``DRAGONHALL_BROKER_VISIBILITY_TIMEOUT`` then.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import bootsteps

from services.common.config import Settings
from workers import bot_claims
from workers.broker_memory import redis_client

log = logging.getLogger("dragonhall.workers")
RENEW_SHARE = 0.25
"""Leases are renewed four times per visibility timeout: one late renewal loses nothing."""


class LeaseRenewer:
    """A thread that stamps the tasks ``qos`` holds as delivered now, every ``every`` seconds."""

    def __init__(self, client: Any, qos: Any, every: float, on_held: Callable[[list[Any]], None] | None = None) -> None:
        self.client = client
        self.qos = qos
        self.every = every
        self.on_held = on_held
        """Told the messages held at each renewal (``workers.bot_claims`` keeps their claims)."""
        self.renewed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dragonhall-leases", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def renew(self) -> int:
        held = list(self.qos._delivered.items())  # copied in one step under the GIL: the consumer mutates it
        if held:
            now = time.time()
            self.client.zadd(self.qos.unacked_index_key, dict.fromkeys((tag for tag, _ in held), now), xx=True)
            if self.on_held is not None:
                self.on_held([message for _, message in held])
        self.renewed += len(held)
        return len(held)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.renew()
            except Exception as e:  # the broker is away: the consumer reconnects, and so do we
                log.warning("could not renew the leases of this worker's tasks: %s", e)


def lease_step(settings: Settings) -> type[bootsteps.StartStopStep]:
    """The consumer bootstep that renews this worker's leases while it consumes."""

    class RenewLeases(bootsteps.StartStopStep):
        requires = ("celery.worker.consumer.tasks:Tasks",)

        def __init__(self, c: Any, **kwargs: Any) -> None:
            super().__init__(c, **kwargs)
            self.renewer: LeaseRenewer | None = None

        def start(self, c: Any) -> None:
            qos = getattr(getattr(c.task_consumer, "channel", None), "qos", None)
            client = redis_client(settings.broker_url)
            if client is None or not hasattr(qos, "_delivered") or not hasattr(qos, "unacked_index_key"):
                log.warning("this broker offers no leases to renew; a killed worker's tasks wait for its timeout")
                return
            every = max(0.25, RENEW_SHARE * settings.visibility_timeout)
            self.renewer = LeaseRenewer(client, qos, every, lambda held: bot_claims.keep(settings, bot_seats(held)))
            self.renewer.start()

        def stop(self, c: Any) -> None:
            if self.renewer is not None:
                self.renewer.stop()
                self.renewer = None

        shutdown = stop

    return RenewLeases


def bot_seats(messages: list[Any]) -> list[tuple[str, int]]:
    """The (game, seat) of each bot task among ``messages`` (Celery's message protocol 2: the
    task's name in the headers, a body of ``[args, kwargs, embed]``)."""
    seats = []
    for message in messages:
        if (getattr(message, "headers", None) or {}).get("task") != "dragonhall.play_bot":
            continue
        try:
            game_id, seat = message.decode()[0][:2]
        except Exception:  # not a message of ours: nothing to keep
            continue
        seats.append((str(game_id), int(seat)))
    return seats


def transport_options(settings: Settings) -> dict[str, Any]:
    """kombu's Redis options: the lease, and a look for expired leases every second."""
    return {
        "visibility_timeout": settings.visibility_timeout,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        "unacked_mutex_expire": max(5, settings.visibility_timeout),
    }
