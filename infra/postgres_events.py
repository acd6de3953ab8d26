"""The PostgreSQL event store as Dragonhall uses it: one round trip per save.

eventsourcing 9.5 saves events in a pipelined transaction of five statements
(``BEGIN``, ``SET LOCAL lock_timeout``, ``LOCK TABLE``, ``NOTIFY``, the insert
from an array of composite values, ``COMMIT``), and composes its ``SELECT``
statements anew on every call. Measured on the 2-core machine, a three-event
save cost 1.1 ms of the server's CPU and a freshness query 0.2 ms: most of the
PostgreSQL bench's time.

``OneTripPostgresApplicationRecorder`` keeps eventsourcing's schema and its
guarantees, and does the same work in fewer, cheaper calls:

* a save is one call of a PL/pgSQL function that takes the same ``EXCLUSIVE``
  table lock (so notification ids are issued in commit order, which the
  projection runners rely on), sends the same ``NOTIFY`` and inserts from plain
  arrays; the call runs as its own transaction, so it commits before it returns,
  and a version conflict still raises ``IntegrityError``;
* the same call sends the streams' wake-up of the save (``wake``: the other
  processes' ``PostgresBroadcast`` hears it), which was a round trip of its own
  after every save;
* and checks the save's guard (``infra.save_guard``: a move's bearer token still
  live), which was the token's own round trip before every move;
* each ``SELECT`` is composed once per shape and kept as bytes;
* its subscription, after a notification, waits ``COALESCE`` seconds for more
  saves before it pulls, so one query serves many saves under load.

Where the function is missing (tables created by an older release, with
``CREATE_TABLE=n``) it saves the way eventsourcing does.
Select it with ``PERSISTENCE_MODULE=infra.postgres_events:OneTripPostgresFactory``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import (
    InterfaceError,
    Notification,
    OperationalError,
    ProgrammingError,
    StoredEvent,
    Subscription,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore, PostgresFactory, PostgresSubscription
from eventsourcing.utils import Environment, retry
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composable, Identifier

from infra import save_guard
from infra.batched_pull import BatchedPull

FACTORY_TOPIC = "infra.postgres_events:OneTripPostgresFactory"
COALESCE = 0.2
"""After a notification, wait this long for more saves, so one pull (and one read-model
transaction) serves many: under load a pull per save cost the runner more than the saves.

