"""The SQLite event store saves events on a connection of its own (``infra.sqlite_events.EventWriter``),
with the same guarantees as eventsourcing's pooled transaction."""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from infra.sqlite_events import FACTORY_TOPIC


class Note(Aggregate):
    @event("Written")
    def write(self, text: str) -> None:
        pass


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    application = Application(env={"PERSISTENCE_MODULE": FACTORY_TOPIC, "SQLITE_DBNAME": str(tmp_path / "e.db")})
    yield application
    application.close()


def test_a_file_store_saves_through_its_writer_and_reads_back_every_event(app: Any) -> None:
    assert app.factory.datastore.event_writer is not None
    note = Note()
    for i in range(3):
        note.write(f"line {i}")
    app.save(note)
    assert app.factory.datastore.event_writer._conn is not None  # opened by the save, which it made
    again = app.repository.get(note.id)
    assert again.version == note.version == 4
    assert [n.originator_version for n in app.recorder.select_notifications(start=1, limit=10)] == [1, 2, 3, 4]


def test_a_version_conflict_is_eventsourcings_integrity_error_and_writes_nothing(app: Any) -> None:
    note = Note()
    app.save(note)
    rival = app.repository.get(note.id)
    note.write("first")
    rival.write("second")
    rival.write("third")
    app.save(note)
    with pytest.raises(IntegrityError):
        app.save(rival)
    assert [e.text for e in app.events.get(note.id) if hasattr(e, "text")] == ["first"]
    note.write("after")
    app.save(note)  # the writer's connection was left out of any transaction
    assert app.repository.get(note.id).version == 3


def test_a_save_waits_for_another_processs_writers_lock(app: Any, tmp_path: Path) -> None:
    note = Note()
    saved = threading.Event()
    with open(tmp_path / "e.db.writers", "a") as other:  # another open file: a lock of its own
        fcntl.flock(other, fcntl.LOCK_EX)
        saver = threading.Thread(target=lambda: (app.save(note), saved.set()))
        saver.start()
        assert not saved.wait(0.3)
        fcntl.flock(other, fcntl.LOCK_UN)
    assert saved.wait(5)
    saver.join()
    assert app.repository.get(note.id).version == 1


def test_an_in_memory_store_has_no_writer_and_saves_as_eventsourcing_does() -> None:
    application = Application(env={"PERSISTENCE_MODULE": FACTORY_TOPIC, "SQLITE_DBNAME": ":memory:"})
    try:
        assert getattr(application.factory.datastore, "event_writer", None) is None
        note = Note()
        note.write("x")
        application.save(note)
        assert application.repository.get(note.id).version == 2
    finally:
        application.close()


def test_a_save_waits_for_a_pooled_write_of_the_same_process(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writers' flock belongs to the open file that the threads share: without the
    process's mutex, a save would start writing while a snapshot (say) still held it."""
    import infra.sqlite_events as sqlite_events

    inside, entered_while_inside = threading.Event(), []
    commit_rows = sqlite_events._commit_rows

    def spy(*args: Any) -> None:
        entered_while_inside.append(inside.is_set())
        commit_rows(*args)

    monkeypatch.setattr(sqlite_events, "_commit_rows", spy)
    release = threading.Event()

    def pooled_write() -> None:
        with app.factory.datastore.transaction(commit=True) as cursor:
            cursor.execute("SELECT 1")
            inside.set()
            release.wait(5)
            inside.clear()

    writer = threading.Thread(target=pooled_write)
    writer.start()
    assert inside.wait(5)
    saver = threading.Thread(target=app.save, args=(Note(),))
    saver.start()
    saver.join(0.3)
    release.set()
    writer.join()
    saver.join()
    assert entered_while_inside == [False]
