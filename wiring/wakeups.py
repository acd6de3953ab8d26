"""Choosing how stream wake-ups reach the other processes of a deployment (``services.streams.wakeups``)."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from infra import sqlite_events
from infra.postgres_events import OneTripPostgresApplicationRecorder
from infra.postgres_wakeups import PostgresBroadcast
from infra.wake_transports import RedisBroadcast, UnixBroadcast
from services.common.config import Settings
from services.streams.wakeups import Broadcast, NoBroadcast, Wakeups, game_key


def wake_broadcast(settings: Settings, deliver: Callable[[str], None]) -> Broadcast:
    """Redis pub/sub when a Redis broker is configured; PostgreSQL ``LISTEN/NOTIFY`` on PostgreSQL
    without one; Unix datagrams between the processes of one SQLite store; nothing in memory."""
    broker = settings.broker_url or ""
    if broker.startswith(("redis://", "rediss://")):
        return RedisBroadcast(broker, deliver, channel=f"dragonhall:wake:{_deployment(settings)}")
    if settings.store == "postgres":
        return PostgresBroadcast(settings.session_url, deliver, settings.postgres_schema)
    if settings.store == "sqlite":
        return UnixBroadcast(wake_dir(settings.data_dir), _also_waking_projections(deliver), sqlite_events.ARMING)
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


def save_announcer(recorder: Any, wakeups: Wakeups) -> Callable[[str], None]:
    """What wakes a saved game's streams in every process. On PostgreSQL without Redis, the save's
    own call sends the wake-up to the other processes (``infra.postgres_events``), so this wakes
    this process's streams alone: a round trip a move fewer than a ``pg_notify`` of its own.
    Where the save cannot carry it (a store whose save function is older), it is sent apart."""
    broadcast = wakeups.broadcast
    if not (isinstance(recorder, OneTripPostgresApplicationRecorder) and isinstance(broadcast, PostgresBroadcast)):
        return lambda game_id: wakeups.publish(game_key(game_id))
    origin = broadcast.origin

    def wake(events: Sequence[Any]) -> tuple[str, str]:
        key = game_key(str(events[0].originator_id))
        return broadcast.channel_of(key), f"{origin}|{key}"

    recorder.wake = wake

    def announce(game_id: str) -> None:
        key = game_key(game_id)
        if recorder.carries_wakes:
            wakeups.deliver(key)
        else:
            wakeups.publish(key)

    return announce
