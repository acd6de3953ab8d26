"""What the services ask of the layers they may not import, as small interfaces.

``services`` never imports ``workers`` nor ``projections``: the bootstrap plugs a ``Work``
implementation in (Celery, or nothing in unit tests), and hands the services the read models
(``projections.views``), which they know only as ``GameRows`` and ``RatingRows``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Work(Protocol):
    """Background work triggered by a change of a game."""

    def game_changed(self, game: Any) -> None:
        """Called after every save: schedule bot turns, deadlines and notifications."""


class NullWork:
    """No background work (unit tests that drive everything by hand)."""

    def game_changed(self, game: Any) -> None:
        return None


class Cursor(Protocol):
    """A database cursor as ``services.common.sqlstore.Tx`` uses it (sqlite3's, psycopg's)."""

    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...

    def fetchall(self) -> Sequence[Any]: ...


class GameRows(Protocol):
    """The game read models as the services read them (``projections.views``: the list, the
    summaries, the boards, and the deadline index of ``projections.deadline_views``). Rows are
    dicts; JSON columns come decoded."""

    def game_summary(self, game_id: str) -> dict[str, Any] | None: ...

    def board(self, game_id: str) -> tuple[int, str | None] | None:
        """``(version, state JSON)`` of the game's board row, if it has one."""

    def list_games(
        self,
        status: str | None = None,
        game: str | None = None,
        player: str | None = None,
        limit: int = 50,
        offset: int = 0,
        include_sandboxes: bool = False,
    ) -> list[dict[str, Any]]: ...

    def due_games(self, high: str, low: str, overdue: str) -> list[dict[str, Any]]: ...

    def stalled_bot_games(self, before: str | None) -> list[dict[str, Any]]: ...

    def games_of_player(self, player_id: str, status: str) -> list[dict[str, Any]]: ...


class RatingRows(Protocol):
    """The rating read models as the profiles read them (``projections.rating_views``)."""

    def ratings_of(self, player_id: str) -> list[dict[str, Any]]: ...

    def results_of(self, player_id: str, limit: int) -> list[dict[str, Any]]: ...

    def record_of(self, player_id: str) -> dict[str, int]: ...

    def rating_history(self, player_id: str, game: str, limit: int, offset: int) -> list[dict[str, Any]]: ...

    def leaderboard(
        self, game: str, min_games: int, limit: int, offset: int, kind: str | None = None, settled: int | None = None
    ) -> list[dict[str, Any]]: ...

    def leaderboard_size(self, game: str, min_games: int, kind: str | None = None) -> int: ...
