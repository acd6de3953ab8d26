"""The rating read models: tables and queries, mixed into the game read models.

Five tables, rebuilt from the event stream by the rating projection
(``projections.rating_projection``), in the same transactions as its own tracking records, so
each finished game counts exactly once:

* ``dh_rating_games``: per game, what decides whether it is rated (the ``rated`` flag chosen
  at creation, sandbox, whether a seat made a decision) and, once it has ended, the verdict;
* ``dh_results``: one row per seat of every ended game (not sandboxes): place, rated or not;
  profiles count games played and won and list recent games from it;
* ``dh_ratings``: one row per player and game: mu, sigma, the ordinal leaderboards sort by;
* ``dh_rating_history``: one row per player and rated game: the rating before and after;
* ``dh_rating_seats``: the seats of each game not yet ended (a JSON list), which the ratings
  need when it ends: the rating projection keeps them itself, reading no other read model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TABLES = [
    """CREATE TABLE IF NOT EXISTS {p}dh_rating_games (
        game_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        rated INTEGER NOT NULL,
        sandbox INTEGER NOT NULL,
        decided INTEGER NOT NULL DEFAULT 0,
        verdict TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS {p}dh_results (
        player_id TEXT NOT NULL,
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        status TEXT NOT NULL,
        place INTEGER,
        seats INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        ended_at TEXT NOT NULL,
        PRIMARY KEY (player_id, game_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS dh_results_recent ON {p}dh_results (player_id, ended_at)",
    """CREATE TABLE IF NOT EXISTS {p}dh_ratings (
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        bot TEXT,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        ordinal DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (player_id, game)
    )""",
    "CREATE INDEX IF NOT EXISTS dh_ratings_board ON {p}dh_ratings (game, ordinal)",
    """CREATE TABLE IF NOT EXISTS {p}dh_rating_history (
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        n INTEGER NOT NULL,
        game_id TEXT NOT NULL,
        place INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (player_id, game, n)
    )""",
    """CREATE TABLE IF NOT EXISTS {p}dh_rating_seats (
        game_id TEXT PRIMARY KEY,
        seats TEXT NOT NULL
    )""",
]
TABLE_ORDER = {
    "dh_rating_games": "game_id",
    "dh_results": "player_id, game_id, seat",
    "dh_ratings": "player_id, game",
    "dh_rating_history": "player_id, game, n",
    "dh_rating_seats": "game_id",
}
"""Each table and the order ``dump`` lists it in (to compare rebuilds)."""

RESULT_COLUMNS = "game_id, seat, game, variant, status, place, seats, rated, ended_at"


class RatingQueries:
    """The rating and result queries of the read models, mixed into ``GameViewsSQL``, whose
    ``_rows`` runs them."""

    _rows: Callable[..., list[dict[str, Any]]]

    def rating_game(self, game_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM {p}dh_rating_games WHERE game_id = ?", (game_id,))
        return rows[0] if rows else None

    def rating_seats(self, game_id: str) -> list[dict[str, Any]] | None:
        """The seats of a game not yet ended, as the rating projection last wrote them."""
        rows = self._rows("SELECT seats FROM {p}dh_rating_seats WHERE game_id = ?", (game_id,))
        return list(rows[0]["seats"]) if rows else None  # ``seats`` is decoded with every JSON column

    def rating(self, player_id: str, game: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM {p}dh_ratings WHERE player_id = ? AND game = ?", (player_id, game))
        return rows[0] if rows else None

    def ratings_of(self, player_id: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM {p}dh_ratings WHERE player_id = ? ORDER BY game", (player_id,))

    def rating_history(self, player_id: str, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT * FROM {p}dh_rating_history WHERE player_id = ? AND game = ? ORDER BY n DESC LIMIT ? OFFSET ?",
            (player_id, game, limit, offset),
        )

    def leaderboard(
        self, game: str, min_games: int, limit: int, offset: int, kind: str | None = None, settled: int | None = None
    ) -> list[dict[str, Any]]:
        """Players of ``game`` with at least ``min_games`` rated games (of ``kind``, human or bot,
        if given): best ordinal first; or, given ``settled``, those with that many games first,
        each part by mu, best first (the order people read on the familiar scale)."""
        where, params = self._board_filter(game, min_games, kind)
        order = "ordinal DESC"
        if settled is not None:
            order, params = "CASE WHEN games >= ? THEN 0 ELSE 1 END, mu DESC", [*params, settled]
        return self._rows(
            f"SELECT * FROM {{p}}dh_ratings WHERE {where} ORDER BY {order}, player_id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )

    def leaderboard_size(self, game: str, min_games: int, kind: str | None = None) -> int:
        where, params = self._board_filter(game, min_games, kind)
        rows = self._rows(f"SELECT COUNT(*) AS n FROM {{p}}dh_ratings WHERE {where}", params)
        return int(rows[0]["n"])

    @staticmethod
    def _board_filter(game: str, min_games: int, kind: str | None) -> tuple[str, list[Any]]:
        where, params = "game = ? AND games >= ?", [game, min_games]
        if kind is not None:
            where, params = where + " AND kind = ?", [*params, kind]
        return where, params

    def results_of(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        """The player's latest ended games, one row per seat, latest first."""
        return self._rows(
            f"SELECT {RESULT_COLUMNS} FROM {{p}}dh_results WHERE player_id = ? "
            "ORDER BY ended_at DESC, game_id, seat LIMIT ?",
            (player_id, limit),
        )

    def record_of(self, player_id: str) -> dict[str, int]:
        """Games the player finished (not abandoned ones), and those with a seat placed first."""
        rows = self._rows(
            "SELECT COUNT(DISTINCT game_id) AS played, "
            "COUNT(DISTINCT CASE WHEN place = 1 THEN game_id END) AS won "
            "FROM {p}dh_results WHERE player_id = ? AND status = 'finished'",
            (player_id,),
        )
        return {"played": int(rows[0]["played"] or 0), "won": int(rows[0]["won"] or 0)}

    def seat_name(self, player_id: str) -> dict[str, Any] | None:
        """The name and kind a player (a server bot, which has no account) last played under."""
        rows = self._rows(
            "SELECT name, kind, bot FROM {p}dh_ratings WHERE player_id = ? ORDER BY updated_at DESC LIMIT 1",
            (player_id,),
        )
        return rows[0] if rows else None
