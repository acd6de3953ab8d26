"""Ratings on PostgreSQL: the same tables as the SQLite read models, and a rebuild from zero equal to
the incremental projection."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.rated_games import play_table, rating_tables, rebuild
from wiring import bootstrap

pytestmark = pytest.mark.postgres


def test_ratings_rebuilt_from_zero_on_postgres_equal_the_incremental_ones(
    tmp_path: Path, pg_url: str, pg_schema: str
) -> None:
    settings = make_settings("postgres", tmp_path, database_url=pg_url, postgres_schema=pg_schema)
    platform = bootstrap(settings, work=NullWork(), projections=True)
    try:
        rng = random.Random(11)
        for players in ([("a", "greedy"), ("b", "random")], [("a", "greedy"), ("b", "random"), ("c", "random")]):
            play_table(platform, "seven-dragons", players, rng)
        platform.wait_for_projections()
        incremental = rating_tables(platform.views)
        assert len(incremental["dh_rating_history"]) == 5
        rebuilt = rating_tables(rebuild(platform.store))  # into SQLite: the same numbers from either database
        for table in ("dh_ratings", "dh_rating_history"):
            assert [(r["player_id"], r["mu"], r["sigma"]) for r in rebuilt[table]] == [
                (r["player_id"], r["mu"], r["sigma"]) for r in incremental[table]
            ]
        board = platform.views.leaderboard("seven-dragons", 0, 10, 0)
        assert sorted(r["player_id"] for r in board) == ["a", "b", "c"]
        assert platform.views.record_of("a")["played"] == 2
    finally:
        platform.close()
