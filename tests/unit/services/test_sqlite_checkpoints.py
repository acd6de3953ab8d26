"""The SQLite event store checkpoints its write-ahead log in a background thread, not in a save."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from infra.sqlite_events import FACTORY_TOPIC, JOURNAL_SIZE_LIMIT


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


def _wal(db: Path) -> int:
    wal = Path(f"{db}-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_a_log_past_its_limit_is_truncated_and_keeps_every_event(tmp_path: Path) -> None:
    """Under steady load a passive checkpoint never lets the log restart; past its limit the
    checkpointer truncates it, and every event is still there."""
    db = tmp_path / "events.db"
    app = _app(db, "3600")
    try:
        checkpointer = app.factory.checkpointer
        checkpointer.limit = 64 << 10
        _write(app, 400)
        assert _wal(db) > checkpointer.limit
        busy, frames, copied = checkpointer.round()
        assert (busy, frames, copied) == (0, 0, 0)
        assert _wal(db) == 0
        _write(app, 1)  # the store goes on after the truncation
        with app.factory.datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM stored_events")
            assert cursor.fetchone()[0] == 403  # two notes: created, then 400 and 1 writes
    finally:
        app.close()


def test_a_reader_holding_an_old_snapshot_delays_the_truncation_only_while_it_reads(tmp_path: Path) -> None:
    db = tmp_path / "events.db"
    app = _app(db, "3600")
    try:
        checkpointer = app.factory.checkpointer
        checkpointer.limit = 64 << 10
        _write(app, 10)
        reader = sqlite3.connect(db, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM stored_events").fetchone()  # holds its snapshot
        _write(app, 400)
        assert checkpointer.round()[0] == 1  # busy: the reader still needs the log
        assert _wal(db) > checkpointer.limit
        reader.execute("COMMIT")
        reader.close()
        assert checkpointer.round()[0] == 0
        assert _wal(db) == 0
    finally:
        app.close()


def test_an_idle_log_is_truncated_on_the_round_after_it_was_copied(tmp_path: Path) -> None:
    db = tmp_path / "events.db"
    app = _app(db, "3600")
    try:
        checkpointer = app.factory.checkpointer
        _write(app, 50)
        assert 0 < _wal(db) < checkpointer.limit
        checkpointer.round()  # copied, but something was written since the last round
        assert _wal(db) > 0
        checkpointer.round()  # nothing written since: the load has ended
        assert _wal(db) == 0
    finally:
        app.close()


def test_every_connection_cuts_a_restarted_log_back(tmp_path: Path) -> None:
    app = _app(tmp_path / "events.db", "3600")
    try:
        with app.factory.datastore.transaction(commit=False) as cursor:
            cursor.execute("PRAGMA journal_size_limit")
            assert cursor.fetchone()[0] == JOURNAL_SIZE_LIMIT
    finally:
        app.close()
