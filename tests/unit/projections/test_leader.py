"""The projections' leader: one runner per lock file, restarted when it fails."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from projections import leader as leadership
from projections.leader_locks import FileLeaderLock
from tests.support.runners import FakeRunner, eventually


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: Any) -> None:
    monkeypatch.setattr(leadership, "RETRY", 0.02)


@pytest.fixture
def started() -> list[FakeRunner]:
    return []


@pytest.fixture
def make_leader(tmp_path: Path, started: list[FakeRunner]) -> Iterator[Callable[[], leadership.ProjectionLeader]]:
    leaders: list[leadership.ProjectionLeader] = []

    def start() -> FakeRunner:
        started.append(FakeRunner())
        return started[-1]

    def make() -> leadership.ProjectionLeader:
        leaders.append(leadership.ProjectionLeader(FileLeaderLock(tmp_path / "projections.lock"), start))
        return leaders[-1]

    yield make
    for one in leaders:
        one.stop()


def test_a_runner_that_fails_is_replaced_and_its_error_logged(
    make_leader: Any, started: list[FakeRunner], caplog: Any
) -> None:
    leader = make_leader()
    assert eventually(lambda: leader.runner is not None)
    first = started[0]
    with caplog.at_level(logging.ERROR, logger="dragonhall.projections"):
        first.fail(RuntimeError("connection lost"))
        assert eventually(lambda: leader.runner is not None and leader.runner is not first)
    assert first.exited
    assert "connection lost" in caplog.text
    assert len(started) == 2


def test_a_healthy_runner_is_left_alone(make_leader: Any, started: list[FakeRunner]) -> None:
    leader = make_leader()
    assert eventually(lambda: leader.runner is not None)
    time.sleep(0.2)  # ten rounds of the leader's watch
    assert len(started) == 1
    assert not started[0].exited


def test_only_the_lock_holder_runs_and_another_takes_over_when_it_stops(
    make_leader: Any, started: list[FakeRunner]
) -> None:
    first = make_leader()
    assert eventually(lambda: first.runner is not None)
    second = make_leader()
    time.sleep(0.2)
    assert second.runner is None
    first.stop()
    assert started[0].exited
    assert eventually(lambda: second.runner is not None)
    assert len(started) == 2
