"""Whether the broker has lost its queues: a marker key that the sweep leaves in Redis.

Redis holds Celery's queues in memory. One restarted without persistence comes
back empty, and the tasks it held (bot turns, near deadlines, webhooks) are gone
without a trace. The sweep would find them again, but a deadline only once it is
overdue, and a bot turn only once it has stalled for ``services.deadlines.timers.BOT_STALL``
(30 s). So after each sweep the marker is set; a sweep that finds it missing knows
the broker lost its data (or that this is the deployment's first sweep) and sends
everything a lost task could have carried (``Timers.sweep(tasks_lost=True)``).
Where Redis persists its data, the marker survives with the queues and nothing is
sent twice. The sweep runs under its lease, so one process at a time checks it.
Without a Redis broker (the embedded default) no task is ever lost this way.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import TYPE_CHECKING

from services.common.config import Settings

if TYPE_CHECKING:
    import redis

log = logging.getLogger("dragonhall.workers")
MARKER = "dragonhall:broker-memory"


def forgotten(settings: Settings) -> bool:
    """Whether the broker has lost its data since the last sweep marked it."""
    client = redis_client(settings.broker_url)
    if client is None:
        return False
    try:
        return not client.exists(_key(settings))
    except Exception as e:  # an unreachable broker: its tasks could not have been sent either
        log.warning("could not read the broker's marker: %s", e)
        return False


def remember(settings: Settings) -> None:
    """Marks the broker as holding every task sent so far."""
    client = redis_client(settings.broker_url)
    if client is None:
        return
    try:
        client.set(_key(settings), "1")
    except Exception as e:
        log.warning("could not set the broker's marker: %s", e)


def _key(settings: Settings) -> str:
    return settings.queue_prefix + MARKER  # deployments that share a broker keep their own


@cache
def redis_client(broker_url: str | None) -> redis.Redis | None:
    if not broker_url or not broker_url.startswith(("redis://", "rediss://")):
        return None
    import redis

    return redis.Redis.from_url(broker_url, socket_timeout=5, socket_connect_timeout=5)
