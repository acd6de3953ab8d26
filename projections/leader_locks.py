"""The locks that elect the projections' leader: a file on one machine, an advisory lock in PostgreSQL.

A lock is taken without waiting (``take``), watched while it is held (``held``) and
released (``release``). Either kind is released by the operating system or the
database when its holder dies, so a crashed leader never blocks its heirs.

* ``FileLeaderLock``: an exclusive ``flock`` on a file in the data directory. It
  coordinates the processes of one machine, which is all the embedded SQLite store
  has. The holder writes its pid into the file, for operators.
* ``PostgresLeaderLock``: a session-level advisory lock, one per schema, held by a
  connection of its own. It coordinates every process that shares the database,
  on any machine, so an operator may run a standby ``dragonhall projections``
  process. The connection carries TCP keepalives on both ends: a leader cut off
  from the database learns it within ``DEAD_AFTER`` seconds (its watch query fails
  and it stops its runner), and the database drops the dead session, and so the
  lock, within about as long, for a standby to take it. Operators find the leader
  in ``pg_locks``: the session holding the advisory lock, whose client address in
  ``pg_stat_activity`` names the machine.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from services.common.sqlstore import advisory_key

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("dragonhall.projections")
DEAD_AFTER = 15
"""Seconds without an answer after which either end of the lock's connection gives it up."""


class LeaderLock(Protocol):
    def take(self) -> bool:
        """Takes the lock if nobody holds it; never waits."""

    def held(self) -> bool:
        """Whether this holder still has the lock (an advisory lock goes with its connection)."""

    def release(self) -> None:
        """Gives the lock up, if held."""

    def holder(self) -> str:
        """Who holds the lock, for an operator's message (best effort: it may change meanwhile)."""


class FileLeaderLock:
    """An exclusive ``flock`` on ``path``: the processes of one machine."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None

    def take(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+")  # noqa: SIM115 - held for as long as this process leads
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            return False
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")  # who runs the projections, for operators (and tests)
        f.flush()
        self._file = f
        return True

    def held(self) -> bool:
        return self._file is not None

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    def holder(self) -> str:
        """The pid its holder wrote into the file."""
        try:
            pid = self.path.read_text().strip()
        except OSError:
            pid = ""
        return f"process {pid} (pid in {self.path})" if pid else f"the holder of {self.path}"


class PostgresLeaderLock:
    """A session-level advisory lock per schema: the processes of every machine sharing the database."""

    def __init__(self, conninfo: str, schema: str | None) -> None:
        self.conninfo = conninfo
        self.key = advisory_key(f"dragonhall-projections:{schema or ''}")
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._held = False

    def take(self) -> bool:
        import psycopg

        try:
            conn = self._connection()
            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
            self._held = bool(row and row[0])
        except psycopg.Error as e:
            log.warning("could not ask PostgreSQL for the projections' lock: %s", e)
            self._close()
        return self._held

    def held(self) -> bool:
        import psycopg

        if not self._held or self._conn is None:  # held on a connection: both are set and cleared together
            return False
        try:
            self._conn.execute("SELECT 1")
        except psycopg.Error as e:
            log.warning("lost the connection that holds the projections' lock: %s", e)
            self._close()
        return self._held

    def release(self) -> None:
        """Unlocks before closing: the server ends a closed session's locks only once its
        backend has exited, which the client does not wait for."""
        if self._held and self._conn is not None:
            try:
                self._conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
            except Exception as e:
                log.debug("could not unlock before closing: %s", e)
        self._close()

    def holder(self) -> str:
        """The session that holds the advisory lock: its backend pid, client address and name."""
        import psycopg

        high, low = (self.key >> 32) & 0xFFFFFFFF, self.key & 0xFFFFFFFF  # how pg_locks shows a bigint key
        try:
            with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=DEAD_AFTER) as conn:
                row = conn.execute(
                    "SELECT a.pid, a.client_addr, a.application_name FROM pg_locks l "
                    "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                    "AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.objsubid = 1",
                    (high, low),
                ).fetchone()
        except psycopg.Error as e:
            return f"another session (PostgreSQL could not say which: {e})"
        if row is None:
            return "another session (gone since)"
        pid, addr, name = row
        return f"the PostgreSQL session of backend pid {pid} from {addr or 'a local socket'} ({name or 'no name'})"

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(
                self.conninfo,
                autocommit=True,
                connect_timeout=DEAD_AFTER,
                keepalives=1,
                keepalives_idle=5,
                keepalives_interval=2,
                keepalives_count=3,
                tcp_user_timeout=DEAD_AFTER * 1000,
                options=f"-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3 "
                f"-c tcp_user_timeout={DEAD_AFTER * 1000} -c statement_timeout={DEAD_AFTER * 1000}",
            )
        return self._conn

    def _close(self) -> None:
        self._held = False
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                log.debug("closing the lock's connection failed", exc_info=True)
