"""``dragonhall rebuild-projections`` beside a running deployment, on SQLite and the real PostgreSQL.

The rebuild takes the projections' lock or refuses, builds the read models beside the
live ones, and swaps them in with one transaction: the live read models are never
emptied, never go back, and a failed rebuild leaves them as they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from services.common.ports import NullWork
from tests.support.names import fresh
from wiring import bootstrap
from wiring import rebuild as rebuilding
from wiring.rebuild import ProjectionsLed, rebuild_projections


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment of a store, set for the command too."""
    env = {"DRAGONHALL_STORE": request.param, "DRAGONHALL_DATA_DIR": str(tmp_path), "DRAGONHALL_SECRET_KEY": "11" * 32}
    if request.param == "postgres":
        pg_url = request.getfixturevalue("pg_url")
        env |= {"DRAGONHALL_DATABASE_URL": pg_url, "DRAGONHALL_POSTGRES_SCHEMA": request.getfixturevalue("pg_schema")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    yield env


def _settings(env: dict[str, str]) -> Any:
    from services.common.config import Settings

    return Settings.from_env(env)


def _leading(env: dict[str, str]) -> Any:
    platform = bootstrap(_settings(env), work=NullWork())
    assert platform.leader is not None and platform.leader.runner is not None, "this platform runs the projections"
    return platform


def _play(platform: Any, games: int = 3) -> list[str]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    made = []
    for _ in range(games):
        game = platform.games.create_game(ids[0], "dice-race", None, None, 2)
        gid = str(game.id)
        for pid in ids:
            platform.games.take_seat(gid, pid, pid[:4], "human")
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
        made.append(gid)
    platform.wait_for_projections()
    return made


def _position(platform: Any) -> int:
    return int(platform.views.max_tracking_id(platform.store.name) or 0)


def test_a_rebuild_refuses_while_another_process_leads_and_changes_nothing(
    store: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    leading = _leading(store)
    try:
        games = _play(leading)
        before = leading.views.dump()["dh_games"]
        assert main(["rebuild-projections"]) == 3
        said = capsys.readouterr().err
        assert "refused: the projections are run by" in said
        if store["DRAGONHALL_STORE"] == "sqlite":
            assert f"process {os.getpid()}" in said
        else:
            assert "backend pid" in said
        assert leading.views.dump()["dh_games"] == before
        more = _play(leading, games=1)  # the leader still runs them
        assert set(leading.views.all_game_ids()) == {*games, *more}
        assert _position(leading) == leading.store.recorder.max_notification_id()
    finally:
        leading.close()


def test_a_rebuild_restores_read_models_that_went_wrong_and_its_heir_goes_on(store: dict[str, str]) -> None:
    leading = _leading(store)
    games = _play(leading)
    leading.close()  # writes its boards out
    reader = bootstrap(_settings(store), projections=False, work=NullWork())
    exact = reader.views.dump()
    reader.views.write([("DELETE FROM {p}dh_games WHERE game_id = ?", (games[0],))])
    reader.views.write([("UPDATE {p}dh_boards SET state = NULL", ())])
    seen: list[tuple[int, int]] = []
    try:
        done = rebuild_projections(_settings(store), lambda n, total: seen.append((n, total)))
        assert reader.views.dump() == exact
        assert done.games == 3 and done.events == reader.store.recorder.max_notification_id()
        assert _position(reader) == done.events
        assert seen[-1] == (done.events, done.events)
    finally:
        reader.close()
    heir = _leading(store)  # takes the lock the rebuild released, and goes on from its position
    try:
        more = _play(heir, games=1)
        assert set(heir.views.all_game_ids()) == {*games, *more}
    finally:
        heir.close()


def test_the_live_read_models_stay_whole_while_a_rebuild_runs(store: dict[str, str]) -> None:
    leading = _leading(store)
    games = _play(leading, games=4)
    leading.close()
    reader = bootstrap(_settings(store), projections=False, work=NullWork())
    sizes: list[int] = []
    try:
        rebuild_projections(_settings(store), lambda n, total: sizes.append(len(reader.views.all_game_ids())))
        assert sizes and set(sizes) == {len(games)}
    finally:
        reader.close()


def test_a_rebuild_that_fails_before_its_swap_commits_leaves_the_read_models_as_they_were(
    store: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    leading = _leading(store)
    games = _play(leading)
    leading.close()
    reader = bootstrap(_settings(store), projections=False, work=NullWork())
    reader.views.write([("DELETE FROM {p}dh_games WHERE game_id = ?", (games[0],))])
    before, position = reader.views.dump(), _position(reader)
    copy, copied = rebuilding._copy, []

    def copy_then_fail(*args: Any) -> None:
        copy(*args)
        copied.append(args)
        if len(copied) == 2:
            raise OSError("the disk is full")

    monkeypatch.setattr(rebuilding, "_copy", copy_then_fail)
    try:
        with pytest.raises(OSError, match="the disk is full"):
            rebuild_projections(_settings(store))
        assert reader.views.dump() == before and _position(reader) == position
    finally:
        reader.close()
    again = _leading(store)  # the lock went with the failed rebuild
    again.close()


def test_the_rebuild_holds_the_lock_so_no_leader_starts_meanwhile(store: dict[str, str]) -> None:
    leading = _leading(store)
    _play(leading)
    leading.close()
    standby: list[Any] = []

    def start_a_standby(done: int, total: int) -> None:
        if not standby:
            standby.append(bootstrap(_settings(store), work=NullWork()))

    try:
        rebuild_projections(_settings(store), start_a_standby)
        assert standby[0].leader.runner is None, "the standby did not lead while the rebuild held the lock"
        assert _takes_over(standby[0]), "the standby leads once the rebuild is done"
        with pytest.raises(ProjectionsLed):
            rebuild_projections(_settings(store))
    finally:
        for p in standby:
            p.close()


def _takes_over(platform: Any, timeout: float = 10.0) -> bool:
    from tests.support.runners import eventually

    return eventually(lambda: platform.leader.runner is not None, timeout)


@pytest.mark.parametrize("rebuilt", ["boards", "ratings", "deadlines"])
def test_a_rebuild_of_one_read_model_swaps_in_its_tables_and_position_alone(
    store: dict[str, str], rebuilt: str
) -> None:
    from projections.views import READ_MODEL_TABLES

    leading = _leading(store)
    games = _play(leading)
    hour = {"kind": "per_move", "seconds": 3600, "timeout_policy": "auto"}
    timed = str(leading.games.create_game("x", "dice-race", None, None, 2, time_control=hour).id)
    for pid in ("x", "y"):
        leading.games.take_seat(timed, pid, pid, "human")
    leading.wait_for_projections()
    leading.close()
    reader = bootstrap(_settings(store), projections=False, work=NullWork())
    exact, positions = reader.views.dump(), reader.views.positions()
    assert any(r["next_deadline"] for r in exact["dh_deadlines"])
    damage = [
        ("DELETE FROM {p}dh_games WHERE game_id = ?", (games[0],)),
        ("DELETE FROM {p}dh_rating_games WHERE game_id = ?", (games[1],)),
        ("DELETE FROM {p}dh_rating_seats", ()),
        ("DELETE FROM {p}dh_deadlines WHERE game_id = ?", (games[2],)),
        ("UPDATE {p}dh_deadlines SET next_deadline = NULL", ()),
        ("UPDATE {p}dh_boards SET state = NULL WHERE game_id = ?", (games[0],)),
        ("DELETE FROM {p}dh_boards WHERE game_id = ?", (games[1],)),
    ]
    reader.views.write(damage)
    damaged = reader.views.dump()
    mine = READ_MODEL_TABLES[rebuilt]
    assert {t: damaged[t] for t in mine} != {t: exact[t] for t in mine}  # the damage reaches what is rebuilt
    try:
        done = rebuild_projections(_settings(store), only=[rebuilt])
        after = reader.views.dump()
        for model, tables in READ_MODEL_TABLES.items():  # the one rebuilt is whole, the others as they were
            expected = exact if model == rebuilt else damaged
            assert {t: after[t] for t in tables} == {t: expected[t] for t in tables}, model
        assert games[0] not in reader.views.all_game_ids()
        assert reader.views.positions() == positions and done.events == positions[rebuilt]
    finally:
        reader.close()


def test_a_rebuild_names_its_read_models(store: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rebuild-projections", "--only", "leaderboards"]) == 2
    assert "no read model named leaderboards" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no read model named leaderboards"):
        rebuild_projections(_settings(store), only=["leaderboards"])
