"""Rate limits: 429 with Retry-After and the API's error body, counted per address, token or
account, refused before anything is written, and set from the environment."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api import limits
from api.app import create_app
from services.common.config import Settings
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap

LIMIT_SECONDS = 60


@pytest.fixture
def limited() -> Iterator[Any]:
    """``limited(**settings)``: an ApiClient over an app whose limits are the settings given."""
    platforms: list[Any] = []

    def make(**overrides: Any) -> ApiClient:
        platform = bootstrap(make_settings("memory", **overrides), work=NullWork())
        platforms.append(platform)
        return ApiClient(create_app(platform).test_client(), platform)

    yield make
    for platform in platforms:
        platform.close()


def assert_rate_limited(response: Any) -> None:
    assert response.status_code == 429
    body = response.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == "rate_limited"
    assert "too many requests" in body["error"]["message"]
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= LIMIT_SECONDS


def get(client: ApiClient, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.get(path, headers=headers)


def test_registrations_over_the_limit_are_429_and_register_no_one(limited: Any) -> None:
    client = limited(rate_limit_register="2/minute")
    client.player("a")
    client.player("b")
    refused = client.http.post("/api/v1/players", json={"name": "c"})
    assert_rate_limited(refused)
    assert client.platform.db.one("SELECT COUNT(*) AS n FROM dh_players")["n"] == 2
    other = client.http.post("/api/v1/players", json={"name": "d"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201  # counted per client address


def test_behind_a_trusted_proxy_registrations_are_counted_per_client_not_per_proxy(limited: Any) -> None:
    def register(client: ApiClient, name: str, forwarded_for: str) -> Any:
        return client.http.post(
            "/api/v1/players",
            json={"name": name},
            headers={"X-Forwarded-For": forwarded_for},
            environ_base={"REMOTE_ADDR": "10.0.0.1"},  # the proxy
        )

    proxied = limited(rate_limit_register="1/minute", trusted_proxies=1)
    assert register(proxied, "a", "203.0.113.5").status_code == 201
    assert register(proxied, "b", "203.0.113.6").status_code == 201  # another client behind the same proxy
    assert_rate_limited(register(proxied, "c", "203.0.113.5"))

    direct = limited(rate_limit_register="1/minute")  # no proxy trusted: the header is anyone's to forge
    assert register(direct, "a", "203.0.113.5").status_code == 201
    assert_rate_limited(register(direct, "b", "203.0.113.6"))


def test_reads_are_counted_per_token(limited: Any) -> None:
    client = limited(rate_limit_reads="2/minute")
    a = client.player("a")
    assert get(client, "/api/v1/me", a["token"]).status_code == 200
    assert get(client, "/api/v1/me/inbox", a["token"]).status_code == 200
    assert_rate_limited(get(client, "/api/v1/me", a["token"]))
    second = client.call("POST", "/api/v1/me/tokens", {"name": "t", "scopes": ["read"]}, a["token"]).body["token"]
    assert get(client, "/api/v1/me", second).status_code == 200  # another token of the account counts apart
    assert get(client, "/api/v1/catalog").status_code == 200  # the catalogue is not limited


def test_a_move_over_the_limit_is_429_and_writes_no_event(limited: Any) -> None:
    client = limited(rate_limit_moves="5/minute")
    a, b = client.player("a"), client.player("b")
    spare = {}
    for p in (a, b):  # each token's first write
        spare[p["token"]] = client.call("POST", "/api/v1/me/tokens", {"name": "s", "scopes": ["bot"]}, p["token"])
        spare[p["token"]] = spare[p["token"]].body["token"]
    game_id = client.new_game(a["token"])["id"]
    assert client.seat(game_id, a["token"]).status == 201
    assert client.seat(game_id, b["token"]).status == 201
    writes = {a["token"]: 3, b["token"]: 2}
    while True:
        doc = client.game(game_id)
        assert doc["status"] == "active"
        mover = (a, b)[doc["awaiting"][0]]["token"]
        move = client.legal(game_id, mover)["moves"][0]
        if writes[mover] == 5:
            break
        assert client.move(game_id, mover, move).status == 201
        writes[mover] += 1
    refused = client.http.post(
        f"/api/v1/games/{game_id}/moves", json={"move": move}, headers={"Authorization": f"Bearer {mover}"}
    )
    assert_rate_limited(refused)
    assert client.platform.games.load(game_id).version == doc["version"]
    accepted = client.move(game_id, spare[mover], move)
    assert accepted.status == 201  # the move was legal: only the token's limit refused it
    assert accepted.body["version"] > doc["version"]


def test_a_refused_token_is_not_counted(limited: Any) -> None:
    client = limited(rate_limit_reads="1/minute")
    a = client.player("a")
    play_only = client.call("POST", "/api/v1/me/tokens", {"name": "p", "scopes": ["play"]}, a["token"]).body["token"]
    for _ in range(3):
        assert get(client, "/api/v1/me", "not-a-token").status_code == 401
        assert get(client, "/api/v1/me", play_only).status_code == 403
    assert get(client, "/api/v1/me", a["token"]).status_code == 200


def test_streams_opened_are_counted_per_account_whatever_the_token(limited: Any) -> None:
    client = limited(rate_limit_streams="2/minute", rate_limit_reads="1000/minute")
    http = client.http
    a, b = client.player("a"), client.player("b")
    game = client.new_game(a["token"])["id"]
    second = client.call("POST", "/api/v1/me/tokens", {"name": "t", "scopes": ["bot"]}, a["token"]).body["token"]

    def open_stream(path: str, token: str) -> Any:
        response = http.get(path, headers={"Authorization": f"Bearer {token}"}, buffered=False)
        response.close()  # its status is all this test needs
        return response

    assert open_stream("/api/v1/stream/events", a["token"]).status_code == 200
    assert open_stream(f"/api/v1/games/{game}/stream", second).status_code == 200
    assert_rate_limited(open_stream(f"/api/v1/games/{game}/stream", a["token"]))
    assert open_stream("/api/v1/stream/events", b["token"]).status_code == 200  # another account
    assert get(client, "/api/v1/me", a["token"]).status_code == 200  # reads are another bucket


def test_limits_off_refuse_nothing(limited: Any) -> None:
    client = limited(rate_limits=False, rate_limit_reads="1/minute", rate_limit_register="1/minute")
    a = client.player("a")
    client.player("b")
    for _ in range(3):
        assert get(client, "/api/v1/me", a["token"]).status_code == 200


def test_limits_are_read_from_the_environment() -> None:
    env = {
        "DRAGONHALL_STORE": "memory",
        "DRAGONHALL_RATE_LIMIT_REGISTER": "5/hour",
        "DRAGONHALL_RATE_LIMIT_MOVES": "10/second",
        "DRAGONHALL_RATE_LIMIT_READS": "20/second;1000/hour",
        "DRAGONHALL_RATE_LIMIT_STREAMS": "3/minute",
    }
    settings = Settings.from_env(env)
    assert limits.limits_of(settings) == {
        "register": "5/hour",
        "moves": "10/second",
        "reads": "20/second;1000/hour",
        "streams": "3/minute",
    }
    assert settings.rate_limits and settings.rate_limit_storage == "memory://"
    assert not Settings.from_env({**env, "DRAGONHALL_RATE_LIMITS": "0"}).rate_limits
    defaults = Settings.from_env({"DRAGONHALL_STORE": "memory"})
    assert defaults.rate_limits and limits.limits_of(defaults)["moves"] == "6000/minute"
    redis = Settings.from_env({**env, "DRAGONHALL_BROKER_URL": "redis://127.0.0.1:6379/3"})
    assert redis.rate_limit_storage == "redis://127.0.0.1:6379/3"


def test_a_malformed_limit_stops_the_app_naming_its_variable() -> None:
    settings = Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_RATE_LIMIT_MOVES": "lots"})
    with pytest.raises(ValueError, match="DRAGONHALL_RATE_LIMIT_MOVES"):
        limits.limits_of(settings)


@pytest.mark.redis
def test_processes_sharing_a_redis_broker_share_their_counts(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings("sqlite", tmp_path, http_workers=2, broker_url=redis_url, rate_limit_reads="2/minute")
    first = bootstrap(settings, work=NullWork())
    second = bootstrap(settings, work=NullWork(), projections=False)
    try:
        one, other = (ApiClient(create_app(p).test_client(), p) for p in (first, second))
        token = one.player("a")["token"]
        assert get(one, "/api/v1/me", token).status_code == 200
        assert get(other, "/api/v1/me", token).status_code == 200
        assert_rate_limited(get(one, "/api/v1/me", token))
        assert_rate_limited(get(other, "/api/v1/me", token))
    finally:
        second.close()
        first.close()


def test_the_memory_counts_start_no_thread_and_ended_windows_are_swept() -> None:
    import threading

    from infra.rate_windows import Windows

    windows = Windows()
    before = threading.active_count()
    for i in range(50):
        assert windows.hit(("moves", f"token:{i}", 60), 2, 60) is None
    assert threading.active_count() <= before  # limits' MemoryStorage would have started timers
    assert windows.hit(("moves", "token:1", 60), 2, 60) is None
    refused = windows.hit(("moves", "token:1", 60), 2, 60)  # the third hit of a 2-hit window
    assert refused is not None and refused > time.time()
    windows._windows[("moves", "token:0", 60)][0] = 0.0  # token:0's window has ended
    windows._next_sweep = 0.0  # the sweep is due
    windows.hit(("moves", "token:1", 60), 2, 60)
    assert ("moves", "token:0", 60) not in windows._windows and len(windows) == 49


def rate_headers(response: Any) -> tuple[int, int, int]:
    h = response.headers
    return int(h["X-RateLimit-Limit"]), int(h["X-RateLimit-Remaining"]), int(h["X-RateLimit-Reset"])


def test_every_limited_answer_says_the_limit_what_is_left_and_when_it_resets(limited: Any) -> None:
    client = limited(rate_limit_reads="3/minute;100/hour")
    token = client.player("a")["token"]
    answers = [get(client, "/api/v1/me", token) for _ in range(4)]
    assert [rate_headers(r)[:2] for r in answers[:3]] == [(3, 2), (3, 1), (3, 0)]
    assert all(0 < rate_headers(r)[2] <= LIMIT_SECONDS for r in answers)
    assert_rate_limited(answers[3])
    assert rate_headers(answers[3])[:2] == (3, 0) and rate_headers(answers[3])[2] == int(
        answers[3].headers["Retry-After"]
    )
    assert "X-RateLimit-Limit" not in get(client, "/api/v1/catalog").headers  # not limited


@pytest.mark.redis
def test_the_rate_headers_come_from_redis_when_the_counts_are_shared(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings("sqlite", tmp_path, broker_url=redis_url, rate_limit_reads="2/minute")
    platform = bootstrap(settings, work=NullWork())
    try:
        client = ApiClient(create_app(platform).test_client(), platform)
        token = client.player("rated-headers")["token"]
        first, second = get(client, "/api/v1/me", token), get(client, "/api/v1/me", token)
        assert rate_headers(first)[:2] == (2, 1) and rate_headers(second)[:2] == (2, 0)
    finally:
        platform.close()
