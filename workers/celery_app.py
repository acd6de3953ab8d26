"""The Celery application, configured from the settings.

Queues: ``bots`` (bot turns), ``timers`` (deadlines, scheduled starts, the
sweep) and ``notifications`` (webhooks). With no broker URL (the embedded
default) nothing is sent through Celery: ``workers.local`` runs the same jobs on
threads of the server process.
"""

from __future__ import annotations

from collections.abc import Callable

from celery import Celery
from kombu import Queue

from services.common.config import Settings
from services.deadlines.timers import Action
from workers.heartbeat import heartbeat_step
from workers.leases import lease_step, transport_options
from workers.platform import JobPlatform

QUEUES = ("bots", "timers", "notifications")


def queue(settings: Settings, name: str) -> str:
    """A queue's name; ``DRAGONHALL_QUEUE_PREFIX`` lets deployments share one broker."""
    return settings.queue_prefix + name


def make_celery(
    settings: Settings, platform: Callable[[], JobPlatform], send: Callable[[list[Action]], None]
) -> Celery:
    """A Celery app whose tasks act on ``platform()`` and send follow-ups with ``send``."""
    app = Celery("dragonhall", broker=settings.broker_url or "memory://localhost/", set_as_current=False)
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=4,
        worker_hijack_root_logger=False,
        broker_connection_retry_on_startup=True,
        broker_transport_options=transport_options(settings),
        task_queues=[Queue(queue(settings, q)) for q in QUEUES],
        task_default_queue=queue(settings, "bots"),
        enable_utc=True,
        timezone="UTC",
        beat_schedule={
            "sweep-deadlines": {
                "task": "dragonhall.sweep",
                "schedule": settings.sweep_interval,
                "options": {"queue": queue(settings, "timers")},
            },
            "nudge-bots": {
                "task": "dragonhall.nudge_bots",
                "schedule": 1.0,
                "options": {"queue": queue(settings, "timers"), "expires": 5},
            },
        },
    )
    from workers.tasks import register_tasks

    register_tasks(app, platform, send)
    if not settings.embedded:
        app.steps["consumer"].add(heartbeat_step(platform))  # the health model's workers check
    if settings.broker_url and settings.broker_url.startswith(("redis://", "rediss://")):
        app.steps["consumer"].add(lease_step(settings))  # a killed worker's tasks go on within seconds
    return app
