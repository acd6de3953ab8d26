"""Which errors set a game aside: those its events cause, never those of the database or the process."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import DataError, IntegrityError, OperationalError, Tracking

from projections import set_aside
from projections.games import GameProjection
from tests.support.rated_games import fresh_views


@pytest.mark.parametrize(
    "error", [OverflowError("year 10000"), ValueError("x"), KeyError("x"), DataError("x"), psycopg.DataError("x")]
)
def test_an_error_of_the_event_sets_its_game_aside(error: Exception) -> None:
    assert not set_aside.transient(error)


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection lost"),
        IntegrityError("another runner wrote this position"),
        sqlite3.OperationalError("database is locked"),
        psycopg.OperationalError("server closed the connection"),
        ConnectionResetError(),
        KeyboardInterrupt(),
    ],
)
def test_an_error_of_the_database_or_the_process_stops_the_runner_instead(error: BaseException) -> None:
    assert set_aside.transient(error)


def test_a_lost_connection_sets_no_game_aside_and_writes_nothing(platform: Any, monkeypatch: Any) -> None:
    """The runner stops on it (its leader starts another, which resumes where this one stopped)."""
    table = platform.games.create_game("p", "dice-race", None, None, 2)
    (created,) = list(platform.games.stored_events(str(table.id)))
    views = fresh_views()
    projection = GameProjection(views)

    def lost(*args: Any) -> None:
        raise OperationalError("connection lost")

    monkeypatch.setattr(views, "apply", lost)
    with pytest.raises(OperationalError):
        projection.process_batch([(created, Tracking("dragonhall", 1))])
    monkeypatch.undo()
    assert views.set_aside_games() == [] and views.game_summary(str(table.id)) is None
    projection.process_batch([(created, Tracking("dragonhall", 1))])  # the next runner applies it
    assert views.game_summary(str(table.id))["status"] == "open"
