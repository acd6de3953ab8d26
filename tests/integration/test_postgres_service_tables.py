"""The service tables' PostgreSQL gateway when its connection is lost, as in a database restart."""

from __future__ import annotations

import psycopg
import pytest
from eventsourcing.persistence import OperationalError

from services.common.sqlstore import PostgresStore


def test_a_lost_connection_raises_the_event_stores_error_and_the_next_call_reconnects(
    pg_url: str, pg_schema: str
) -> None:
    """The API answers eventsourcing's ``OperationalError`` with 503 and ``Retry-After``; a raw
    driver error would be a 500."""
    store = PostgresStore(pg_url, schema=pg_schema, max_size=1)
    try:
        pid = store.one("SELECT pg_backend_pid() AS pid")["pid"]  # type: ignore[index]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(OperationalError) as raised:
            store.query("SELECT 1 AS one")
        assert isinstance(raised.value.__cause__, psycopg.OperationalError)
        assert store.query("SELECT 1 AS one") == [{"one": 1}]
    finally:
        store.close()


def test_a_lost_connection_under_a_single_read_raises_the_event_stores_error(pg_url: str, pg_schema: str) -> None:
    """``read_one`` (a bearer token's lookup) runs outside ``tx``: it keeps the same errors."""
    store = PostgresStore(pg_url, schema=pg_schema, max_size=1)
    try:
        pid = store.read_one("SELECT pg_backend_pid() AS pid")["pid"]  # type: ignore[index]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(OperationalError):
            store.read_one("SELECT 1 AS one")
        assert store.read_one("SELECT 1 AS one") == {"one": 1}
    finally:
        store.close()


def test_a_single_read_is_one_statement_outside_a_transaction(pg_url: str, pg_schema: str) -> None:
    """One round trip: no ``BEGIN`` before it, so PostgreSQL runs it as its own transaction, and the
    connection goes back to the pool idle, with nothing to roll back."""
    store = PostgresStore(pg_url, schema=pg_schema, max_size=1)
    try:
        first = store.read_one("SELECT txid_current_if_assigned() AS x, now() = statement_timestamp() AS alone")
        assert first == {"x": None, "alone": True}
        store.execute("CREATE TABLE IF NOT EXISTS t_read (k int PRIMARY KEY)")
        store.execute("INSERT INTO t_read VALUES (?)", (1,))
        assert store.read_one("SELECT k FROM t_read WHERE k = ?", (1,)) == {"k": 1}
        assert store.read_one("SELECT k FROM t_read WHERE k = ?", (2,)) is None
        with store.tx() as t:  # a transaction still spans its statements
            t.execute("INSERT INTO t_read VALUES (?)", (2,))
            assert t.query("SELECT now() = statement_timestamp() AS alone")[0]["alone"] is False
    finally:
        store.close()
