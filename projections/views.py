"""The game read models, as ``eventsourcing`` tracking recorders.

Three tables of games (and the rating tables of ``projections.rating_views``, the deadline
index of ``projections.deadline_views``), rebuilt from the event stream, the first two by the
game list's projection (``projections.games``), the boards by their own
(``projections.board_projection``):

* ``dh_games``: one row per game: the list and each game's summary (status,
  version, seats, awaiting seats, outcome);
* ``dh_game_players``: who sits at which game, for filtering the list by player;
* ``dh_boards``: each game's latest rules state (JSON), from which the API renders
  a board view per viewer with ``domain.view``.

Every update is written in the same transaction as its tracking record, so each
event is processed exactly once and a restarted runner resumes where it stopped.
The SQL is written once with ``?`` placeholders; the PostgreSQL class rewrites them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteCursor, SQLiteTrackingRecorder
from psycopg import Cursor
from psycopg.rows import DictRow

from projections import deadline_views, rating_views, set_aside
from services.common.event_store import EventStore

Change = tuple[str, Sequence[Any]]
Carry = Callable[[Any, Callable[[str], str]], None]
"""Copies, within a transaction (its cursor, and the dialect's ``_sql``), what a read model takes
over from the one whose position it shared (``GameViewsSQL.take_position_from``)."""
VIEWS = "dragonhall_views"
"""The name that picks the read models' database settings (``DRAGONHALL_VIEWS_*``), and of the
PostgreSQL table of their tracking records (``dragonhall_views_tracking``)."""

TABLES = [
    """CREATE TABLE IF NOT EXISTS {p}dh_games (
        game_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        seats TEXT NOT NULL,
        planned_seats INTEGER NOT NULL,
        awaiting TEXT NOT NULL,
        creator TEXT NOT NULL,
        options TEXT NOT NULL,
        time_control TEXT NOT NULL,
        starts_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        outcome TEXT,
        sandbox INTEGER NOT NULL DEFAULT 0,
        seed_commitment TEXT NOT NULL,
        clock TEXT NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX IF NOT EXISTS dh_games_status ON {p}dh_games (status, updated_at)",
    """CREATE TABLE IF NOT EXISTS {p}dh_game_players (
        game_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (game_id, player_id)
    )""",
    "CREATE INDEX IF NOT EXISTS dh_game_players_player ON {p}dh_game_players (player_id)",
    """CREATE TABLE IF NOT EXISTS {p}dh_boards (
        game_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        state TEXT
    )""",
    *rating_views.TABLES,
    *deadline_views.TABLES,
    *set_aside.TABLES,
]
TABLE_ORDER = {
    "dh_games": "game_id",
    "dh_game_players": "game_id, player_id",
    "dh_boards": "game_id",
    **rating_views.TABLE_ORDER,
    **deadline_views.TABLE_ORDER,
    **set_aside.TABLE_ORDER,
}
VIEW_TABLES = tuple(TABLE_ORDER)
READ_MODEL_TABLES = {
    "games": ("dh_games", "dh_game_players", set_aside.GAMES_TABLE),
    "boards": ("dh_boards", set_aside.BOARDS_TABLE),
    "ratings": (*rating_views.TABLE_ORDER, set_aside.RATINGS_TABLE),
    "deadlines": (*deadline_views.TABLE_ORDER, set_aside.DEADLINES_TABLE),
    "inbox": (set_aside.INBOX_TABLE,),
}
"""Each read model and the tables it alone writes: it is rebuilt alone by rebuilding these. (The
inbox writes to the account feed, which it shares with the services and never rewrites:
``projections.inbox_projection``.)"""
READ_MODELS = tuple(READ_MODEL_TABLES)


def tracking_name(read_model: str, app_name: str = EventStore.name) -> str:
    """The name of a read model's tracking record, one per read model in the one tracking table:
    the game list keeps the event store's own name (``EventStore.name``), the position every read
    model shared before each had its own; the others add theirs to it."""
    return app_name if read_model == "games" else f"{app_name}.{read_model}"


RETIRED = {"dh_games": (("dh_games_deadline", "dh_games_reminder"), ("next_deadline", "next_reminder", "bots_awaited"))}
"""Per table, the indexes and columns an older version wrote and this one drops at start: the
deadline columns the game list held before the deadline index was a read model of its own
(``projections.deadline_views``, which computes its rows from the game list's clock, not from these)."""


JSON_COLUMNS = ("seats", "awaiting", "options", "time_control", "outcome", "clock", "bot_seats")


class GameViewsSQL(rating_views.RatingQueries, deadline_views.DeadlineQueries, TrackingRecorder):
    """Writes and queries of the game read models, shared by both databases: a tracking
    recorder, completed by the database's own (``SQLiteGameViews``, ``PostgresGameViews``)."""

    dialect = "sqlite"
    prefix = ""

    if TYPE_CHECKING:  # what the database's tracking recorder brings
        datastore: Any

        def _insert_tracking(self, c: Any, tracking: Tracking) -> None: ...

    @contextmanager
    def _cursor(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as c:
            yield c

    def _sql(self, sql: str) -> str:
        return _in_dialect(sql, self.prefix, self.dialect)

    def _create_view_tables(self, c: Any) -> None:
        for statement in TABLES:
            c.execute(self._sql(statement))
        self._drop_retired_columns(c)

    def _drop_retired_columns(self, c: Any) -> None:
        """Drops the columns an older version left on an upgraded database (``RETIRED``), with their
        indexes; checked first, so a start that finds none takes no lock on the table."""
        for table, (indexes, columns) in RETIRED.items():
            left = [column for column in columns if column in self._columns(c, table)]
            if not left:
                continue
            for index in indexes:
                c.execute(self._sql(f"DROP INDEX IF EXISTS {{p}}{index}"))
            for column in left:
                self._drop_column(c, table, column)

    def _columns(self, c: Any, table: str) -> set[str]:
        c.execute(f"PRAGMA table_info({table})")
        return {row["name"] for row in c.fetchall()}

    def _drop_column(self, c: Any, table: str, column: str) -> None:
        try:
            c.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        except sqlite3.OperationalError as e:  # another process starting beside this one dropped it first
            if "no such column" not in str(e):
                raise

    def apply(self, changes: Sequence[Change], tracking: Tracking) -> None:
        """Applies the changes and records the tracking position in one transaction."""
        self.apply_all([(changes, tracking)])

    def apply_all(self, writes: Sequence[tuple[Sequence[Change], Tracking]]) -> None:
        """Applies several read models' changes, each with its tracking record, in one transaction."""
        with self._cursor(commit=True) as c:
            for changes, tracking in writes:
                self._execute(c, changes)
                self._insert_tracking(c, tracking)

    def write(self, changes: Sequence[Change]) -> None:
        """Applies changes that move no position (boards written out at shutdown)."""
        with self._cursor(commit=True) as c:
            self._execute(c, changes)

    def _execute(self, c: Any, changes: Sequence[Change]) -> None:
        for sql, params in changes:
            c.execute(self._sql(sql), tuple(params))

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self._cursor(commit=False) as c:
            c.execute(self._sql(sql), tuple(params))
            return [_decode_row(dict(r)) for r in c.fetchall()]

    # ------------------------------------------------------------ queries

    def game_summary(self, game_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM {p}dh_games WHERE game_id = ?", (game_id,))
        return rows[0] if rows else None

    def board(self, game_id: str) -> tuple[int, str | None] | None:
        with self._cursor(commit=False) as c:
            c.execute(self._sql("SELECT version, state FROM {p}dh_boards WHERE game_id = ?"), (game_id,))
            row = c.fetchone()
        return None if row is None else (int(row["version"]), row["state"])

    def list_games(
        self,
        status: str | None = None,
        game: str | None = None,
        player: str | None = None,
        limit: int = 50,
        offset: int = 0,
        include_sandboxes: bool = False,
    ) -> list[dict[str, Any]]:
        where, params = [], []
        if status:
            where.append("g.status = ?")
            params.append(status)
        if game:
            where.append("g.game = ?")
            params.append(game)
        if player:
            where.append("g.game_id IN (SELECT game_id FROM {p}dh_game_players WHERE player_id = ?)")
            params.append(player)
        if not include_sandboxes:
            where.append("g.sandbox = 0")
        sql = "SELECT * FROM {p}dh_games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.updated_at DESC, g.game_id LIMIT ? OFFSET ?"
        return self._rows(sql, (*params, limit, offset))

    def games_of_player(self, player_id: str, status: str) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT g.* FROM {p}dh_games g JOIN {p}dh_game_players p ON p.game_id = g.game_id "
            "WHERE p.player_id = ? AND g.status = ?",
            (player_id, status),
        )

    def set_aside_games(self, table: str = set_aside.GAMES_TABLE) -> list[dict[str, Any]]:
        """The games a read model set aside (``projections.set_aside``; by default the game
        list's), oldest first."""
        return self._rows(f"SELECT * FROM {{p}}{table} ORDER BY set_at, game_id")

    def positions(self) -> dict[str, int | None]:
        """Each read model's position: the last event it has processed."""
        return {model: self.max_tracking_id(tracking_name(model)) for model in READ_MODELS}

    def all_game_ids(self) -> list[str]:
        return [r["game_id"] for r in self._rows("SELECT game_id FROM {p}dh_games ORDER BY game_id")]

    def dump(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every view table, in a stable order (to compare rebuilds)."""
        out = {}
        for table, order in TABLE_ORDER.items():
            out[table] = self._rows(f"SELECT * FROM {{p}}{table} ORDER BY {order}")
        return out

    def start_position(self, name: str, position: int) -> None:
        """Records the tracking record ``name`` at ``position``, unless it is recorded already."""
        with self._cursor(commit=True) as c:
            self._record_position(c, name, position)

    def take_position_from(self, name: str, source: str, carry: Carry | None = None) -> None:
        """Starts the read model of tracking record ``name`` where ``source``'s stands, the first
        time a version runs that gives it a position of its own (it shared ``source``'s before),
        in one transaction: ``carry`` first copies what ``source``'s projection wrote for it up to
        there. From the first event if ``source`` has no position; a read model with a position,
        even one set back to 0 by a rebuild, keeps it."""
        with self._cursor(commit=True) as c:
            if self._position_in(c, name) is not None:
                return
            position = self._position_in(c, source) or 0
            if position and carry is not None:
                carry(c, self._sql)
            self._record_position(c, name, position)

    def _position_in(self, c: Any, name: str) -> int | None:
        """Tracking record ``name``'s position, read in the transaction ``c``."""
        sql = f"SELECT MAX(notification_id) AS n FROM {self._tracking_table()} WHERE application_name = ?"
        c.execute(self._sql(sql), (name,))
        found = c.fetchone()
        return None if found is None or found["n"] is None else int(found["n"])

    def _record_position(self, c: Any, name: str, position: int) -> None:
        c.execute(
            self._sql(
                f"INSERT INTO {self._tracking_table()} (application_name, notification_id) VALUES (?, ?) "
                "ON CONFLICT (application_name) DO NOTHING"
            ),
            (name, position),
        )

    def drop_views(self, *read_models: str) -> None:
        """Empties the read models (all of them, if none is named) and sets their positions back
        to the start, in one transaction: the next runner rebuilds them from the first event,
        while every other read model skips the events it has already processed."""
        with self._cursor(commit=True) as c:
            for model in read_models or READ_MODELS:
                for table in READ_MODEL_TABLES[model]:
                    c.execute(self._sql(f"DELETE FROM {{p}}{table}"))
                name, table = (tracking_name(model),), self._tracking_table()
                c.execute(self._sql(f"DELETE FROM {table} WHERE application_name = ?"), name)
                c.execute(self._sql(f"INSERT INTO {table} (application_name, notification_id) VALUES (?, 0)"), name)

    def _tracking_table(self) -> str:
        return "tracking"


class SQLiteGameViews(GameViewsSQL, SQLiteTrackingRecorder):
    """The read models in a SQLite database."""

    def _create_table(self, c: SQLiteCursor) -> None:
        super()._create_table(c)
        self._create_view_tables(c)


class PostgresGameViews(GameViewsSQL, PostgresTrackingRecorder):
    """The read models in a PostgreSQL schema."""

    dialect = "postgres"

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.prefix = f'"{datastore.schema}".' if datastore.schema else ""

    def _create_table(self, curs: Cursor[DictRow]) -> None:
        super()._create_table(curs)
        self._create_view_tables(curs)

    def _tracking_table(self) -> str:
        return f"{self.prefix}{self.tracking_table_name}"

    def _columns(self, c: Any, table: str) -> set[str]:
        c.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = COALESCE(NULLIF(%s, ''), current_schema()) AND table_name = %s",
            (self.datastore.schema, table),
        )
        return {row["column_name"] for row in c.fetchall()}

    def _drop_column(self, c: Any, table: str, column: str) -> None:
        c.execute(f"ALTER TABLE {self.prefix}{table} DROP COLUMN IF EXISTS {column}")

    def apply_all(self, writes: Sequence[tuple[Sequence[Change], Tracking]]) -> None:
        """As on SQLite, but pipelined: the batch's statements go to the server without
        waiting for each other's answers, so a batch costs a round trip per read model's
        tracking record (each checked), not one per row."""
        with self.datastore.get_connection() as conn, conn.pipeline(), conn.transaction():
            c = conn.cursor()
            for changes, tracking in writes:
                self._execute(c, changes)
                self._insert_tracking(c, tracking)


@lru_cache(maxsize=4096)
def _in_dialect(sql: str, prefix: str, dialect: str) -> str:
    """``sql`` with its table prefix and placeholders for ``dialect`` (remembered: the same
    few statements recur for every batch)."""
    sql = sql.replace("{p}", prefix)
    return sql.replace("?", "%s") if dialect == "postgres" else sql


def _decode_row(row: dict[str, Any]) -> dict[str, Any]:
    for key in JSON_COLUMNS:
        if key in row and isinstance(row[key], str):
            row[key] = json.loads(row[key])
    return row


def carry_set_aside_to_boards(c: Any, sql: Callable[[str], str]) -> None:
    """What the boards take over from the game list: the games it set aside, set aside from the
    boards too. Their rows stop before their last events, and the boards retry them from the store
    when a runner starts."""
    boards, listed = set_aside.BOARDS_TABLE, set_aside.GAMES_TABLE
    c.execute(sql(f"INSERT INTO {{p}}{boards} SELECT * FROM {{p}}{listed} WHERE true ON CONFLICT DO NOTHING"))
