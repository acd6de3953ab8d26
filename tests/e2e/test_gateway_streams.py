"""The API under Granian's RSGI interface (``api.gateway``), as ``dragonhall serve`` runs it: ordinary
requests answered by the Flask app (on request threads, or on the loop's own thread), streams handed
to the event loop's ``StreamHub``.

Driven in-process with a hand-made RSGI protocol (``tests.support.rsgi``), so every byte the server
sends is seen: a stream's lines are those of the REST reads at each version, each viewer its own share;
it ends with its game, when its client goes, or when its token is revoked; and each ending gives
its slot back.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from api.app import create_app
from api.gateway import Gateway
from api.stream_hub import StreamHub
from api.streams import slots
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from tests.support.rsgi import WAIT, Exchange
from wiring import bootstrap


@pytest.fixture(params=["request threads", "on the loop"])
def world(request: pytest.FixtureRequest) -> Iterator[tuple[Gateway, ApiClient]]:
    """A gateway that answers on request threads, or on the loop's own thread (one thread: SQLite's default)."""
    platform = bootstrap(make_settings("memory"), work=NullWork())
    app = create_app(platform)
    pools = [ThreadPoolExecutor(2) for _ in range(3)]
    threads = pools[1] if request.param == "request threads" else None
    yield (
        Gateway(app, StreamHub(platform.streams, pools[0]), threads, pools[2]),
        ApiClient(app.test_client(), platform),
    )
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
    platform.close()


async def _call(gateway: Gateway, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    status, content = await Exchange(gateway, method, path, token, json.dumps(body).encode() if body else b"").whole()
    return status, json.loads(content) if content else None


def _run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def _table(api: ApiClient) -> tuple[str, list[str]]:
    players = [api.player(f"p{i}")["token"] for i in range(2)]
    game = api.new_game(players[0])["id"]
    for token in players:
        api.seat(game, token)
    return game, players


def _play_one(api: ApiClient, game: str, tokens: list[str]) -> int:
    doc = api.game(game)
    token = tokens[doc["awaiting"][0]]
    reply = api.move(game, token, api.legal(game, token)["moves"][0])
    assert reply.status == 201, reply.body
    return int(reply.body["version"])


def test_an_ordinary_request_is_answered_whole_by_the_flask_app(world: tuple[Gateway, ApiClient]) -> None:
    gateway, _ = world

    async def scenario() -> None:
        status, body = await _call(gateway, "POST", "/api/v1/players", body={"name": "ann"})
        assert status == 201 and body["name"] == "ann" and body["token"]
        status, body = await _call(gateway, "GET", "/api/v1/games/nope")
        assert status == 404 and body["error"]["code"]

    _run(scenario())


def test_each_viewer_gets_on_its_stream_what_the_rest_reads_show_it(world: tuple[Gateway, ApiClient]) -> None:
    gateway, api = world
    game, tokens = _table(api)

    async def scenario() -> None:
        viewers = {"seat0": tokens[0], "seat1": tokens[1], "spectator": None}
        streams = {
            name: Exchange(gateway, "GET", f"/api/v1/games/{game}/stream", token) for name, token in viewers.items()
        }
        for name, stream in streams.items():
            assert await stream.start() == 200
            opening = await stream.line()
            assert opening is not None and opening["type"] == "game"
            _, rest = await _call(gateway, "GET", f"/api/v1/games/{game}", viewers[name])
            assert opening["game"] == rest, name
        version = opening["version"]
        for _ in range(4):
            target = await asyncio.to_thread(_play_one, api, game, tokens)
            for name, stream in streams.items():
                seen = version
                while seen < target:
                    line = await stream.line()
                    assert line is not None and line["type"] == "events", name
                    _, rest = await _call(gateway, "GET", f"/api/v1/games/{game}/events?after={seen}", viewers[name])
                    assert line["events"] == [e for e in rest["events"] if e["version"] <= line["version"]], name
                    seen = line["version"]
                assert seen == target
            version = target
        for stream in streams.values():
            stream.gone.set()
            await asyncio.wait_for(stream.task, WAIT)

    _run(scenario())
    assert _held(api) == 0


def _held(api: ApiClient) -> int:
    """The streams the app's process holds now."""
    with api.http.application.app_context():
        return slots().held


def test_a_stream_ends_with_its_game_and_gives_its_slot_back(world: tuple[Gateway, ApiClient]) -> None:
    gateway, api = world
    players = [api.player(f"p{i}")["token"] for i in range(2)]
    game = api.new_game(players[0], options={"goal": 5})["id"]
    for token in players:
        api.seat(game, token)

    async def scenario() -> list[dict[str, Any]]:
        stream = Exchange(gateway, "GET", f"/api/v1/games/{game}/stream")
        assert await stream.start() == 200
        lines = []
        while (line := await stream.line()) is not None:
            lines.append(line)
            if line["type"] == "game" or line["status"] == "active":
                await asyncio.to_thread(_play_one, api, game, players)
        await asyncio.wait_for(stream.task, WAIT)
        return lines

    lines = _run(scenario())
    assert lines[-1]["status"] == "finished"
    assert _held(api) == 0


