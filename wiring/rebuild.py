"""Rebuilding the read models from the events, safely beside a running deployment.

The first ``rebuild-projections`` emptied the read models and let a runner refill
them. Run against a live server, the leader's runner went on from its own
position over empty tables: the game list stayed empty and ``/healthz`` showed
the whole store as lag until a restart. So a rebuild now:

1. takes the projections' leader lock (``projections.leader_locks``), and refuses,
   naming the holder, while another process leads: two runners never write the
   read models at once;
2. builds the read models afresh beside the live ones (a SQLite file of its own
   in the data directory, a PostgreSQL schema of its own), from the first event to
   the store's head, while the live ones stay as they were;
3. swaps them in with one transaction: readers see the old read models or the new
   ones, never empty ones, and the new position is at or past the old one;
4. releases the lock, and the processes standing by take the lead within
   ``projections.leader.RETRY`` seconds and go on from the new position.

With ``only``, it builds and swaps in those read models alone (their tables and
their tracking positions, ``projections.views.READ_MODEL_TABLES``): the others stay
as they are, each at its own position (``projections.tracked``).

Killed at any point, it leaves the live read models untouched (the swap commits
or not) and its lock goes with it. While it holds the lock the live read models
do not advance; a game's own document then falls back to the write model.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from projections.views import READ_MODEL_TABLES, VIEWS, tracking_name
from projections.views import READ_MODELS as READ_MODELS  # re-exported: the command names them
from services.common.config import Settings
from services.common.ports import NullWork
from wiring.platform import bootstrap, leader_lock, start_runner
from wiring.stores import eventsourcing_env, views_class

Progress = Callable[[int, int], None]
"""Told ``(events rebuilt, events to rebuild)`` as the rebuild advances."""


class ProjectionsLed(Exception):
    """Another process runs the projections: the rebuild would race it."""

    def __init__(self, holder: str) -> None:
        super().__init__(f"the projections are run by {holder}")
        self.holder = holder


@dataclass(frozen=True)
class Rebuilt:
    events: int
    games: int
    seconds: float


def rebuild_projections(
    settings: Settings, progress: Progress | None = None, only: Sequence[str] = READ_MODELS
) -> Rebuilt:
    """Rebuilds the read models ``only`` (every one by default: ``views.READ_MODELS``) beside the
    live ones and swaps them in, leaving the others as they are; raises ``ProjectionsLed``
    (having changed nothing) while another process leads."""
    unknown = set(only) - set(READ_MODELS)
    if unknown:
        raise ValueError(f"no read model named {', '.join(sorted(unknown))}: they are {', '.join(READ_MODELS)}")
    settings = settings.direct()  # it listens and locks: sessions of its own, never through a pooler
    lock = leader_lock(settings)
    if not lock.take():
        raise ProjectionsLed(lock.holder())
    started = time.perf_counter()
    try:
        platform = bootstrap(settings, projections=False, work=NullWork())
        try:
            with _shadow(settings, only) as (env, swap):
                head = _build(platform, env, only, progress or (lambda done, total: None))
                swap()
            games = len(platform.views.all_game_ids())
        finally:
            platform.close()
    finally:
        lock.release()
    return Rebuilt(head, games, time.perf_counter() - started)


def _build(platform: Any, env: dict[str, str], only: Sequence[str], progress: Progress) -> int:
    """Runs a projection runner into the new read models until they hold every event
    saved by the time it catches up; returns the last event's position."""
    runner = start_runner(env, views_class(platform.settings), platform.feed, only)
    try:
        done, head = 0, -1
        while True:  # until a catch-up finds no newer event
            newest = platform.store.recorder.max_notification_id() or 0
            if newest == head:
                break
            head = newest
            while done < head:
                with contextlib.suppress(TimeoutError):
                    runner.wait(head, timeout=0.25)
                done = min(runner.view.max_tracking_id(p.tracking_name) or 0 for p in runner.projections)
                progress(done, head)
        progress(head, head)
        runner.flush()  # the boards still held in memory
    finally:
        runner.__exit__(None, None, None)
    return head


