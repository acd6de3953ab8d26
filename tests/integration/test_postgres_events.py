"""The one-trip PostgreSQL recorder, against the real PostgreSQL.

It must keep every guarantee of eventsourcing's own recorder, so it runs
eventsourcing's recorder conformance cases (insert and select, notification ids
that never interleave between concurrent saves), then Dragonhall's own: a
conflicting save writes nothing, a store without the function still saves, and
the subscription delivers what was saved.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.tests.persistence import ApplicationRecorderTestCase, NonInterleavingNotificationIDsBaseCase

from infra import save_guard
from infra.postgres_events import MAX_SCALAR_EVENTS, OneTripPostgresApplicationRecorder
from tests.conftest import PG_URL, need_service


def _schema() -> str:
    return f"t_{uuid.uuid4().hex[:12]}"


def _drop(schema: str) -> None:
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _recorder(schema: str, *, create: bool = True) -> OneTripPostgresApplicationRecorder:
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    datastore = PostgresDatastore("test", "127.0.0.1", 5432, "postgres", "", schema=schema, pool_size=4)
    recorder = OneTripPostgresApplicationRecorder(datastore)
    if create:
        recorder.create_table()
    return recorder


class _OnFreshSchema:
    """Each case gets its own schema, dropped afterwards."""

    def setUp(self) -> None:
        need_service("PostgreSQL", PG_URL, 5432)
        self.schema = _schema()
        self.recorders: list[OneTripPostgresApplicationRecorder] = []

    def tearDown(self) -> None:
        for recorder in self.recorders:
            recorder.datastore.close()
        _drop(self.schema)

    def create_recorder(self) -> OneTripPostgresApplicationRecorder:
        recorder = _recorder(self.schema)
        self.recorders.append(recorder)
        return recorder


class TestConformance(_OnFreshSchema, ApplicationRecorderTestCase[Any]):  # type: ignore[misc]
    test_performance = None  # timings: bench/ measures them, the suite does not assert them
    test_concurrent_throughput = None


class TestNotificationIdsDoNotInterleave(_OnFreshSchema, NonInterleavingNotificationIDsBaseCase):  # type: ignore[misc]
    insert_num = 300


@pytest.fixture
def schema(pg_url: str) -> Any:
    name = _schema()
    yield name
    _drop(name)


def _events(gid: uuid.UUID, first: int, n: int) -> list[StoredEvent]:
    return [StoredEvent(gid, first + i, "dragonhall:Test", f"{first + i}".encode()) for i in range(n)]


def test_a_save_is_one_call_and_returns_its_notification_ids_in_order(schema: str) -> None:
    recorder = _recorder(schema)
    gid = uuid.uuid4()
    ids = recorder.insert_events(_events(gid, 1, 3))
    more = recorder.insert_events(_events(gid, 4, 2))
    assert ids is not None and more is not None
    assert len(ids) == 3 and ids == sorted(ids) and min(more) > max(ids)
    assert [e.originator_version for e in recorder.select_events(gid)] == [1, 2, 3, 4, 5]
    assert [e.originator_version for e in recorder.select_events(gid, gt=2, lte=4)] == [3, 4]
    assert [e.originator_version for e in recorder.select_events(gid, desc=True, limit=2)] == [5, 4]
    assert [n.id for n in recorder.select_notifications(start=ids[1], limit=10, inclusive_of_start=False)] == [
        ids[2],
        *more,
    ]
    recorder.datastore.close()


def test_a_save_of_more_events_than_scalar_parameters_allow_passes_arrays(schema: str) -> None:
    recorder = _recorder(schema)
    gid = uuid.uuid4()
    n = MAX_SCALAR_EVENTS + 1
    ids = recorder.insert_events(_events(gid, 1, n))
    assert ids is not None and len(ids) == n
    assert [e.originator_version for e in recorder.select_events(gid)] == list(range(1, n + 1))
    with pytest.raises(IntegrityError):
        recorder.insert_events(_events(gid, n, n))
    assert len(recorder.select_events(gid)) == n
    recorder.datastore.close()


def test_a_conflicting_save_raises_and_writes_none_of_its_events(schema: str) -> None:
    recorder = _recorder(schema)
    gid = uuid.uuid4()
    recorder.insert_events(_events(gid, 1, 2))
    with pytest.raises(IntegrityError):
        recorder.insert_events(_events(gid, 2, 3))  # version 2 is taken; 3 and 4 must not land
    assert [e.originator_version for e in recorder.select_events(gid)] == [1, 2]
    recorder.datastore.close()


def test_a_store_without_the_function_saves_the_way_eventsourcing_does(schema: str) -> None:
    recorder = _recorder(schema)
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'DROP FUNCTION "{schema}"."{recorder.insert_function_name}"')
    gid = uuid.uuid4()
    recorder.insert_events(_events(gid, 1, 2))
    assert [e.originator_version for e in recorder.select_events(gid)] == [1, 2]
    with pytest.raises(IntegrityError):
        recorder.insert_events(_events(gid, 2, 1))
    recorder.datastore.close()


GUARD_ACCEPTING_YES = """CREATE FUNCTION "{schema}".dh_save_guard(guard text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN IF guard <> 'yes' THEN RAISE EXCEPTION 'refused' USING ERRCODE = 'DH401'; END IF; END $$"""


@pytest.mark.parametrize("function", [True, False], ids=["in-its-call", "without-the-function"])
def test_a_guarded_save_is_refused_whole_by_its_guard_and_spends_it_once_accepted(schema: str, function: bool) -> None:
    """``infra.save_guard``: the save checks the guard before it writes (in its own call, or in a
    round trip of its own where the function is missing), a refusal writes nothing and leaves the
    guard to be confirmed, and an accepted guard is not asked again by the request's later saves."""
    recorder = _recorder(schema)
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(GUARD_ACCEPTING_YES.format(schema=schema))
        if not function:
            conn.execute(f'DROP FUNCTION "{schema}"."{recorder.insert_function_name}"')
    gid = uuid.uuid4()
    before = save_guard.GUARD.set("no")
    try:
        with pytest.raises(save_guard.GuardRefused):
            recorder.insert_events(_events(gid, 1, 2))
        assert recorder.select_events(gid) == [] and save_guard.GUARD.get() == "no"
        save_guard.GUARD.set("yes")
        recorder.insert_events(_events(gid, 1, 2))
        assert save_guard.GUARD.get() is None
        recorder.insert_events(_events(gid, 3, 1))
    finally:
        save_guard.GUARD.reset(before)
    assert [e.originator_version for e in recorder.select_events(gid)] == [1, 2, 3]
    recorder.datastore.close()


def _heard(conn: psycopg.Connection[Any]) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=0.5, stop_after=1)]


