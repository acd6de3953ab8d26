"""The service tables' PostgreSQL gateway when its connection is lost, as in a database restart."""

from __future__ import annotations

import psycopg
import pytest
from eventsourcing.persistence import OperationalError

from services.sqlstore import PostgresStore


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
