"""A sweep that finds the broker emptied (Redis restarted without persistence) sends every lost task at once."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import redis

from services.common import clock
from services.common.clock import FakeClock
from services.deadlines.timers import PlayBot
from tests.conftest import make_settings
from workers import broker_memory, jobs


@pytest.fixture
def now() -> Iterator[FakeClock]:
    """A clock that starts at the real time (the read models stamp rows with it) and moves when told."""
    fake = FakeClock(datetime.now(UTC))
    previous = clock.use(fake)
    yield fake
    clock.use(previous)


@pytest.fixture
def redis_platform(redis_url: str) -> Iterator[Any]:
    from services.common.ports import NullWork
    from wiring import bootstrap

    settings = make_settings("memory", broker_url=redis_url, queue_prefix=f"t{uuid.uuid4().hex[:8]}.")
    platform = bootstrap(settings, work=NullWork())
    yield platform
    redis.Redis.from_url(redis_url).delete(settings.queue_prefix + broker_memory.MARKER)
    platform.close()


def _sweep(platform: Any, now: FakeClock) -> list[Any]:
    """One sweep task, past the lease of the one before: the bot turns it sends."""
    now.advance(platform.settings.sweep_interval)
    sent: list[Any] = []
    jobs.sweep(platform, sent.extend)
    return [a for a in sent if isinstance(a, PlayBot)]


def test_the_sweep_resends_awaited_bot_turns_when_the_broker_lost_its_marker(
    redis_platform: Any, redis_url: str, now: FakeClock
) -> None:
    owner = redis_platform.accounts.register("o", "human")[0].id
    gid = str(redis_platform.games.create_game(owner, "dice-race", None, None, 2).id)
    for _ in range(2):
        redis_platform.games.take_seat(gid, "server-bot:random", "random bot", "bot", bot="random")
    redis_platform.wait_for_projections()

    assert {a.game_id for a in _sweep(redis_platform, now)} == {gid}, "the deployment's first sweep"
    assert _sweep(redis_platform, now) == [], "the broker still holds the tasks: nothing stalled yet"
    redis.Redis.from_url(redis_url).delete(redis_platform.settings.queue_prefix + broker_memory.MARKER)
    assert {a.game_id for a in _sweep(redis_platform, now)} == {gid}, "a restart without persistence emptied it"
    assert _sweep(redis_platform, now) == []


def test_an_unreachable_or_absent_broker_is_not_taken_for_one_that_lost_its_tasks() -> None:
    assert not broker_memory.forgotten(make_settings("memory", broker_url="redis://127.0.0.1:1/0"))
    broker_memory.remember(make_settings("memory", broker_url="redis://127.0.0.1:1/0"))
    assert not broker_memory.forgotten(make_settings("memory"))
