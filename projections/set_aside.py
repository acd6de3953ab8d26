"""Games a projection could not apply, set aside so the read side goes on without them.

One game's event that the projection cannot turn into rows (a date past what ``datetime`` holds,
a value the database refuses, a bug in a handler) used to stop the runner on every attempt, so no
game created afterwards ever reached the lists. Now the projection records the game here, in the
same transaction as the batch that skipped it, and goes on with every other game's events. The
game's later events are skipped too (``last_version`` counts how far it falls behind).

Each read model keeps its own record (``READ_MODEL_TABLES``): a game the game list sets aside may
still be rated, and the other way round. Each time a runner starts (a restart, an upgrade, a leader
taking over), the game list, the boards, the deadline index and the inbox try every game they set
aside again from its first event (``RetriedProjection.retry_set_aside``): if the new code applies
them, the game's rows are rebuilt and its record removed; if not, the record keeps the new error.
The ratings, which must rate games in the stream's order, take a game back by a rebuild of their
own (``rebuild-projections --only ratings``).

``/healthz`` reads this table (``SetAsideCheck``, the ``projections.set_aside`` check), so every
process sees the games a projection process set aside; the check's count is the gauge
``dragonhall_games_set_aside``.

Only errors that the event itself causes set a game aside. A lost connection or a conflicting
write (``transient``) still stops the runner, which its leader replaces: setting games aside then
would hide a database outage behind a list of innocent games.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import psycopg
from eventsourcing.persistence import DataError, PersistenceError

from services.operations.health import Check

Change = tuple[str, Sequence[Any]]

CHECK = "projections.set_aside"
ERROR_CHARS = 500
"""The length an error is kept to: its type and the start of its message."""
SHOWN = 20
"""Games named in ``/healthz`` at most (the count is always whole)."""
GAMES_TABLE = "dh_set_aside"
"""The games the game list set aside (``projections.games``)."""
BOARDS_TABLE = "dh_board_set_aside"
"""The games the boards set aside (``projections.board_projection``)."""
RATINGS_TABLE = "dh_rating_set_aside"
"""The games the ratings set aside (``projections.rating_projection``)."""
DEADLINES_TABLE = "dh_deadline_set_aside"
"""The games the deadline index set aside (``projections.deadline_projection``)."""
INBOX_TABLE = "dh_inbox_set_aside"
"""The games the inbox set aside (``projections.inbox_projection``)."""
READ_MODEL_TABLES = {
    "games": GAMES_TABLE,
    "boards": BOARDS_TABLE,
    "ratings": RATINGS_TABLE,
    "deadlines": DEADLINES_TABLE,
    "inbox": INBOX_TABLE,
}
"""Each read model's record."""
_COLUMNS = """(
        game_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        last_version INTEGER NOT NULL,
        error TEXT NOT NULL,
        set_at TEXT NOT NULL
    )"""
TABLES = [f"CREATE TABLE IF NOT EXISTS {{p}}{table} {_COLUMNS}" for table in READ_MODEL_TABLES.values()]
TABLE_ORDER = {table: "game_id" for table in READ_MODEL_TABLES.values()}
GAME_TABLES = ("dh_games", "dh_game_players")
"""The rows of one game a retry of the game projection rebuilds from its events (the boards and
the ratings, read models of their own, are not touched)."""


def transient(error: BaseException) -> bool:
    """Whether ``error`` may pass without the event changing: the database or the process, not
    the game. Such an error stops the runner (and its leader starts another) instead."""
    if not isinstance(error, Exception):
        return True  # KeyboardInterrupt, SystemExit
    if isinstance(error, DataError | sqlite3.DataError | psycopg.DataError | OverflowError):
        return False
    return isinstance(error, PersistenceError | sqlite3.Error | psycopg.Error | ConnectionError | TimeoutError)


def describe(error: BaseException) -> str:
    """The error as stored and shown: its type and message, cut short, with no NUL (PostgreSQL's
    text refuses it)."""
    text = f"{type(error).__name__}: {error}".replace("\x00", "\\x00")
    return text[:ERROR_CHARS]


def marks(
    fresh: Mapping[str, tuple[int, str]], skipped: Mapping[str, int], at: str, table: str = GAMES_TABLE
) -> list[Change]:
    """The rows for a batch in the read model's ``table``: games newly set aside (``fresh``: from
    which version, and why), and the last version seen of every game set aside whose events the
    batch skipped."""
    out: list[Change] = []
    for gid, (version, error) in fresh.items():
        last = max(version, skipped.get(gid, version))
        out.append(
            (
                f"INSERT INTO {{p}}{table} (game_id, version, last_version, error, set_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                "last_version = excluded.last_version, error = excluded.error, set_at = excluded.set_at",
                (gid, version, last, error, at),
            )
        )
    for gid, last in skipped.items():
        if gid not in fresh:
            out.append((f"UPDATE {{p}}{table} SET last_version = ? WHERE game_id = ?", (last, gid)))
    return out


def cleared(gid: str, tables: Sequence[str] = GAME_TABLES, table: str = GAMES_TABLE) -> list[Change]:
    """Removes a game's rows in ``tables`` and its record in ``table``, before its events are
    applied again."""
    return [(f"DELETE FROM {{p}}{t} WHERE game_id = ?", (gid,)) for t in (*tables, table)]


def still(gid: str, error: str, last_version: int, at: str, table: str = GAMES_TABLE) -> Change:
    """A retry that failed again: the record keeps the newest error."""
    return (
        f"UPDATE {{p}}{table} SET error = ?, last_version = ?, set_at = ? WHERE game_id = ?",
        (error, last_version, at, gid),
    )


class SetAsideRows(Protocol):
    """Where the check reads the games set aside (``projections.views``, which imports this module)."""

    def set_aside_games(self, table: str = GAMES_TABLE) -> list[dict[str, Any]]: ...


class SetAsideCheck:
    """The ``projections.set_aside`` check: degraded while any game is set aside, naming them
    (up to ``SHOWN``), the read model that set each aside, the version from which each waits,
    how many of its events wait, and why."""

    def __init__(self, view: SetAsideRows) -> None:
        self.view = view

    def __call__(self) -> Check:
        rows = [
            {**row, "read_model": model}
            for model, table in READ_MODEL_TABLES.items()
            for row in self.view.set_aside_games(table)
        ]
        games = [_shown(r) for r in rows[:SHOWN]]
        detail: dict[str, Any] = {"count": len(rows), "games": games}
        if not rows:
            return Check(CHECK, True, "no game set aside", detail)
        return Check(
            CHECK,
            False,
            f"{len(rows)} games set aside: the read models cannot apply their events (each read model but the "
            "ratings retries them when a projection runner starts, e.g. after an upgrade; the ratings take them "
            "back by `dragonhall rebuild-projections --only ratings`)",
            detail,
        )


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": row["game_id"],
        "read_model": row["read_model"],
        "since_version": row["version"],
        "events_waiting": row["last_version"] - row["version"] + 1,
        "error": row["error"],
        "set_at": row["set_at"],
    }
