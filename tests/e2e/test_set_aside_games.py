"""One game the read models cannot apply never stops them: it is set aside, and every other game goes on.

The read side is poisoned on purpose: the projection is made to fail on one account's games (as a
year-10000 date once made it fail on every attempt). Every game created after it must still reach
the game list, the lobby and the profiles; ``/healthz`` must say ``degraded`` and name the game;
and a runner started with code that applies it (a restart after an upgrade) brings it back.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from projections.games import GameProjection
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap

POISON = "the projection cannot apply this game (a test's poison)"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: Any, tmp_path: Path) -> Iterator[Any]:
    """Settings of a store that outlives its platform, so a second platform restarts on it."""
    if request.param == "sqlite":
        yield make_settings("sqlite", tmp_path)
        return
    pg_url = request.getfixturevalue("pg_url")
    schema = request.getfixturevalue("pg_schema")
    yield make_settings("postgres", tmp_path, database_url=pg_url, postgres_schema=schema)


def _client(settings: Any) -> ApiClient:
    platform = bootstrap(settings, work=NullWork(), projections=True)
    return ApiClient(create_app(platform).test_client(), platform)


def _poison(monkeypatch: pytest.MonkeyPatch, creator: str) -> None:
    """Makes the projection fail on the ``Created`` event of every game ``creator`` opens."""
    apply = GameProjection.apply

    def poisoned(self: GameProjection, event: Any, batch: Any) -> None:
        if getattr(event, "creator", None) == creator:
            raise ValueError(POISON)
        apply(self, event, batch)

    monkeypatch.setattr(GameProjection, "apply", poisoned)


def _listed(client: ApiClient, token: str) -> set[str]:
    r = client.call("GET", "/api/v1/games?limit=100", token=token)
    assert r.status == 200, r.body
    return {g["id"] for g in r.body["games"]}


def _eventually(condition: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Whether ``condition`` holds within ``seconds``: a starting runner retries the games set aside
    in its own thread, which the wait for projections may return before."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _set_aside_check(client: ApiClient) -> dict[str, Any]:
    health = client.call("GET", "/healthz").body
    return {c["name"]: c for c in health["checks"]}["projections.set_aside"] | {"status_of_all": health["status"]}


def test_a_game_the_projection_cannot_apply_is_set_aside_and_every_other_game_goes_on(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(store)
    try:
        bad, good, other = client.player(), client.player(), client.player()
        _poison(monkeypatch, bad["id"])
        poisoned = client.new_game(bad["token"])["id"]
        assert client.seat(poisoned, good["token"]).status == 201  # its later events wait too
        games = [client.new_game(good["token"])["id"] for _ in range(3)]
        for gid in games[:2]:
            for p in (good, other):
                assert client.seat(gid, p["token"]).status == 201
        assert client.call("POST", f"/api/v1/games/{games[0]}/resign", {}, other["token"]).status == 201
        client.platform.wait_for_projections()

        listed = _listed(client, good["token"])
        assert set(games) <= listed and poisoned not in listed
        lobby = client.page("/", good["token"]).body
        assert f"/games/{games[2]}" in lobby  # an open table, created after the poisoned one
        profile = client.call("GET", f"/api/v1/players/{other['id']}").body
        assert games[0] in {g["game_id"] for g in profile["recent_games"]}  # ended after the poisoned one

        check = _set_aside_check(client)
        assert check["status_of_all"] == "degraded" and check["status"] == "degraded"
        assert check["count"] == 1
        (entry,) = check["games"]
        assert entry["game_id"] == poisoned and POISON in entry["error"]
        assert entry["since_version"] == 1 and entry["events_waiting"] == 2  # created, then a seat taken
        assert client.game(poisoned, bad["token"])["id"] == poisoned  # the game itself plays on (write model)
    finally:
        client.platform.close()

    monkeypatch.undo()  # the upgrade: the code now applies the game
    client = _client(store)
    try:
        client.platform.wait_for_projections()
        assert _eventually(lambda: poisoned in _listed(client, good["token"]))  # retried as the runner starts
        check = _set_aside_check(client)
        assert check["status"] == "ok" and check["count"] == 0 and check["status_of_all"] == "ok"
        summary = client.platform.views.game_summary(poisoned)
        assert summary["version"] == 2 and [s["player_id"] for s in summary["seats"]] == [good["id"]]
        assert client.seat(poisoned, other["token"]).status == 201  # its events after the retry are applied once
        client.platform.wait_for_projections()
        assert client.platform.views.game_summary(poisoned)["version"] == client.game(poisoned)["version"]
    finally:
        client.platform.close()


def test_a_row_the_database_refuses_sets_its_game_aside_on_postgres(request: Any, tmp_path: Path) -> None:
    """PostgreSQL refuses a NUL in text, which the projection's own code never notices: the batch's
    write fails as a whole, is tried again one event at a time, and only that game is set aside."""
    url, schema = request.getfixturevalue("pg_url"), request.getfixturevalue("pg_schema")
    settings = make_settings("postgres", tmp_path, database_url=url, postgres_schema=schema)
    platform = bootstrap(settings, work=NullWork(), projections=True)
    try:
        games = platform.games
        bad = str(games.create_game("nul\x00creator", "dice-race", None, None, 2).id)
        good = [str(games.create_game(f"creator-{k}", "dice-race", None, None, 2).id) for k in range(3)]
        platform.wait_for_projections()
        assert all(platform.views.game_summary(gid) is not None for gid in good)
        assert platform.views.game_summary(bad) is None
        (aside,) = platform.views.set_aside_games()
        assert aside["game_id"] == bad and "NUL" in aside["error"]
    finally:
        platform.close()
