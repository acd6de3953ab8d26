"""Bot turns' claims on the real Redis (``workers.bot_claims``): one task per awaited bot seat."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.common.config import Settings
from workers import bot_claims
from workers.leases import bot_seats


@pytest.fixture
def settings(redis_url: str) -> Iterator[Settings]:
    prefix = f"claims{uuid.uuid4().hex[:8]}."
    yield Settings(broker_url=redis_url, queue_prefix=prefix)
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


def _ttl(settings: Settings, seat: int) -> int:
    client = redis.Redis.from_url(settings.broker_url or "")
    return int(client.ttl(bot_claims._key(settings, "g", seat)))


def test_a_seat_gets_one_task_until_its_task_gives_the_claim_up(settings: Settings) -> None:
    assert bot_claims.take(settings, "g", 0, 7)
    assert not bot_claims.take(settings, "g", 0, 8), "another save planned the same seat: no second task"
    assert bot_claims.take(settings, "g", 1, 8), "another seat has its own claim"
    bot_claims.give_up(settings, "g", 0, 7)
    assert bot_claims.take(settings, "g", 0, 9)


def test_a_task_delivered_twice_does_not_give_up_the_claim_of_the_seats_next_task(settings: Settings) -> None:
    assert bot_claims.take(settings, "g", 0, 7)
    bot_claims.give_up(settings, "g", 0, 7)
    assert bot_claims.take(settings, "g", 0, 12)  # the task of the seat's next decision
    bot_claims.give_up(settings, "g", 0, 7)  # the first task, delivered again
    assert not bot_claims.take(settings, "g", 0, 13)


def test_a_claim_is_short_until_its_task_is_in_the_broker_and_kept_only_while_it_stands(settings: Settings) -> None:
    assert bot_claims.take(settings, "g", 0, 7)
    assert 0 < _ttl(settings, 0) <= bot_claims.SENDING
    bot_claims.hold(settings, "g", 0)
    assert bot_claims.SENDING < _ttl(settings, 0) <= bot_claims.LIFETIME
    bot_claims.give_up(settings, "g", 0, 7)
    bot_claims.keep(settings, [("g", 0)])  # a worker still holding the played task's message
    assert _ttl(settings, 0) == -2, "a claim given up is not made again"


def test_without_a_redis_broker_every_task_is_sent() -> None:
    assert bot_claims.take(Settings(), "g", 0, 1) and bot_claims.take(Settings(), "g", 0, 1)


class _Message:
    def __init__(self, task: str, args: list[Any]) -> None:
        self.headers = {"task": task}
        self._body = [args, {}, {}]

    def decode(self) -> Any:
        return self._body


def test_the_bot_seats_a_worker_holds_are_read_from_its_messages() -> None:
    held = [
        _Message("dragonhall.play_bot", ["g1", 2, 40]),
        _Message("dragonhall.deadline", ["g2", 0, 3]),
        _Message("dragonhall.play_bot", ["g3", 0, 5]),
    ]
    assert bot_seats(held) == [("g1", 2), ("g3", 0)]


class _Celery:
    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...]]] = []

    def send_task(self, name: str, args: tuple[Any, ...], **options: Any) -> None:
        self.sent.append((name, args))


def test_a_seat_planned_again_while_its_task_is_queued_gets_no_second_task(settings: Settings) -> None:
    from services.deadlines.timers import PlayBot
    from workers.dispatch import CeleryWork

    celery = _Celery()
    work = CeleryWork(celery, settings, None)  # type: ignore[arg-type]
    work.send([PlayBot("g", 0, 7), PlayBot("g", 1, 7)])
    work.send([PlayBot("g", 1, 8)])  # seat 0 moved: seat 1 is planned again
    assert celery.sent == [("dragonhall.play_bot", ("g", 0, 7)), ("dragonhall.play_bot", ("g", 1, 7))]
    assert bot_claims.SENDING < _ttl(settings, 1) <= bot_claims.LIFETIME, "held: its task is in the broker"
