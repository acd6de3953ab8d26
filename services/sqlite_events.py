"""The SQLite event store as Dragonhall uses it: tuned, and able to be followed.

* ``TunedSQLiteFactory`` sets ``PRAGMA synchronous`` on every connection
  (``NORMAL`` by default: in WAL mode a commit is written to the log before the
  call returns, so an acknowledged move survives a crash of the server; only a
  power loss can take the last commits. Set ``SQLITE_SYNCHRONOUS=FULL`` to fsync
  every commit).
* ``SQLiteApplicationRecorder.subscribe()`` is not implemented in eventsourcing
  9.5, so ``ProjectionRunner`` cannot follow a SQLite application out of the box.
  ``PollingSQLiteApplicationRecorder`` adds a subscription that pulls new
  notifications every ``POLL_INTERVAL`` seconds, and at once when a writer in the
  same process calls ``wake()`` after a save.

Select both with ``PERSISTENCE_MODULE=services.sqlite_events:TunedSQLiteFactory``.
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import ListenNotifySubscription, Subscription
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteFactory

from services.batched_pull import BatchedPull

POLL_INTERVAL = 0.2
COALESCE = 0.005
"""After a wake-up, wait this long for more saves, so one pull serves many (fewer queries under load)."""
FACTORY_TOPIC = "services.sqlite_events:TunedSQLiteFactory"

_listeners: set[threading.Event] = set()
_listeners_lock = threading.Lock()


def wake() -> None:
    """Tells every polling subscription in this process that new events were saved."""
    with _listeners_lock:
        for flag in _listeners:
            flag.set()


class PollingSubscription(BatchedPull, ListenNotifySubscription[Any]):
    """Pulls notifications on a timer, or at once when woken."""

    WAKE_TIMEOUT = POLL_INTERVAL
    GATHER = COALESCE

    def __init__(self, recorder: Any, gt: int | None = None, topics: Sequence[str] = ()) -> None:
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        with _listeners_lock:
            _listeners.add(self._has_been_notified)

    def stop(self) -> None:
        super().stop()
        with _listeners_lock:
            _listeners.discard(self._has_been_notified)


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """The SQLite application recorder, with a polling subscription."""

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return PollingSubscription(self, gt=gt, topics=topics)


class TunedSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite factory with per-connection pragmas and the polling recorder."""

    application_recorder_class = PollingSQLiteApplicationRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        synchronous = (self.env.get("SQLITE_SYNCHRONOUS") or "NORMAL").upper()
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        pool = self.datastore.pool
        create = pool._create_connection

        def tuned() -> SQLiteConnection:
            conn = create()
            raw = conn._sqlite_conn
            raw.execute(f"PRAGMA synchronous={synchronous}")
            raw.execute("PRAGMA temp_store=MEMORY")
            return conn

        pool._create_connection = tuned  # type: ignore[method-assign]
        self._serialise_writers_across_processes()

    def _serialise_writers_across_processes(self) -> None:
        """Takes an ``flock`` around every write transaction.

        Several server processes may write one SQLite file. SQLite alone makes a
        writer that finds the file locked sleep and retry (1, 2, 5, 10... ms), which
        ruins latency under load; a blocking ``flock`` wakes the next writer the
        moment the last one commits. Within a process, eventsourcing's pool already
        lets one writer through at a time.
        """
        db_name = self.datastore.pool.db_name
        if self.datastore.pool.is_sqlite_memory_mode:
            return
        lock = open(f"{db_name}.writers", "a")  # noqa: SIM115 - one descriptor for the process's life
        transaction = self.datastore.transaction

        @contextmanager
        def locked(*, commit: bool) -> Iterator[Any]:
            if not commit:
                with transaction(commit=False) as cursor:
                    yield cursor
                return
            fcntl.flock(lock, fcntl.LOCK_EX)  # threads of this process already queue in the pool
            try:
                with transaction(commit=True) as cursor:
                    yield cursor
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

        self.datastore.transaction = locked  # type: ignore[method-assign]
