"""A small Celery app on the real Redis with Dragonhall's leases, for the tests of ``workers.leases``.

``python -m tests.support.lease_app BROKER PREFIX`` runs a worker of it in a process
of its own, which a test may SIGKILL. Each task run is appended to the Redis list
``PREFIX + "runs"``; ``hold`` blocks until the key ``PREFIX + "release"`` exists.
"""

from __future__ import annotations

import sys
import time

import redis
from celery import Celery
from kombu import Queue

from services.common.config import Settings
from workers.leases import lease_step, transport_options

VISIBILITY = 2
"""The lease in these tests: short, so that a dead worker's tasks come back fast."""


def make_app(broker: str, prefix: str) -> Celery:
    settings = Settings(broker_url=broker, queue_prefix=prefix, visibility_timeout=VISIBILITY)
    app = Celery("lease-test", broker=broker, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        broker_transport_options=transport_options(settings),
        task_queues=[Queue(prefix + "q")],
        task_default_queue=prefix + "q",
    )
    app.steps["consumer"].add(lease_step(settings))
    client = redis.Redis.from_url(broker)

    @app.task(name="lease_test.record", shared=False)
    def record(label: str) -> None:
        client.rpush(prefix + "runs", label)

    @app.task(name="lease_test.hold", shared=False)
    def hold(label: str) -> None:
        client.rpush(prefix + "runs", f"{label}:started")
        while not client.exists(prefix + "release"):
            time.sleep(0.05)
        client.rpush(prefix + "runs", f"{label}:done")

    return app


if __name__ == "__main__":
    broker, prefix = sys.argv[1], sys.argv[2]
    make_app(broker, prefix).worker_main(
        ["worker", "--pool", "threads", "-c", "2", "-l", "WARNING", "--without-gossip", "--without-mingle"]
    )