def test_a_stream_whose_client_goes_gives_its_slot_back(world: tuple[Gateway, ApiClient]) -> None:
    gateway, api = world
    game, _ = _table(api)

    async def scenario() -> None:
        stream = Exchange(gateway, "GET", f"/api/v1/games/{game}/stream")
        assert await stream.start() == 200
        assert (await stream.line()) is not None
        assert _held(api) == 1
        stream.gone.set()
        await asyncio.wait_for(stream.task, WAIT)

    _run(scenario())
    assert _held(api) == 0


def test_a_held_game_stream_asks_for_its_games_wake_ups_until_it_ends(world: tuple[Gateway, ApiClient]) -> None:
    """The other processes send a game's wake-up only to a process that follows it
    (``infra.wake_interest``): the hub follows a stream's game before its first read, and stops
    when the stream ends, once for each stream."""
    gateway, api = world
    game, _ = _table(api)
    followed: list[tuple[str, bool]] = []
    wakeups = api.platform.streams.wakeups
    wakeups.follow = lambda *keys: followed.extend((k, True) for k in keys)  # type: ignore[method-assign]
    wakeups.unfollow = lambda *keys: followed.extend((k, False) for k in keys)  # type: ignore[method-assign]

    async def scenario() -> None:
        streams = [Exchange(gateway, "GET", f"/api/v1/games/{game}/stream") for _ in range(2)]
        for stream in streams:
            assert await stream.start() == 200
            assert (await stream.line()) is not None
        assert followed == [(f"game:{game}", True)] * 2
        for stream in streams:
            stream.gone.set()
            await asyncio.wait_for(stream.task, WAIT)

    _run(scenario())
    assert followed == [(f"game:{game}", True)] * 2 + [(f"game:{game}", False)] * 2


def test_a_revoked_token_ends_the_account_stream_it_opened(world: tuple[Gateway, ApiClient]) -> None:
    gateway, api = world
    owner = api.player("owner")["token"]
    made = api.call("POST", "/api/v1/me/tokens", {"name": "bot", "scopes": ["read", "play"]}, owner)
    assert made.status == 201, made.body

    async def scenario() -> None:
        stream = Exchange(gateway, "GET", "/api/v1/stream/events", made.body["token"])
        assert await stream.start() == 200
        revoked = await asyncio.to_thread(api.call, "DELETE", f"/api/v1/me/tokens/{made.body['id']}", None, owner)
        assert revoked.status in (200, 204), revoked.body
        while await stream.line() is not None:
            pass  # the awaiting lines, then the end
        await asyncio.wait_for(stream.task, WAIT)

    _run(scenario())


def test_a_stream_refused_by_the_route_is_an_ordinary_error_answer(world: tuple[Gateway, ApiClient]) -> None:
    gateway, api = world
    game, _ = _table(api)

    async def scenario() -> None:
        status, body = await _call(gateway, "GET", "/api/v1/stream/events")
        assert status == 401 and body["error"]["code"]
        status, body = await _call(gateway, "GET", f"/api/v1/games/{game}/stream?after=999")
        assert status == 400 and body["error"]["code"] == "invalid_request"

    _run(scenario())


def test_one_caller_holds_its_share_of_the_streams_and_the_hub_gives_it_back(world: tuple[Gateway, ApiClient]) -> None:
    """The streams held by the hub count for their caller until they end: past its share an
    address is refused (429, naming the limit) while others still get theirs."""
    gateway, api = world
    game, players = _table(api)
    with api.http.application.app_context():
        slots().per_caller = 2

    async def scenario() -> None:
        path = f"/api/v1/games/{game}/stream"
        held = [Exchange(gateway, "GET", path) for _ in range(2)]
        assert [await s.start() for s in held] == [200, 200]
        status, body = await _call(gateway, "GET", path)
        assert status == 429 and body["error"]["code"] == "too_many_streams_per_caller", body
        assert "DRAGONHALL_MAX_STREAMS_PER_CALLER" in body["error"]["message"]
        status, body = await _call(gateway, "GET", f"/api/v1/games/{game}/events?after=0&wait=5")
        assert status == 429, "a long poll counts as a stream"
        mine = Exchange(gateway, "GET", path, players[0])
        assert await mine.start() == 200, "another caller gets its stream"
        held[0].gone.set()
        await asyncio.wait_for(held[0].task, WAIT)
        again = Exchange(gateway, "GET", path)
        assert await again.start() == 200, "a stream that ended gave its caller's slot back"
        for stream in (held[1], mine, again):
            stream.gone.set()
            await asyncio.wait_for(stream.task, WAIT)

    _run(scenario())
    assert _held(api) == 0
