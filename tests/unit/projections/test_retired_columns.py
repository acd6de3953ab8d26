"""An upgraded database loses the columns an older version wrote and this one does not.

Before the deadline index was a read model of its own, ``dh_games`` held each game's next
deadline, next reminder and awaited server bot, with two indexes. A database upgraded from
then kept them: dead columns that every game list rebuild and dump carried, unlike a fresh one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from services.common.ports import NullWork
from tests.conftest import make_settings
from wiring import bootstrap

OLD = [
    "ALTER TABLE {p}dh_games ADD COLUMN next_deadline TEXT",
    "ALTER TABLE {p}dh_games ADD COLUMN next_reminder TEXT",
    "ALTER TABLE {p}dh_games ADD COLUMN bots_awaited INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX dh_games_deadline ON {p}dh_games (next_deadline)",
    "CREATE INDEX dh_games_reminder ON {p}dh_games (next_reminder)",
]
"""What the older version's schema had more than this one's."""


@pytest.fixture(params=["sqlite", "postgres"])
def settings(request: Any, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        return make_settings("sqlite", tmp_path, embedded_projections=False)
    url, schema = request.getfixturevalue("pg_url"), request.getfixturevalue("pg_schema")
    return make_settings("postgres", tmp_path, database_url=url, postgres_schema=schema, embedded_projections=False)


def _columns(platform: Any) -> set[str]:
    views = platform.views
    with views._cursor(commit=False) as c:
        return views._columns(c, "dh_games")


def test_a_start_drops_the_deadline_columns_an_upgraded_game_list_still_holds(settings: Any) -> None:
    platform = bootstrap(settings, projections=False, work=NullWork())
    try:
        fresh = _columns(platform)
        platform.views.write([(statement, ()) for statement in OLD])
        rows = [("g1", "tarasque", "standard", "open", 1, "[]", 2, "[]", "me", "{}", "{}", "t", "t", "commit")]
        platform.views.write(
            [
                (
                    "INSERT INTO {p}dh_games (game_id, game, variant, status, version, seats, planned_seats, awaiting, "
                    "creator, options, time_control, created_at, updated_at, seed_commitment, next_deadline) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'soon')",
                    row,
                )
                for row in rows
            ]
        )
        assert _columns(platform) == fresh | {"next_deadline", "next_reminder", "bots_awaited"}
    finally:
        platform.close()
    for _ in range(2):  # the upgraded start, and one after it that finds nothing to drop
        platform = bootstrap(settings, projections=False, work=NullWork())
        try:
            assert _columns(platform) == fresh
            assert [r["game_id"] for r in platform.views.dump()["dh_games"]] == ["g1"]
        finally:
            platform.close()
