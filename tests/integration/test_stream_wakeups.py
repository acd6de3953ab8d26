"""Wake-ups reach the streams of every process of a deployment: through Redis pub/sub, PostgreSQL
``LISTEN/NOTIFY`` and Unix datagrams; and a move saved by one platform reaches a stream held by
another on the same PostgreSQL store.

The streams' fallback poll is pushed far out in these tests, so a line that arrives was woken by the
transport, not found by polling."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import services.streams.lines
import services.streams.wakeups
from api.app import create_app
from infra.postgres_wakeups import PostgresBroadcast
from infra.wake_arming import Arming
from infra.wake_transports import RedisBroadcast, UnixBroadcast
from services.common.ports import NullWork
from services.streams.wakeups import Broadcast, Wakeups
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap

WAIT = 20.0
"""How long a test waits for a wake-up before it fails (they come in milliseconds)."""


@pytest.fixture
def no_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.streams.wakeups, "POLL_FALLBACK", 3600.0)
    monkeypatch.setattr(services.streams.lines, "POLL_FALLBACK", 3600.0)
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 3600.0)


def _pair(make: Callable[[Callable[[str], None]], Broadcast]) -> Iterator[tuple[Wakeups, Wakeups]]:
    hubs = (Wakeups(make), Wakeups(make))
    yield hubs
    for hub in hubs:
        hub.close()


def _crosses(sender: Wakeups, receiver: Wakeups) -> None:
    key = f"game:{uuid.uuid4()}"
    with receiver.subscribe(key) as woken, sender.subscribe(key) as own:
        sender.publish(key)
        assert own.wait(WAIT), "the sender's own streams are woken at once"
        assert woken.wait(WAIT), "the other process's streams are woken"
    with receiver.subscribe("game:other") as elsewhere:
        sender.publish(key)
        assert not elsewhere.wait(0.3), "a key wakes only its own subscribers"


def test_redis_pub_sub_carries_wake_ups(redis_url: str) -> None:
    channel = f"dragonhall:wake:test-{uuid.uuid4().hex}"
    for a, b in _pair(lambda deliver: RedisBroadcast(redis_url, deliver, channel=channel)):
        _crosses(a, b)
        _crosses(b, a)


def test_postgres_notify_carries_wake_ups(pg_url: str, pg_schema: str) -> None:
    for a, b in _pair(lambda deliver: PostgresBroadcast(pg_url, deliver, pg_schema)):
        _crosses(a, b)
        _crosses(b, a)


def test_unix_datagrams_carry_wake_ups_and_forget_dead_processes(tmp_path: Path) -> None:
    directory = tmp_path / "wake"
    for a, b in _pair(lambda deliver: UnixBroadcast(directory, deliver)):
        dead = directory / "1-gone.sock"
        dead.touch()  # a socket file whose process is gone: refused, then removed
        _crosses(a, b)
        _crosses(b, a)
        assert not dead.exists()


def test_unix_wake_ups_a_full_queue_refused_are_sent_again(tmp_path: Path) -> None:
    """A listener that does not read (its thread waits for the GIL under load) lets its socket's
    queue fill (``net.unix.max_dgram_qlen``, 10 by default); the keys it refused meanwhile still
    reach it once it reads again."""
    directory = tmp_path / "wake"
    reading = threading.Event()
    got: list[str] = []

    def deliver(key: str) -> None:
        reading.wait(WAIT)
        got.append(key)

    everything = Arming()
    everything.arm(everything, True)
    receiver = UnixBroadcast(directory, deliver, wants_all=everything)
    sender = UnixBroadcast(directory, lambda key: None)
    try:
        keys = [f"game:{i}" for i in range(200)]
        for key in keys:
            sender.send(key)
        reading.set()
        deadline = time.monotonic() + WAIT
        while set(got) != set(keys) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert set(got) == set(keys)
    finally:
        sender.close()
        receiver.close()


def _delivered(sender: Wakeups, key: str, receiver: Wakeups, wait: float) -> bool:
    """Whether ``key``, published by ``sender``, reaches ``receiver`` within ``wait`` seconds."""
    got: list[str] = []
    receiver.observers.append(got.append)
    sender.publish(key)
    deadline = time.monotonic() + wait
    while key not in got and time.monotonic() < deadline:
        time.sleep(0.01)
    receiver.observers.remove(got.append)
    return key in got


def test_unix_wake_ups_of_a_game_reach_only_the_processes_that_follow_it(tmp_path: Path) -> None:
    """A process is sent a game's key only while one of its streams follows the game (or while its
    projections wait for a save to pull); an account's only while one of its streams follows the
    account; a token's reaches every process."""
    directory = tmp_path / "wake"
    projections = Arming()
    sender, follower = Wakeups(lambda d: UnixBroadcast(directory, d)), Wakeups(lambda d: UnixBroadcast(directory, d))
    projector = Wakeups(lambda d: UnixBroadcast(directory, d, wants_all=projections))
    try:
        game = f"game:{uuid.uuid4()}"
        assert not _delivered(sender, game, follower, 0.3), "a process whose streams follow no game is not sent it"
        assert not _delivered(sender, "account:ann", follower, 0.3), "nor an account none of them follows"
        assert _delivered(sender, "tokens:ann", follower, WAIT), "a token's key reaches every process"
        with follower.subscribe(game) as woken, follower.subscribe(game):
            sender.publish(game)
            assert woken.wait(WAIT), "while a stream follows the game, its wake-ups come"
        with follower.subscribe("account:ann") as woken:
            sender.publish("account:ann")
            assert woken.wait(WAIT), "while a stream follows the account, its wake-ups come"
        assert not _delivered(sender, game, follower, 0.3), "and once the last stream has gone, they stop"
        assert not _delivered(sender, "account:ann", follower, 0.3)
        assert not _delivered(sender, game, projector, 0.3)
        projections.arm(projections, True)  # its projections wait for a save
        assert _delivered(sender, game, projector, WAIT), "a process whose projections wait is sent every game's"
        projections.arm(projections, False)  # they gather: their pull will read what is saved meanwhile
        assert not _delivered(sender, game, projector, 0.3)
    finally:
        for hub in (sender, follower, projector):
            hub.close()


