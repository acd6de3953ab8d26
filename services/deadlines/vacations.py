"""Vacation days: a player's clocks stand still on them, in every game, within a yearly allowance."""

from __future__ import annotations

import threading
import time
from datetime import date, timedelta
from typing import Any

from services.common import clock
from services.common.date_rules import check_day
from services.common.errors import InvalidRequest
from services.common.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_vacation_days (
        player_id TEXT NOT NULL,
        day TEXT NOT NULL,
        PRIMARY KEY (player_id, day)
    )""",
]
DEFAULT_ALLOWANCE = 30
"""Vacation days a player may take per calendar year (designed; ``DRAGONHALL_VACATION_DAYS``)."""
KEPT = 4_096
"""Players whose days are held before those held over ``FRESH`` seconds are dropped (at most once
every ``FRESH`` seconds): a process used to hold every player a clock ever asked about."""
FRESH = 10.0
"""Seconds a process trusts the vacation days it read: another process may record new ones."""


class Vacations:
    def __init__(self, db: SqlStore, allowance: int = DEFAULT_ALLOWANCE) -> None:
        self.db = db
        self.allowance = allowance
        self.db.script(TABLES)
        self._cache: dict[str, tuple[float, frozenset[date]]] = {}
        self._swept = 0.0
        self._lock = threading.Lock()

    def days(self, player_id: str) -> frozenset[date]:
        """Every vacation day of the player (past and future), as read within ``FRESH`` seconds:
        every save of a bank clock and every deadline asks, and days are declared in another
        process (the HTTP one) than many of those that ask (the workers)."""
        now = time.monotonic()
        with self._lock:
            held = self._cache.get(player_id)
        if held is not None and now - held[0] < FRESH:
            return held[1]
        rows = self.db.query("SELECT day FROM dh_vacation_days WHERE player_id = ?", (player_id,))
        days = frozenset(date.fromisoformat(r["day"]) for r in rows)
        with self._lock:
            self._cache[player_id] = (now, days)
            if len(self._cache) > KEPT and now - self._swept > FRESH:  # the stale would be read again
                self._cache = {p: held for p, held in self._cache.items() if now - held[0] < FRESH}
                self._swept = now
        return days

    def declare(self, player_id: str, start: date, count: int) -> dict[str, Any]:
        """Adds ``count`` days from ``start``; refuses a start outside ``date_rules.DAY`` and days over
        the allowance."""
        check_day("start", start, clock.now().date())
        if not 1 <= count <= self.allowance:
            raise InvalidRequest(f"a vacation is 1 to {self.allowance} days", field="days")
        wanted = {start + timedelta(days=i) for i in range(count)}
        held = self.days(player_id)
        for year in sorted({d.year for d in wanted}):
            total = len({d for d in held | wanted if d.year == year})
            if total > self.allowance:
                raise InvalidRequest(
                    f"{total} vacation days in {year} is more than the allowance of {self.allowance}", field="days"
                )
        with self.db.tx() as t:
            for d in sorted(wanted - held):
                t.execute("INSERT INTO dh_vacation_days (player_id, day) VALUES (?, ?)", (player_id, d.isoformat()))
        with self._lock:
            self._cache.pop(player_id, None)
        return self.summary(player_id)

    def summary(self, player_id: str) -> dict[str, Any]:
        days = sorted(self.days(player_id))
        years = sorted({d.year for d in days} | {clock.now().year})
        return {
            "days": [d.isoformat() for d in days],
            "allowance": {
                str(y): {
                    "per_year": self.allowance,
                    "used": sum(1 for d in days if d.year == y),
                    "left": self.allowance - sum(1 for d in days if d.year == y),
                }
                for y in years
            },
        }
