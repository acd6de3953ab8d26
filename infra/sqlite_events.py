"""The SQLite event store as Dragonhall uses it: tuned, and able to be followed.

* ``TunedSQLiteFactory`` sets ``PRAGMA synchronous`` on every connection
  (``NORMAL`` by default: in WAL mode a commit is written to the log before the
  call returns, so an acknowledged move survives a crash of the server; only a
  power loss can take the last commits. Set ``SQLITE_SYNCHRONOUS=FULL`` to fsync
  every commit).
* It checkpoints the write-ahead log in a background thread (``WalCheckpointer``),
  not in the save that happens to cross SQLite's threshold of 1,000 pages. That
  save used to copy the log into the database and fsync it, while holding the
  writers' lock, and with one Python thread per HTTP process every request queued
  behind it waited too. Measured at 32 games in flight, over ten interleaved pairs
  of runs: more moves/s in eight (about 5%), and a p99 3-10 ms lower in eight.
  ``SQLITE_CHECKPOINT_INTERVAL`` sets the seconds between two; unset or 0 keeps
  SQLite's own checkpoints (the read models' store, written off the request path).
  The checkpointer also keeps the log's file bounded (``WAL_LIMIT``), which
  SQLite's own checkpoints do not under steady load; ``journal_size_limit`` trims
  the file whenever the log restarts.
* ``SQLiteApplicationRecorder.subscribe()`` is not implemented in eventsourcing
  9.5, so ``ProjectionRunner`` cannot follow a SQLite application out of the box.
  ``PollingSQLiteApplicationRecorder`` adds a subscription that pulls new
  notifications every ``POLL_INTERVAL`` seconds, and at once when a writer in the
  same process calls ``wake()`` after a save (or another process's save is announced:
  ``ARMING`` says when the process wants those).
* Writers take turns: a process mutex, then an ``flock`` shared by every process
  that writes the file. Events are saved by ``EventWriter``, on a connection kept
  for that, in one ``executemany``; other writes (snapshots, tracking records) go
  through eventsourcing's pool under the same lock.

Select both with ``PERSISTENCE_MODULE=infra.sqlite_events:TunedSQLiteFactory``.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    InternalError,
    ListenNotifySubscription,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
    StoredEvent,
    Subscription,
)
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteFactory
from eventsourcing.utils import Environment

from infra.batched_pull import BatchedPull
from infra.private_files import private_database, private_file
from infra.wake_arming import Arming

POLL_INTERVAL = 0.2
WAL_LIMIT = 16 << 20
"""Bytes of write-ahead log past which the checkpointer truncates it (``WalCheckpointer``)."""
JOURNAL_SIZE_LIMIT = 4 << 20
"""Bytes a restarted log's file is cut back to (``PRAGMA journal_size_limit``): SQLite otherwise
keeps the file at its largest and writes the new log over it."""
COALESCE = 0.005
"""After a wake-up, wait this long for more saves, so one pull serves many (fewer queries under load)."""
FACTORY_TOPIC = "infra.sqlite_events:TunedSQLiteFactory"

log = logging.getLogger("dragonhall.sqlite")

_listeners: set[threading.Event] = set()
_listeners_lock = threading.Lock()


ARMING = Arming()
"""This process's polling subscriptions (``PollingSubscription``): whether one waits for a wake-up."""


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
        ARMING.arm(self, True)

    def _gathering(self, gathering: bool) -> None:
        ARMING.arm(self, not gathering)

    def stop(self) -> None:
        super().stop()
        ARMING.retire(self)
        with _listeners_lock:
            _listeners.discard(self._has_been_notified)


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """The SQLite application recorder, with a polling subscription.

    It saves events through the datastore's ``EventWriter`` where the factory gave it
    one (a file, not an in-memory database), in one ``executemany``, as eventsourcing's
    aggregate recorder does, not one ``execute`` each to read back their notification
    ids: nothing here uses the ids a save returns (the read models follow the table),
    and a move saves four or five events."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        writer: EventWriter | None = getattr(self.datastore, "event_writer", None)
        if writer is None or any(v is not None for v in kwargs.values()):  # a tracking record, say
            super().insert_events(stored_events, **kwargs)
        else:
            writer.insert(self.insert_events_statement, _rows(stored_events))

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **_: Any) -> None:
        c.executemany(self.insert_events_statement, _rows(stored_events))

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return PollingSubscription(self, gt=gt, topics=topics)


def _rows(stored_events: Sequence[StoredEvent]) -> list[tuple[Any, ...]]:
    return [
        (
            s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id,
            s.originator_version,
            s.topic,
            s.state,
        )
        for s in stored_events
    ]


class EventWriter:
    """The connection one process saves its events with, kept for that alone.

    Through eventsourcing's pool, a save checks a connection out and back in, and
    wraps its cursor twice: measured on three events, 42.6 µs of CPU against 26.6 µs
    on a connection kept for the purpose. It writes under the writers' lock, as every
    other write does, and SQLite's errors become eventsourcing's (a version conflict is
    still an ``IntegrityError``)."""

    def __init__(
        self, connect: Callable[[], sqlite3.Connection], exclusive: Callable[[], AbstractContextManager[None]]
    ) -> None:
        self._connect = connect
        self._exclusive = exclusive
        self._conn: sqlite3.Connection | None = None

    def insert(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        with self._exclusive():
            if self._conn is None:
                self._conn = self._connect()
            _commit_rows(self._conn, statement, rows)

    def close(self) -> None:
        if self._conn is None:  # closed already (the application closes again when it is collected)
            return
        with self._exclusive():
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _commit_rows(conn: sqlite3.Connection, statement: str, rows: list[tuple[Any, ...]]) -> None:
    try:
        conn.execute("BEGIN")
        try:
            conn.executemany(statement, rows)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.Error as e:
        raise next((theirs(e) for ours, theirs in _ERRORS if isinstance(e, ours)), PersistenceError(e)) from e


_ERRORS: tuple[tuple[type[sqlite3.Error], type[PersistenceError]], ...] = (
    (sqlite3.InterfaceError, InterfaceError),
    (sqlite3.DataError, DataError),
    (sqlite3.OperationalError, OperationalError),
    (sqlite3.IntegrityError, IntegrityError),
    (sqlite3.InternalError, InternalError),
    (sqlite3.ProgrammingError, ProgrammingError),
    (sqlite3.NotSupportedError, NotSupportedError),
    (sqlite3.DatabaseError, DatabaseError),
)
"""SQLite's errors and eventsourcing's, in the order eventsourcing's own transaction maps them."""


class TunedSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite factory with per-connection pragmas and the polling recorder."""

    application_recorder_class = PollingSQLiteApplicationRecorder

    def __init__(self, env: Environment | Mapping[str, str]) -> None:
        env = env if isinstance(env, Environment) else Environment(env=env)
        private_database(env.get(self.SQLITE_DBNAME))  # 0600 before SQLite makes it 0644 (infra.private_files)
        super().__init__(env)
        synchronous = (self.env.get("SQLITE_SYNCHRONOUS") or "NORMAL").upper()
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        pool = self.datastore.pool
        create = pool._create_connection
        interval = float(self.env.get("SQLITE_CHECKPOINT_INTERVAL") or 0)
        checkpoints = not pool.is_sqlite_memory_mode and interval > 0

        def tuned() -> SQLiteConnection:
            conn = create()
            raw = conn._sqlite_conn
            raw.execute(f"PRAGMA synchronous={synchronous}")
            raw.execute("PRAGMA temp_store=MEMORY")
            raw.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
            if checkpoints:
                raw.execute("PRAGMA wal_autocheckpoint=0")
            return conn

        pool._create_connection = tuned  # type: ignore[method-assign]
        exclusive = self._serialise_writers_across_processes()
        self.checkpointer = WalCheckpointer(pool.db_name, interval, exclusive) if checkpoints else None

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        writer = getattr(self.datastore, "event_writer", None)
        if writer is not None:
            writer.close()
        super().close()

    def _serialise_writers_across_processes(self) -> Callable[[], AbstractContextManager[None]] | None:
        """Takes an ``flock`` around every write transaction, and gives the datastore the
        ``EventWriter`` that saves events under the same lock; returns that lock (None in memory).

        Several server processes may write one SQLite file. SQLite alone makes a
        writer that finds the file locked sleep and retry (1, 2, 5, 10... ms), which
        ruins latency under load; a blocking ``flock`` wakes the next writer the
        moment the last one commits. An ``flock`` belongs to the open file, which the
        threads of a process share, so they take turns on a mutex first: a snapshot
        (through eventsourcing's pool) and a save (through the event writer) never
        hold it at once.
        """
        pool = self.datastore.pool
        if pool.is_sqlite_memory_mode:
            return None
        exclusive = _writers_lock(f"{pool.db_name}.writers")
        transaction = self.datastore.transaction

        @contextmanager
        def locked(*, commit: bool) -> Iterator[Any]:
            if not commit:
                with transaction(commit=False) as cursor:
                    yield cursor
                return
            with exclusive(), transaction(commit=True) as cursor:
                yield cursor

        self.datastore.transaction = locked  # type: ignore[method-assign]
        self.datastore.event_writer = EventWriter(  # type: ignore[attr-defined]
            lambda: pool._create_connection()._sqlite_conn, exclusive
        )
        return exclusive


def _writers_lock(path: str) -> Callable[[], AbstractContextManager[None]]:
    """The lock that one writer at a time holds, across the threads of this process and
    across the processes that write the file (an ``flock`` on ``path``)."""
    handle = open(private_file(Path(path)), "a")  # noqa: SIM115 - one descriptor for the process's life
    mutex = threading.Lock()

    @contextmanager
    def exclusive() -> Iterator[None]:
        with mutex:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    return exclusive


class WalCheckpointer:
    """Checkpoints a SQLite file's write-ahead log every ``interval`` seconds, in a thread, and
    keeps the log's file under about ``limit`` bytes whatever the load.

    A ``PASSIVE`` checkpoint copies the log into the database as far as no reader
    still needs it, and waits for no one: writers and readers go on meanwhile. The log
    restarts from its start only when a writer finds all of it copied and no reader in
    it; under steady load the next save always comes first, and the file grew without
    end (2 GB in four minutes at 670 moves/s beside a 216 MB database, and it stayed
    that size). So when the file passes ``limit``, or when a round finds the log idle
    (all copied, nothing written since the last round) and not empty, a ``TRUNCATE``
    checkpoint runs instead, under the writers' lock (``exclusive``): no writer of this
    store starts meanwhile, SQLite waits at most ``READERS_WAIT`` seconds for the readers
    of older snapshots (a read is a statement or two), and the file is cut to nothing.
    If a reader is still there, the next round tries again. Every process that writes
    the file runs one; the writers' lock takes them in turn.
    """

    READERS_WAIT = 0.05

    def __init__(
        self,
        db_name: str,
        interval: float,
        exclusive: Callable[[], AbstractContextManager[None]] | None = None,
        limit: int = WAL_LIMIT,
    ) -> None:
        self.db_name = db_name
        self.interval = interval
        self.limit = limit
        self._exclusive = exclusive or nullcontext
        self._last: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dragonhall-checkpoint", daemon=True)
        self._thread.start()

    def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int]:
        """One checkpoint: (busy, frames in the log, frames copied), as SQLite reports them."""
        uri = Path(self.db_name).resolve().as_uri() + "?mode=rw"  # never create a file that is gone
        wait = 5.0 if mode == "PASSIVE" else self.READERS_WAIT
        conn = sqlite3.connect(uri, uri=True, timeout=wait, isolation_level=None)
        try:
            row = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        finally:
            conn.close()
        return int(row[0]), int(row[1]), int(row[2])

    def truncate(self) -> tuple[int, int, int]:
        """A ``TRUNCATE`` checkpoint under the writers' lock: the log copied and its file cut to
        nothing, unless a reader held on longer than ``READERS_WAIT`` (busy is then 1)."""
        with self._exclusive():
            return self.checkpoint("TRUNCATE")

    def wal_bytes(self) -> int:
        try:
            return os.stat(self.db_name + "-wal").st_size
        except FileNotFoundError:
            return 0

    def round(self) -> tuple[int, int, int]:
        """One round of the thread: a passive checkpoint, or a truncation when the log's file is
        past ``limit`` or idle and not empty."""
        size = self.wal_bytes()
        if size > self.limit:
            return self.truncate()
        found = self.checkpoint()
        busy, frames, copied = found
        idle = not busy and frames == copied and self._last == (frames, copied)
        self._last = (frames, copied)
        if idle and frames:
            return self.truncate()
        return found

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if not Path(self.db_name).exists():
                return  # removed (a test's temporary store): nothing left to checkpoint
            try:
                self.round()
            except sqlite3.Error as e:  # locked for longer than the timeout: the next round tries again
                log.warning("checkpoint of %s failed: %s", self.db_name, e)