def test_postgres_wake_ups_of_a_game_reach_only_the_processes_that_follow_it(pg_url: str, pg_schema: str) -> None:
    """On PostgreSQL a game's or an account's key goes to its slot's channel, which a process
    listens to only while one of its streams follows it; a token's reaches every process. A
    follow returns once its process listens: a key sent right after it is heard."""
    sender, follower = (Wakeups(lambda d: PostgresBroadcast(pg_url, d, pg_schema)) for _ in range(2))
    try:
        game = f"game:{uuid.uuid4()}"
        assert not _delivered(sender, game, follower, 0.3), "a process whose streams follow no game hears none"
        assert not _delivered(sender, "account:ann", follower, 0.3), "nor an account none of them follows"
        assert _delivered(sender, "tokens:ann", follower, WAIT), "a token's key reaches every process"
        for _ in range(3):
            with follower.subscribe(game) as woken, follower.subscribe(game):
                sender.publish(game)
                assert woken.wait(WAIT), "from the moment a stream follows the game, its wake-ups come"
        with follower.subscribe("account:ann") as woken:
            sender.publish(f"account:bob\naccount:ann\n{game}")
            assert woken.wait(WAIT), "an account's among others sent together"
        deadline = time.monotonic() + WAIT  # an UNLISTEN is applied at the listener's next turn
        while _delivered(sender, game, follower, 0.3) and time.monotonic() < deadline:
            pass
        assert not _delivered(sender, game, follower, 0.3), "and once the last stream has gone, they stop"
    finally:
        for hub in (sender, follower):
            hub.close()


def _stream_first_line(api: ApiClient, path: str, got: list[dict[str, Any]]) -> threading.Thread:
    def follow() -> None:
        r = api.http.get(path, buffered=False)
        try:  # past the keep-alive a stream with nothing to say yet opens with
            got.append(json.loads(next(frame for frame in r.response if frame != b"\n")))
        finally:
            r.close()

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    return reader


@pytest.mark.parametrize("broker", [False, True], ids=["postgres-notify", "redis"])
def test_a_move_saved_by_one_process_reaches_a_stream_held_by_another(
    no_polling: None, pg_url: str, pg_schema: str, redis_url: str, broker: bool
) -> None:
    extra: dict[str, Any] = {"database_url": pg_url, "postgres_schema": pg_schema}
    if broker:
        extra["broker_url"] = redis_url
    writer = bootstrap(make_settings("postgres", **extra), work=NullWork())
    reader = bootstrap(make_settings("postgres", **extra), work=NullWork(), projections=False)
    try:
        a = ApiClient(create_app(writer).test_client(), writer)
        b = ApiClient(create_app(reader).test_client(), reader)
        people = [a.player(f"p{i}") for i in range(2)]
        game_id = a.new_game(people[0]["token"])["id"]
        for p in people:
            assert a.seat(game_id, p["token"]).status == 201
        start = a.game(game_id)["version"]
        got: list[dict[str, Any]] = []
        sent: list[str] = []
        broadcast = writer.wakeups.broadcast
        send = broadcast.send
        broadcast.send = lambda key: (sent.append(key), send(key))[1]  # type: ignore[method-assign]
        follower = _stream_first_line(b, f"/api/v1/games/{game_id}/stream?after={start}", got)
        doc = a.game(game_id)
        token = people[doc["awaiting"][0]]["token"]
        assert a.move(game_id, token, a.legal(game_id, token)["moves"][0]).status == 201
        follower.join(timeout=WAIT)
        assert got and got[0]["events"][0]["version"] == start + 1
        # without Redis the save's own call carried the wake-up: no round trip of its own
        assert (f"game:{game_id}" in sent) is broker
    finally:
        reader.close()
        writer.close()


def test_a_redis_that_cannot_be_reached_costs_wake_ups_not_the_process() -> None:
    hub = Wakeups(lambda deliver: RedisBroadcast("redis://127.0.0.1:1/0", deliver, channel="dragonhall:wake:nowhere"))
    try:
        with hub.subscribe("game:x") as woken:
            hub.publish("game:x")  # sent nowhere, logged; this process's streams still wake
            assert woken.wait(WAIT)
    finally:
        hub.close()
