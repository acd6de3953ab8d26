"""A small SQL gateway over SQLite or PostgreSQL, for tables that are not event streams.

Player accounts, the rejected-command journal, inboxes and other service tables
live here. Statements are written once with ``?`` placeholders; the PostgreSQL
dialect rewrites them to ``%s``. Rows come back as dicts.
"""

from __future__ import annotations

import fcntl
import hashlib
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, cast

from eventsourcing.persistence import InterfaceError, OperationalError

from infra.private_files import private_database, private_file
from infra.sqlite_events import JOURNAL_SIZE_LIMIT
from services.common.ports import Cursor


class SqlStore(ABC):
    """Connections and transactions for one database."""

    dialect: str
    create_tables: bool
    """False when another process has created the tables (concurrent DDL fails on PostgreSQL)."""

    @abstractmethod
    def tx(self) -> AbstractContextManager[Tx]:
        """A transaction, committed when the block ends without error."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self.tx() as t:
            return t.execute(sql, params)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.tx() as t:
            return t.query(sql, params)

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def read_one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """The first row of one ``SELECT``, read without taking a write lock: for lookups made on
        every request (a bearer token), which must not queue behind each other or behind writers."""
        return self.one(sql, params)

    def script(self, statements: Sequence[str]) -> None:
        """Runs table definitions (``CREATE ... IF NOT EXISTS``), unless tables are made elsewhere."""
        if not self.create_tables:
            return
        with self.tx() as t:
            for s in statements:
                t.execute(s)

    def close(self) -> None:  # noqa: B027 - most stores hold nothing to release
        """Releases connections."""


class Tx:
    """One open transaction: ``execute`` returns the row count, ``query`` dict rows."""

    def __init__(self, cursor: Cursor, dialect: str) -> None:
        self._c = cursor
        self._dialect = dialect

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self._dialect == "postgres" else sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._c.execute(self._sql(sql), tuple(params))
        return int(self._c.rowcount or 0)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        self._c.execute(self._sql(sql), tuple(params))
        return [dict(r) for r in self._c.fetchall()]


class SQLiteStore(SqlStore):
    """A SQLite file (WAL mode, one connection per thread) or a private in-memory database."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, create_tables: bool = True) -> None:
        self.path = str(path)
        self.create_tables = create_tables
        self._memory = self.path == ":memory:"
        self._local = threading.local()
        self._lock = threading.RLock()
        self._shared: sqlite3.Connection | None = None
        if not self._memory:
            private_database(self.path)  # 0600, and so its -wal and -shm

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        if not self._memory:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")  # a restarted log's file is cut back
        return conn

    def _conn(self) -> sqlite3.Connection:
        if self._memory:
            if self._shared is None:
                self._shared = self._connect()
            return self._shared
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def read_one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """One statement in SQLite's autocommit mode: its own read transaction, which in WAL mode
        neither waits for a writer nor makes one wait (``tx`` begins IMMEDIATE, a write lock)."""
        with self._lock if self._memory else _nolock():
            row = self._conn().execute(sql, tuple(params)).fetchone()
        return None if row is None else dict(row)

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        with self._lock if self._memory else _nolock():
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(conn.cursor(), self.dialect)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")


class PostgresStore(SqlStore):
    """A PostgreSQL database through a psycopg connection pool, in an optional schema."""

    dialect = "postgres"

    def __init__(
        self,
        conninfo: str,
        schema: str | None = None,
        max_size: int = 8,
        create_tables: bool = True,
        pooled: bool = False,
    ) -> None:
        """``pooled``: the connections go through a transaction pooler (PgBouncer), which refuses
        a ``search_path`` given at connection and shares server connections between transactions;
        each transaction then sets its ``search_path`` itself, and no statement is prepared."""
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        self.schema = schema
        self.create_tables = create_tables
        kwargs: dict[str, Any] = {"row_factory": dict_row, "autocommit": True}
        self._set_path: bytes | None = None
        if pooled:
            kwargs["prepare_threshold"] = None
            if schema:
                self._set_path = f'SET LOCAL search_path TO "{schema}"'.encode()
        elif schema:
            kwargs["options"] = f"-c search_path={schema}"
        self._pool = ConnectionPool(conninfo, min_size=1, max_size=max_size, kwargs=kwargs, open=True)
        if schema and create_tables:
            with self._pool.connection() as conn:
                conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')

    def read_one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """One statement in autocommit: one round trip, where ``tx`` takes three (``BEGIN``, the
        statement, ``COMMIT``). A bearer token is read so on every request, and the two extra round
        trips cost a move on PostgreSQL about 0.2 ms of the HTTP process's CPU
        (``bench/request_cost.py --store postgres``). Behind a transaction pooler the statement
        needs its ``SET LOCAL search_path``, so it runs in ``tx``."""
        if self._set_path is not None:
            return self.one(sql, params)
        import psycopg

        try:
            with self._pool.connection() as conn:
                row = conn.execute(sql.replace("?", "%s"), tuple(params)).fetchone()
                return cast("dict[str, Any] | None", row)  # the pool's row factory is dict_row
        except psycopg.OperationalError as e:
            raise OperationalError(str(e)) from e
        except psycopg.InterfaceError as e:
            raise InterfaceError(str(e)) from e

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        """A transaction. A lost or refused connection raises eventsourcing's ``OperationalError``
        (or ``InterfaceError``), as the event store does, so callers meet one kind of
        "try again later" whichever table they touch."""
        import psycopg

        try:
            with self._pool.connection() as conn, conn.transaction():
                cursor = conn.cursor()
                if self._set_path is not None:
                    cursor.execute(self._set_path)
                yield Tx(cursor, self.dialect)
        except psycopg.OperationalError as e:
            raise OperationalError(str(e)) from e
        except psycopg.InterfaceError as e:
            raise InterfaceError(str(e)) from e

    def close(self) -> None:
        self._pool.close()


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``path`` (made if missing) while the block runs.

    eventsourcing creates a SQLite tracking table by looking for it first and then
    recording its schema version: two processes starting at once both find it
    missing, and the second fails to record the version. Closing the file releases
    the lock, even if this process dies meanwhile."""
    with open(private_file(path), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


@contextmanager
def postgres_ddl_lock(conninfo: str, schema: str | None) -> Iterator[None]:
    """Holds a PostgreSQL advisory lock, one per schema, while this process creates its tables.

    The server, its workers and the projection process may start at once, and each
    runs ``CREATE ... IF NOT EXISTS`` and ``CREATE OR REPLACE FUNCTION``. PostgreSQL
    does not serialise those: two sessions creating one table both find it missing,
    and one fails on a duplicate key; two replacing one function fail with "tuple
    concurrently updated". The lock is held by a connection of its own, and closing
    that connection releases it, even if this process dies meanwhile.
    """
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (advisory_key(f"dragonhall-tables:{schema or ''}"),))
        yield


def advisory_key(name: str) -> int:
    """The signed 64-bit PostgreSQL advisory lock key that stands for ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def _nolock() -> Iterator[None]:
    yield
