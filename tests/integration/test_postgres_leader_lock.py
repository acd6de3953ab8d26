"""The projections' leader lock on PostgreSQL: one leader per schema across processes and machines.

Each lock holds its own connection, as separate processes would; the database is the real one."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from projections import leader as leadership
from projections.leader_locks import PostgresLeaderLock
from tests.support.runners import FakeRunner, eventually


@pytest.fixture
def locks(pg_url: str, pg_schema: str) -> Iterator[list[PostgresLeaderLock]]:
    made = [PostgresLeaderLock(pg_url, pg_schema) for _ in range(2)]
    yield made
    for lock in made:
        lock.release()


def _backend_pid(lock: PostgresLeaderLock) -> int:
    return int(lock._conn.info.backend_pid)


def _holder(pg_url: str, lock: PostgresLeaderLock) -> int | None:
    """The backend pid of the session that holds ``lock``'s key, as an operator would find it."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1 "
            "AND (classid::bigint << 32 | objid::bigint) = %s",
            (lock.key,),
        ).fetchone()
    return None if row is None else int(row[0])


def test_one_holder_per_schema_and_the_next_takes_it_once_released(
    pg_url: str, locks: list[PostgresLeaderLock]
) -> None:
    first, second = locks
    assert first.take() and first.held()
    assert not second.take() and not second.held()
    assert _holder(pg_url, first) == _backend_pid(first)
    first.release()
    assert not first.held()
    assert second.take()
    assert _holder(pg_url, second) == _backend_pid(second)


def test_schemas_do_not_share_a_lock(pg_url: str, pg_schema: str) -> None:
    mine, other = PostgresLeaderLock(pg_url, pg_schema), PostgresLeaderLock(pg_url, pg_schema + "_other")
    try:
        assert mine.take() and other.take()
    finally:
        mine.release()
        other.release()


def test_a_holder_whose_session_ends_knows_it_lost_the_lock(pg_url: str, locks: list[PostgresLeaderLock]) -> None:
    """As when the database restarts or drops a leader cut off from it: its heir may take the lock."""
    first, second = locks
    assert first.take()
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (_backend_pid(first),))
    assert not first.held()
    assert eventually(second.take), "once the ended session's backend has exited"
    assert not first.take(), "reconnecting does not give the lock back while another holds it"


def test_a_leader_that_loses_its_lock_stops_its_runner_and_another_leads(
    pg_url: str, pg_schema: str, monkeypatch: Any, caplog: Any
) -> None:
    monkeypatch.setattr(leadership, "RETRY", 0.02)
    started: list[FakeRunner] = []

    def start() -> FakeRunner:
        started.append(FakeRunner())
        return started[-1]

    first = leadership.ProjectionLeader(PostgresLeaderLock(pg_url, pg_schema), start)
    second = None
    try:
        assert eventually(lambda: first.runner is not None)
        second = leadership.ProjectionLeader(PostgresLeaderLock(pg_url, pg_schema), start)
        assert second.wait_first_try() and second.runner is None
        with caplog.at_level(logging.WARNING, logger="dragonhall.projections"):
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (_backend_pid(first.lock),))  # type: ignore[arg-type]
            assert eventually(lambda: started[0].exited)
            assert eventually(lambda: (first.runner is None) != (second.runner is None))
        assert "lost the projections' lock" in caplog.text
        assert len([r for r in started if not r.exited]) == 1, "one runner at a time"
    finally:
        first.stop()
        if second is not None:
            second.stop()