def test_a_save_sends_its_wake_up_in_its_own_call_and_not_once_its_function_is_gone(schema: str) -> None:
    """The streams' wake-up rides on the save (one round trip, not two), and commits with it: a
    refused save sends none. Where the function is missing, the save cannot carry it and says so
    (``carries_wakes``), so the platform sends it apart (``wiring.wakeups.save_announcer``)."""
    recorder = _recorder(schema)
    channel = f"wake_test_{uuid.uuid4().hex[:8]}"
    recorder.wake = lambda events: (channel, f"origin|game:{events[0].originator_id}")
    gid = uuid.uuid4()
    with psycopg.connect(PG_URL, autocommit=True) as listener:
        listener.execute(f'LISTEN "{channel}"')
        assert recorder.carries_wakes
        recorder.insert_events(_events(gid, 1, 2))
        assert _heard(listener) == [f"origin|game:{gid}"]
        with pytest.raises(IntegrityError):
            recorder.insert_events(_events(gid, 2, 1))
        assert _heard(listener) == []
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP FUNCTION "{schema}"."{recorder.insert_function_name}"')
        recorder.insert_events(_events(gid, 3, 1))
        assert not recorder.carries_wakes and _heard(listener) == []
    recorder.datastore.close()


def test_the_subscription_delivers_each_save_once_in_order(schema: str) -> None:
    recorder = _recorder(schema)
    gid = uuid.uuid4()
    recorder.insert_events(_events(gid, 1, 2))
    with recorder.subscribe(gt=None) as subscription:
        recorder.insert_events(_events(gid, 3, 2))
        got = [next(subscription).originator_version for _ in range(4)]
    assert got == [1, 2, 3, 4]
    recorder.datastore.close()
