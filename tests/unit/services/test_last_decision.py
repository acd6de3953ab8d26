"""The last seat decision up to a version, read from the newest events back (board.svg marks it)."""

from __future__ import annotations

from typing import Any

import pytest

from services.play.aggregate import Game
from services.play.unit_of_work import game_uuid
from tests.support.names import fresh


def _table(platform: Any) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, 2)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, pid[:4], "human")
    return str(game.id), ids


@pytest.mark.parametrize("store", ["platform", "sqlite_platform"])
def test_the_newest_events_come_back_newest_first_across_pages(store: str, request: pytest.FixtureRequest) -> None:
    platform = request.getfixturevalue(store)
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    versions = [e.originator_version for e in platform.games.stored_events(gid)]
    head = versions[-1]
    latest = platform.games.store.latest_events(game_uuid(gid), head - 1, page=2)
    assert [e.originator_version for e in latest] == list(reversed(versions[:-1]))


def test_the_last_decision_is_the_newest_move_up_to_the_version(platform: Any) -> None:
    gid, ids = _table(platform)
    started = platform.games.load(gid).version
    assert platform.games.last_decision(gid, started) is None  # seats and deals are no decisions
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    first = platform.games.load(gid).version
    platform.games.submit_move(gid, ids[1], {"type": "bid", "amount": 1})
    found = platform.games.last_decision(gid, platform.games.load(gid).version)
    assert isinstance(found, Game.MoveMade) and found.seat == 1 and found.move["amount"] == 1
    earlier = platform.games.last_decision(gid, first)
    assert isinstance(earlier, Game.MoveMade) and earlier.seat == 0 and earlier.originator_version < first


def test_a_replay_marks_a_secret_decision_as_its_reader_may_see_it_now(platform: Any) -> None:
    """A bid is secret while the game runs; once it has ended, the replay of its past versions
    reveals the whole board, and the last decision marked on it too."""
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    at = platform.games.load(gid).version
    queries = platform.queries
    running = queries.last_decision(queries.replay(gid, None, at), None, None)
    assert running is not None and running["move"] == {"type": "bid", "amount": {"hidden": True}}
    platform.games.submit_move(gid, ids[1], {"type": "bid", "amount": 1})
    platform.games.resign(gid, ids[1])
    assert platform.games.revealed(platform.games.load(gid))
    ended = queries.last_decision(queries.replay(gid, None, at), None, None)
    assert ended is not None and ended["move"] == {"type": "bid", "amount": 2}
