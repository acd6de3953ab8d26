"""Choosing how stream wake-ups reach the other processes of a deployment (``services.streams.wakeups``)."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path

from infra import sqlite_events
from infra.wake_transports import PostgresBroadcast, RedisBroadcast, UnixBroadcast
from services.common.config import Settings
from services.streams.wakeups import Broadcast, NoBroadcast


def wake_broadcast(settings: Settings, deliver: Callable[[str], None]) -> Broadcast:
    """Redis pub/sub when a Redis broker is configured; PostgreSQL ``LISTEN/NOTIFY`` on PostgreSQL
    without one; Unix datagrams between the processes of one SQLite store; nothing in memory."""
    broker = settings.broker_url or ""
    if broker.startswith(("redis://", "rediss://")):
        return RedisBroadcast(broker, deliver, channel=f"dragonhall:wake:{_deployment(settings)}")
    if settings.store == "postgres":
        return PostgresBroadcast(settings.session_url, deliver, settings.postgres_schema)
    if settings.store == "sqlite":
        return UnixBroadcast(wake_dir(settings.data_dir), _also_waking_projections(deliver), sqlite_events.polling)
    return NoBroadcast()


def wake_dir(data_dir: Path) -> Path:
    """The sockets' directory of a SQLite store. It is outside the data directory because a
    socket's path is limited to 107 bytes; its name derives from the data directory's."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"dragonhall-wake-{digest}"


def _deployment(settings: Settings) -> str:
    """A name for the deployment, so two sharing a Redis do not wake each other's streams."""
    where = settings.postgres_schema or settings.database_url or str(settings.data_dir.resolve())
    return hashlib.sha256(where.encode()).hexdigest()[:16]


def _also_waking_projections(deliver: Callable[[str], None]) -> Callable[[str], None]:
    """A move saved by another process also wakes this process's projection runner, which
    otherwise polls SQLite (``sqlite_events.POLL_INTERVAL``)."""

    def both(key: str) -> None:
        deliver(key)
        if key.startswith("game:"):
            sqlite_events.wake()

    return both
