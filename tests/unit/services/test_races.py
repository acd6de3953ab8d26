"""Two processes writing one store: what the loser of a race gets.

Each platform here stands for one process of a deployment on one SQLite store, with
its own cache of games. The process that loses a save finds out from the store,
loads the game again, and answers from what it finds.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from services.common import clock
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.names import fresh
from wiring import bootstrap


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    first = bootstrap(make_settings("sqlite", tmp_path, http_workers=2), work=NullWork())
    second = bootstrap(make_settings("sqlite", tmp_path, http_workers=2), work=NullWork(), projections=False)
    yield first, second
    second.close()
    first.close()


def _table(p: Any) -> tuple[str, list[str]]:
    ids = [p.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    game = p.games.create_game(ids[0], "dice-race", None, None, 2)
    for pid in ids:
        p.games.take_seat(str(game.id), pid, pid[:4], "human")
    return str(game.id), ids


def test_a_retried_command_that_loses_its_save_to_the_first_attempt_gets_its_first_result(
    two: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty copies of one request at once: a retry that loaded the game just before the first
    attempt saved loses its own save; it then finds the command in the store and returns the first
    result, where it used to answer 409 stale_version."""
    first, second = two
    gid, ids = _table(first)
    version = first.games.load(gid).version
    move = {"type": "bid", "amount": 1}
    done: dict[str, Any] = {}
    load = second.uow.load

    def load_then_the_first_attempt_saves(game_id: Any) -> Any:
        game = load(game_id)
        if not done:
            done.update(first.games.submit_move(gid, ids[0], move, expected_version=version, command_id="k"))
        return game

    monkeypatch.setattr(second.uow, "load", load_then_the_first_attempt_saves)
    again = second.games.submit_move(gid, ids[0], move, expected_version=version, command_id="k")
    assert again["replayed"] is True and again["version"] == done["version"]
    assert [e["type"] for e in again["events"]] == [e["type"] for e in done["events"]]
    assert first.games.load(gid).version == done["version"]  # stored once


def test_a_move_that_loses_its_save_with_a_stale_expected_version_is_still_409(
    two: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from services.common.errors import StaleVersion

    first, second = two
    gid, ids = _table(first)
    version = first.games.load(gid).version
    load = second.uow.load
    moved: list[bool] = []

    def load_then_another_move_saves(game_id: Any) -> Any:
        game = load(game_id)
        if not moved:
            moved.append(True)
            first.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1})
        return game

    monkeypatch.setattr(second.uow, "load", load_then_another_move_saves)
    with pytest.raises(StaleVersion):
        second.games.submit_move(
            gid, ids[1], {"type": "bid", "amount": 2}, expected_version=version, command_id="other"
        )


def test_a_scheduled_start_that_loses_the_race_writes_nothing_and_raises_nothing(two: tuple[Any, Any]) -> None:
    """The sweep and the start timer may start one scheduled game in two processes at once."""
    first, second = two
    previous = clock.use(clock.FakeClock())
    try:
        owner = first.accounts.register("owner", "human")[0].id
        starts = clock.now() + timedelta(minutes=5)
        gid = str(first.games.create_game(owner, "dice-race", None, None, 2, starts_at=starts).id)
        second.games.load(gid)
        second.uow.single_writer = True  # its cached copy still says "scheduled"
        clock._clock.advance(301)  # type: ignore[attr-defined]
        assert first.games.start_scheduled(gid, clock.now()) is True
        head = first.games.load(gid).version
        assert second.games.start_scheduled(gid, clock.now()) is False
        assert first.games.load(gid).version == head
    finally:
        clock.use(previous)
