"""The deadline index: its table and queries, mixed into the game read models.

``dh_deadlines`` holds one row per game, written by the deadline projection
(``projections.deadline_projection``) in the same transactions as its own tracking records:
what the deadlines need of the game (its status, time control, the seats a server bot plays,
its clock and awaited seats: the projection reads them back after a restart, reading no other
read model) and what is due: ``next_deadline`` and ``next_reminder`` (in the sortable form of
``clocks_key``) and ``bots_awaited``, which the sweep (``services.deadlines.timers``) reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

from projections import deadline_index, set_aside
from services.common.visibility import ENDED

log = logging.getLogger(__name__)

TABLE = "dh_deadlines"
TABLES = [
    f"""CREATE TABLE IF NOT EXISTS {{p}}{TABLE} (
        game_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        time_control TEXT NOT NULL,
        bot_seats TEXT NOT NULL,
        clock TEXT NOT NULL,
        awaiting TEXT NOT NULL,
        next_deadline TEXT,
        next_reminder TEXT,
        bots_awaited INTEGER NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    f"CREATE INDEX IF NOT EXISTS dh_deadlines_deadline ON {{p}}{TABLE} (next_deadline)",
    f"CREATE INDEX IF NOT EXISTS dh_deadlines_reminder ON {{p}}{TABLE} (next_reminder)",
]
TABLE_ORDER = {TABLE: "game_id"}
"""Each table and the order ``dump`` lists it in (to compare rebuilds)."""
COLUMNS = (
    "game_id, status, time_control, bot_seats, clock, awaiting, next_deadline, next_reminder, bots_awaited, updated_at"
)
UPSERT = (
    f"INSERT INTO {{p}}{TABLE} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS.split(", ")[1:])
)
"""A game's row, written whole once per batch that changes it."""


class DeadlineQueries:
    """The deadline index's queries, mixed into ``GameViewsSQL``, whose ``_rows`` runs them."""

    _rows: Callable[..., list[dict[str, Any]]]

    def deadline_row(self, game_id: str) -> dict[str, Any] | None:
        """A game's row, as the deadline projection last wrote it (JSON columns decoded)."""
        rows = self._rows(f"SELECT * FROM {{p}}{TABLE} WHERE game_id = ?", (game_id,))
        return rows[0] if rows else None

    def due_games(self, high: str, low: str, overdue: str) -> list[dict[str, Any]]:
        """Running or scheduled games whose next deadline, reminder or start falls in
        ``(low, high]`` or at or before ``overdue`` (all in the sortable form of ``clocks_key``)."""
        return self._rows(
            f"SELECT game_id FROM {{p}}{TABLE} WHERE status IN ('active', 'scheduled') AND ("
            "(next_deadline > ? AND next_deadline <= ?) OR next_deadline <= ? OR "
            "(next_reminder > ? AND next_reminder <= ?) OR next_reminder <= ?) ORDER BY next_deadline",
            (low, high, overdue, low, high, overdue),
        )

    def stalled_bot_games(self, before: str | None) -> list[dict[str, Any]]:
        """Running games awaiting a server bot that has not moved since ``before`` (with None, all of them)."""
        sql = f"SELECT game_id FROM {{p}}{TABLE} WHERE status = 'active' AND bots_awaited = 1"
        if before is None:
            return self._rows(sql)
        return self._rows(sql + " AND updated_at < ?", (before,))


def carry_game_list_to_deadlines(c: Any, sql: Callable[[str], str]) -> None:
    """What the deadline index takes over from the game list: a row for each game it holds, its
    deadlines computed from the clock the game list keeps (not from deadline columns it may have
    held: a game list rebuilt by this version holds none). A game the game list set aside is not
    taken: its row there stops before its last events, so its next event sets it aside from the
    deadlines too."""
    c.execute(sql(GAME_LIST_ROWS))
    for row in _from_game_list([dict(r) for r in c.fetchall()]):
        c.execute(sql(UPSERT), row)


GAME_LIST_ROWS = (
    "SELECT game_id, status, time_control, seats, clock, awaiting, starts_at, updated_at FROM {p}dh_games "
    f"WHERE game_id NOT IN (SELECT game_id FROM {{p}}{set_aside.GAMES_TABLE})"
)


def _from_game_list(rows: list[dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    """The deadline rows of the game list's rows: the deadlines of a running game from its clock,
    a scheduled one's start, nothing due for the others. A row whose deadlines cannot be computed
    is left out (its game's next event sets it aside)."""
    for row in rows:
        try:
            tc, seats = _json(row["time_control"]), _json(row["seats"])
            clock = deadline_index.clock_of(_json(row["clock"] or "{}"), _json(row["awaiting"]))
            bots = {s["seat"] for s in seats if s.get("bot")}
            if row["status"] == "active":
                due = deadline_index.timing(tc, clock, bots)
            elif row["status"] in ENDED:
                due = deadline_index.NO_TIMING
            else:  # open, or scheduled: due at its start
                due = deadline_index.starts(row["starts_at"])
        except Exception as e:
            log.warning("game %s left out of the deadline index it takes from the game list: %s", row["game_id"], e)
            continue
        yield (
            row["game_id"], row["status"], json.dumps(tc), json.dumps(sorted(bots)), deadline_index.clock_json(clock),
            json.dumps(clock["awaiting"]), due["next_deadline"], due["next_reminder"], due["bots_awaited"],
            row["updated_at"],
        )  # fmt: skip


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
