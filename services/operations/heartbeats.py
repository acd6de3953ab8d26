"""When each background process was last seen doing its job: the workers and the deadline sweep.

A worker killed, or one that cannot reach its broker, used to leave no trace: bot
turns and deadlines stopped, and ``/healthz`` said "ok". So each Celery worker's
consumer writes a row here every ``WORKER_BEAT`` seconds while it consumes
(``workers.heartbeat``), and each deadline sweep writes the ``sweep`` row when it
has run (``workers.jobs.sweep``); the health model (``services.operations.health``) reads how
long ago they were seen. The rows live in the service tables, which every process
of a deployment reaches, on any machine.
"""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta

from services.common import clock
from services.common.sqlstore import SqlStore

TABLES = [
    "CREATE TABLE IF NOT EXISTS dh_heartbeats (process TEXT PRIMARY KEY, role TEXT NOT NULL, seen_at TEXT NOT NULL)"
]
WORKER_BEAT = 5.0
"""Seconds between two heartbeats of a consuming worker."""
FORGET_AFTER = timedelta(days=1)
"""Rows of processes not seen for this long are removed when another beats."""
SWEEP = "sweep"
"""The row the deadline sweep writes each time it has run, whichever process ran it."""


def process_name(role: str) -> str:
    """This process as the table names it: its role, machine and pid."""
    return f"{role}:{socket.gethostname()}:{os.getpid()}"


class Heartbeats:
    def __init__(self, db: SqlStore) -> None:
        self.db = db
        self.db.script(TABLES)

    def beat(self, process: str, role: str) -> None:
        """Records ``process`` (of ``role``) as seen now, and forgets those not seen for a day."""
        now = clock.now()
        with self.db.tx() as t:
            t.execute(
                "INSERT INTO dh_heartbeats (process, role, seen_at) VALUES (?, ?, ?) "
                "ON CONFLICT (process) DO UPDATE SET seen_at = excluded.seen_at",
                (process, role, now.isoformat()),
            )
            t.execute("DELETE FROM dh_heartbeats WHERE seen_at < ?", ((now - FORGET_AFTER).isoformat(),))

    def gone(self, process: str) -> None:
        """Forgets ``process``: it stopped on purpose."""
        self.db.execute("DELETE FROM dh_heartbeats WHERE process = ?", (process,))

    def seen_since(self, role: str, since: datetime) -> int:
        """How many processes of ``role`` were seen at ``since`` or later."""
        row = self.db.read_one(
            "SELECT COUNT(*) AS n FROM dh_heartbeats WHERE role = ? AND seen_at >= ?", (role, since.isoformat())
        )
        return int(row["n"]) if row else 0

    def last_seen(self, role: str) -> datetime | None:
        """When a process of ``role`` was last seen, if ever (within a day)."""
        row = self.db.read_one("SELECT MAX(seen_at) AS at FROM dh_heartbeats WHERE role = ?", (role,))
        return datetime.fromisoformat(row["at"]) if row and row["at"] else None
