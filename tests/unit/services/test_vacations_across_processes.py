"""Vacation days declared in one process reach the deadlines another process computes.

Days are declared through the HTTP process; deadlines are computed by workers and
other HTTP processes too. Each process trusts what it read for ``vacations.FRESH``
seconds only: before, a process kept a player's days for ever, and could time the
player out on a vacation it had declared elsewhere.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from services.common import clock
from services.common.sqlstore import SQLiteStore
from services.deadlines import vacations
from services.deadlines.vacations import Vacations


def test_days_declared_by_another_process_are_read_once_the_cache_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = [1000.0]
    monkeypatch.setattr(vacations.time, "monotonic", lambda: ticks[0])
    http, worker = (Vacations(SQLiteStore(tmp_path / "service.db")) for _ in range(2))
    assert worker.days("ann") == frozenset()  # read, and kept
    start = clock.now().date() + timedelta(days=3)
    http.declare("ann", start, 2)
    assert worker.days("ann") == frozenset()  # still fresh: not read again
    ticks[0] += vacations.FRESH
    assert worker.days("ann") == {start, start + timedelta(days=1)}


def test_a_process_holds_the_days_of_the_players_it_asked_of_lately_not_of_all_it_ever_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = [1000.0]
    monkeypatch.setattr(vacations.time, "monotonic", lambda: ticks[0])
    monkeypatch.setattr(vacations, "KEPT", 8)
    worker = Vacations(SQLiteStore(tmp_path / "service.db"))
    for n in range(8):
        worker.days(f"old-{n}")
    ticks[0] += vacations.FRESH
    for n in range(3):
        worker.days(f"new-{n}")
    assert len(worker._cache) == 3  # the stale ones went once past KEPT
    start = clock.now().date() + timedelta(days=3)
    worker.declare("old-1", start, 1)
    assert worker.days("old-1") == {start}  # and one asked of again is read again
