"""An id read from the SQLite store keeps the text it was read from (``infra.stored_ids``): the read
models ask each event's id as text, and ``str`` now hands back what was read rather than formatting it."""

from __future__ import annotations

import copy
import pickle
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from infra.sqlite_events import FACTORY_TOPIC
from infra.stored_ids import StoredUUID


class Note(Aggregate):
    @event("Written")
    def write(self, text: str) -> None:
        pass


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    application = Application(env={"PERSISTENCE_MODULE": FACTORY_TOPIC, "SQLITE_DBNAME": str(tmp_path / "e.db")})
    yield application
    application.close()


def test_an_events_id_read_back_is_a_uuid_equal_to_the_one_saved_that_keeps_its_text(app: Any) -> None:
    note = Note()
    note.write("a line")
    app.save(note)
    notifications = app.recorder.select_notifications(start=1, limit=10)
    read = [app.mapper.to_domain_event(n).originator_id for n in notifications]
    assert all(isinstance(i, StoredUUID) for i in read), "the mapper passes the stored id through"
    assert read == [note.id, note.id] and {hash(i) for i in read} == {hash(note.id)}
    assert all(str(i) == str(note.id) for i in read)
    assert app.repository.get(note.id).id == note.id


@pytest.mark.parametrize(
    "text",
    [
        "12345678-1234-5678-1234-567812345678",
        "{12345678-1234-5678-1234-567812345678}",
        "ABCDEF01-2345-4678-9ABC-DEF012345678",
    ],
)
def test_a_stored_id_says_the_canonical_text_whatever_it_was_read_from(text: str) -> None:
    read = StoredUUID(text)
    assert read == uuid.UUID(text) and str(read) == str(uuid.UUID(text)) and read.hex == uuid.UUID(text).hex


def test_a_stored_id_survives_pickle_and_copy_with_its_text() -> None:
    read = StoredUUID("12345678-1234-5678-1234-567812345678")
    for again in (pickle.loads(pickle.dumps(read)), copy.deepcopy(read), copy.copy(read)):
        assert again == read and str(again) == str(read) and isinstance(again, StoredUUID)
