"""Named leases in the database: one holder at a time, until the lease runs out.

Celery beat does not prevent overlapping sweeps (two beats by mistake, or a
sweep slower than its interval), so each sweep first takes the ``sweep`` lease.
"""

from __future__ import annotations

from datetime import timedelta

from services.common import clock
from services.common.sqlstore import SqlStore

TABLES = ["CREATE TABLE IF NOT EXISTS dh_leases (name TEXT PRIMARY KEY, until TEXT NOT NULL)"]


class Leases:
    def __init__(self, db: SqlStore) -> None:
        self.db = db
        self.db.script(TABLES)

    def take(self, name: str, seconds: float) -> bool:
        """Takes the lease for ``seconds`` if nobody holds it now."""
        now = clock.now()
        until = (now + timedelta(seconds=seconds)).isoformat()
        with self.db.tx() as t:
            if t.execute("UPDATE dh_leases SET until = ? WHERE name = ? AND until < ?", (until, name, now.isoformat())):
                return True
            return bool(
                t.execute(
                    "INSERT INTO dh_leases (name, until) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, until)
                )
            )
