"""The SQLite event store checkpoints its write-ahead log in a background thread, not in a save."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from infra.sqlite_events import FACTORY_TOPIC


class Note(Aggregate):
    @event("Written")
    def write(self, text: str) -> None:
        pass


def _app(path: Path, interval: str | None) -> Any:
    env = {"PERSISTENCE_MODULE": FACTORY_TOPIC, "SQLITE_DBNAME": str(path)}
    if interval is not None:
        env["SQLITE_CHECKPOINT_INTERVAL"] = interval
    return Application(env=env)


def _write(app: Any, events: int) -> None:
    note = Note()
    for i in range(events):
        note.write("x" * 200 + str(i))
        app.save(note)


def _autocheckpoint(app: Any) -> int:
    with app.factory.datastore.transaction(commit=False) as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        return int(cursor.fetchone()[0])


def test_saves_leave_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    app = _app(tmp_path / "events.db", "3600")  # no background round during the test
    try:
        assert _autocheckpoint(app) == 0
        _write(app, 300)
        busy, frames, copied = app.factory.checkpointer.checkpoint()
        assert (busy, copied) == (0, frames) and frames > 10
        _write(app, 1)
        assert app.factory.checkpointer.checkpoint()[1] < frames  # the next save restarted the log
    finally:
        app.close()


def test_the_thread_runs_and_stops_with_the_store(tmp_path: Path) -> None:
    db = tmp_path / "events.db"
    app = _app(db, "0.05")
    thread = app.factory.checkpointer._thread
    _write(app, 300)
    before = db.stat().st_size
    deadline = time.time() + 10
    while db.stat().st_size == before and time.time() < deadline:
        time.sleep(0.05)
    assert db.stat().st_size > before, "no background checkpoint copied the log"
    app.close()
    assert not thread.is_alive()


@pytest.mark.parametrize("interval", [None, "0"])
def test_without_an_interval_sqlite_checkpoints_as_usual(tmp_path: Path, interval: str | None) -> None:
    app = _app(tmp_path / "events.db", interval)
    try:
        assert app.factory.checkpointer is None
        assert _autocheckpoint(app) == 1000
    finally:
        app.close()