The read models then lag the events by up to this long, as they do on SQLite, where the
projection process polls every 0.2 s. Only lists and summaries wait for them: a game's own
document falls back to the write model, and moves, bot turns and timers go by the events.
At 32 games in flight, 0.2 s against 0.05 s took a fifth of the CPU off the projection
process and a tenth off PostgreSQL's, and gave more moves/s in each of four interleaved
pairs of runs (7-34%, a fifth on average)."""
Wake = Callable[[Sequence[StoredEvent]], tuple[str, str]]
"""The channel and payload of the wake-up a save sends (``OneTripPostgresApplicationRecorder.wake``)."""
MAX_SCALAR_EVENTS = 1000
"""Saves of more events than this pass arrays as array parameters (PostgreSQL takes at most 65,535 parameters)."""


class OneTripPostgresApplicationRecorder(PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL application recorder, saving in one call."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self._statements: dict[Any, bytes] = {}
        self.sql_create_statements: list[Any]
        self._has_function = True
        self.insert_function_name = f"dh_insert_events_{self.datastore.originator_id_type}"
        self.sql_create_statements.append(self._create_function_statement())
        self.call_insert_function = SQL("SELECT * FROM {schema}.{function}(%s, %s, %s, %s, %s, %s, %s)").format(
            schema=Identifier(self.datastore.schema), function=Identifier(self.insert_function_name)
        )
        self.wake: Wake | None = None
        """The ``(channel, payload)`` of a save's streams' wake-up, sent in its transaction
        (``wiring.platform``); None sends none."""

    @property
    def carries_wakes(self) -> bool:
        """Whether a save sends its streams' wake-up itself (not where the function is missing)."""
        return self.wake is not None and self._has_function

    def _create_function_statement(self) -> Composable:
        timeout = (
            f"    PERFORM set_config('lock_timeout', '{int(self.datastore.lock_timeout)}s', true);"
            if self.datastore.lock_timeout
            else ""
        )
        return SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}("
            "ids {id_type}[], versions bigint[], topics text[], states bytea[], "
            "wake_channel text, wake text, guard text) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "    IF guard IS NOT NULL THEN PERFORM {schema}.{guard_function}(guard); END IF;"
            + timeout
            + "    LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE;"
            "    NOTIFY {channel};"
            "    IF wake IS NOT NULL THEN PERFORM pg_notify(wake_channel, wake); END IF;"
            "    RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state)"
            "    SELECT * FROM unnest(ids, versions, topics, states)"
            "    RETURNING notification_id;"
            "END; $BODY$"
        ).format(
            schema=Identifier(self.datastore.schema),
            function=Identifier(self.insert_function_name),
            guard_function=Identifier(save_guard.FUNCTION),
            id_type=Identifier(self.datastore.originator_id_type),
            table=Identifier(self.events_table_name),
            channel=Identifier(self.channel_name),
        )

    # ------------------------------------------------------------ writing

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Saves ``stored_events`` in one call, checking the save's guard in its transaction
        (``infra.save_guard``); ``GuardRefused`` when the guard is refused, with nothing saved."""
        if not stored_events:
            return []
        guard = save_guard.GUARD.get()
        try:
            if not self._has_function:
                return self._insert_as_eventsourcing(stored_events, guard, **kwargs)
            try:
                saved = self._call_insert_function(stored_events, guard)
            except ProgrammingError as e:
                if f"{self.insert_function_name}(" not in str(e) or "does not exist" not in str(e):
                    raise
                self._has_function = False
                return self._insert_as_eventsourcing(stored_events, guard, **kwargs)
        except Exception as e:
            if save_guard.refused(e):
                raise save_guard.GuardRefused(str(e).splitlines()[0]) from None
            raise
        save_guard.GUARD.set(None)  # confirmed: the rest of the request's saves need not ask again
        return saved

    def _insert_as_eventsourcing(
        self, stored_events: Sequence[StoredEvent], guard: str | None, **kwargs: Any
    ) -> Sequence[int] | None:
        """eventsourcing's save, where the function is missing (tables made by an older release),
        after the guard's check in a round trip of its own: as strict as a token read first."""
        if guard is not None:
            with self.datastore.get_connection() as conn:
                conn.execute(
                    SQL("SELECT {schema}.{function}(%s)").format(
                        schema=Identifier(self.datastore.schema), function=Identifier(save_guard.FUNCTION)
                    ),
                    (guard,),
                )
        saved = super().insert_events(stored_events, **kwargs)
        save_guard.GUARD.set(None)
        return saved

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def _call_insert_function(self, stored_events: Sequence[StoredEvent], guard: str | None) -> list[int]:
        """The arrays are spelt ``ARRAY[%s, ...]`` with one scalar parameter per value: psycopg
        dumps scalars in C, but lists in Python, which cost more than the rest of the call."""
        n = len(stored_events)
        if n > MAX_SCALAR_EVENTS:
            params: list[Any] = [
                [e.originator_id for e in stored_events],
                [e.originator_version for e in stored_events],
                [e.topic for e in stored_events],
                [e.state for e in stored_events],
            ]
            key: Any = "insert"
            build: Callable[[], Composable] = lambda: self.call_insert_function  # noqa: E731
        else:
            params = [e.originator_id for e in stored_events]
            params += [e.originator_version for e in stored_events]
            params += [e.topic for e in stored_events]
            params += [e.state for e in stored_events]
            key = ("insert", n)
            build = lambda: self._insert_query(n)  # noqa: E731
        params += self.wake(stored_events) if self.wake is not None else (None, None)
        params.append(guard)
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self._statement(key, build, conn), params, prepare=True)
            return [row[0] for row in curs.fetchall()]

    def _insert_query(self, n: int) -> Composable:
        marks = ", ".join(["%s"] * n)
        arrays = ", ".join(
            f"ARRAY[{marks}]::{kind}[]" for kind in (self.datastore.originator_id_type, "bigint", "text", "bytea")
        )
        return SQL("SELECT * FROM {schema}.{function}(" + arrays + ", %s, %s, %s)").format(
            schema=Identifier(self.datastore.schema), function=Identifier(self.insert_function_name)
        )

    # ------------------------------------------------------------ reading

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        shape = ("events", gt is not None, lte is not None, desc, limit is not None)
        params = [originator_id, *(p for p in (gt, lte, limit) if p is not None)]
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self._statement(shape, lambda: self._events_query(*shape[1:]), conn), params, prepare=True)
            return [
                StoredEvent(originator_id=row[0], originator_version=row[1], topic=row[2], state=bytes(row[3]))
                for row in curs.fetchall()
            ]

    def _events_query(self, gt: bool, lte: bool, desc: bool, limit: bool) -> Composable:
        query = SQL(
            "SELECT originator_id, originator_version, topic, state FROM {schema}.{table} WHERE originator_id = %s"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        if gt:
            query += SQL(" AND originator_version > %s")
        if lte:
            query += SQL(" AND originator_version <= %s")
        query += SQL(" ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC")
        return query + SQL(" LIMIT %s") if limit else query

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        shape = ("notifications", start is not None, inclusive_of_start, stop is not None, bool(topics))
        params: list[Any] = [p for p in (start, stop) if p is not None]
        if topics:
            params.append(list(topics))
        params.append(limit)
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(
                self._statement(shape, lambda: self._notifications_query(*shape[1:]), conn), params, prepare=True
            )
            return [
                Notification(
                    id=row[4], originator_id=row[0], originator_version=row[1], topic=row[2], state=bytes(row[3])
                )
                for row in curs.fetchall()
            ]

    def _notifications_query(self, start: bool, inclusive: bool, stop: bool, topics: bool) -> Composable:
        where = []
        if start:
            where.append("notification_id >= %s" if inclusive else "notification_id > %s")
        if stop:
            where.append("notification_id <= %s")
        if topics:
            where.append("topic = ANY(%s)")
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        return SQL(
            "SELECT originator_id, originator_version, topic, state, notification_id "
            "FROM {schema}.{table}" + clause + " ORDER BY notification_id LIMIT %s"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))

    def _statement(self, key: Any, build: Callable[[], Composable], conn: psycopg.Connection[Any]) -> bytes:
        """The statement of ``key`` as bytes, composed on first use only."""
        statement = self._statements.get(key)
        if statement is None:
            statement = self._statements[key] = build().as_bytes(conn)
        return statement

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return CoalescingPostgresSubscription(recorder=self, gt=gt, topics=topics)


class CoalescingPostgresSubscription(BatchedPull, PostgresSubscription):
    """eventsourcing's LISTEN/NOTIFY subscription, which lets saves gather before it pulls."""

    GATHER = COALESCE


POOLED = "POSTGRES_POOLED"
"""An environment key of this factory: set (``y``), its connections go through a transaction pooler
(PgBouncer's transaction mode), where a statement prepared on one server connection is gone by the
next transaction; so none is prepared."""


class OneTripPostgresFactory(PostgresFactory):
    """eventsourcing's PostgreSQL factory with the one-trip application recorder; with ``POOLED``,
    its connections prepare no statement."""

    application_recorder_class = OneTripPostgresApplicationRecorder

    def __init__(self, env: Environment) -> None:
        super().__init__(env)
        if (self.env.get(POOLED) or "").lower() in ("y", "yes", "1", "true"):
            kwargs = self.datastore.pool.kwargs
            assert isinstance(kwargs, dict)
            kwargs["prepare_threshold"] = None  # the pool opens later: every connection is made so


__all__ = ["FACTORY_TOPIC", "POOLED", "OneTripPostgresApplicationRecorder", "OneTripPostgresFactory"]