@contextlib.contextmanager
def _shadow(settings: Settings, only: Sequence[str]) -> Iterator[tuple[dict[str, str], Callable[[], None]]]:
    """The environment of read models built beside the live ones, and the swap that puts
    the tables and positions of ``only`` in place; what was built is removed afterwards,
    swapped or not."""
    tables = tuple(table for model in only for table in READ_MODEL_TABLES[model])
    names = tuple(tracking_name(model) for model in only)
    if settings.store == "sqlite":
        with _sqlite_shadow(settings, tables, names) as made:
            yield made
    elif settings.store == "postgres":
        with _postgres_shadow(settings, tables, names) as made:
            yield made
    else:
        raise ValueError("the in-memory store has no read models to rebuild: they live and die with its process")


def _views_env(settings: Settings, **views: str) -> dict[str, str]:
    """The store's environment, with the read models' settings replaced by ``views``."""
    prefix = f"{VIEWS.upper()}_"  # eventsourcing's prefix for the read models (``projections.views.VIEWS``)
    prefixed = {prefix + key: value for key, value in {**views, "CREATE_TABLE": "y"}.items()}
    return {**eventsourcing_env(settings), **prefixed}


@contextlib.contextmanager
def _sqlite_shadow(
    settings: Settings, tables: Sequence[str], names: Sequence[str]
) -> Iterator[tuple[dict[str, str], Callable[[], None]]]:
    live, built = settings.data_dir / "views.db", settings.data_dir / "views.rebuild.db"
    _remove_sqlite(built)  # left by a rebuild that was killed
    env = _views_env(settings, SQLITE_DBNAME=str(built))

    def swap() -> None:
        conn = sqlite3.connect(live, isolation_level=None, timeout=60)
        try:
            conn.execute("ATTACH DATABASE ? AS built", (str(built),))
            conn.execute("BEGIN IMMEDIATE")
            for table in tables:
                _copy(conn, f"built.{table}", f"main.{table}")
            _copy(conn, "built.tracking", "main.tracking", names)
            conn.execute("COMMIT")
            conn.execute("DETACH DATABASE built")
        finally:
            conn.close()

    try:
        yield env, swap
    finally:
        _remove_sqlite(built)


def _remove_sqlite(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


@contextlib.contextmanager
def _postgres_shadow(
    settings: Settings, tables: Sequence[str], names: Sequence[str]
) -> Iterator[tuple[dict[str, str], Callable[[], None]]]:
    import psycopg

    schema = settings.postgres_schema or "public"
    built = f"{schema}_rebuild"[:63]
    url = settings.database_url or ""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{built}" CASCADE')  # left by a rebuild that was killed
        conn.execute(f'CREATE SCHEMA "{built}"')
    env = _views_env(settings, POSTGRES_SCHEMA=built)

    def swap() -> None:
        with psycopg.connect(url) as conn, conn.transaction():
            for table in tables:
                _copy(conn, f'"{built}"."{table}"', f'"{schema}"."{table}"')
            tracking = f"{VIEWS}_tracking"
            _copy(conn, f'"{built}"."{tracking}"', f'"{schema}"."{tracking}"', names)

    try:
        yield env, swap
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{built}" CASCADE')


def _copy(conn: Any, source: str, target: str, names: Sequence[str] = ()) -> None:
    """Replaces ``target``'s rows by ``source``'s, inside the caller's transaction. Of a tracking
    table only the positions ``names`` are replaced (of the read models rebuilt: the table
    holds the others' too)."""
    cur = conn.execute(f"SELECT * FROM {source} LIMIT 0")
    columns = ", ".join(f'"{d[0]}"' for d in cur.description)
    mark = "%s" if not isinstance(conn, sqlite3.Connection) else "?"
    where, params = "", tuple(names)
    if names:
        where = f" WHERE application_name IN ({', '.join(mark for _ in names)})"
    conn.execute(f"DELETE FROM {target}{where}", params)
    conn.execute(f"INSERT INTO {target} ({columns}) SELECT {columns} FROM {source}{where}", params)
