"""The worker supervisor: a failing Celery worker is started again; a stopped one is not."""

from __future__ import annotations

import signal
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from workers import supervisor as sup
from workers.supervisor import Supervisor


class FakeChild:
    def __init__(self, code: int, on_wait: Any = None) -> None:
        self.code = code
        self.on_wait = on_wait
        self.signals: list[int] = []
        self.done = False

    def wait(self) -> int:
        if self.on_wait:
            self.on_wait(self)
        self.done = True
        return self.code

    def poll(self) -> int | None:
        return self.code if self.done else None

    def send_signal(self, signum: int) -> None:
        self.signals.append(signum)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Records the pauses between restarts instead of sleeping through them."""
    pauses: list[float] = []

    class RecordingEvent(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            pauses.append(timeout or 0.0)
            return self.is_set()

    monkeypatch.setattr(sup, "Event", RecordingEvent)
    return pauses


def _spawner(children: list[FakeChild]) -> tuple[list[Sequence[str]], Any]:
    commands: list[Sequence[str]] = []

    def spawn(command: Sequence[str]) -> FakeChild:
        commands.append(command)
        return children.pop(0)

    return commands, spawn


def test_a_worker_that_fails_is_started_again_with_growing_pauses(short_pauses: list[float]) -> None:
    commands, spawn = _spawner([FakeChild(1), FakeChild(-9), FakeChild(1), FakeChild(0)])
    s = Supervisor(["dragonhall", "worker", "--once"], spawn=spawn, clock=Clock())
    assert s.run() == 0
    assert len(commands) == 4 and s.restarts == 3
    assert all(c == ["dragonhall", "worker", "--once"] for c in commands)
    assert short_pauses == [sup.FIRST_PAUSE, 2 * sup.FIRST_PAUSE, 4 * sup.FIRST_PAUSE]


def test_the_pause_starts_over_after_a_worker_ran_steadily(short_pauses: list[float]) -> None:
    clock = Clock()

    def ran(seconds: float) -> Any:
        def on_wait(_child: FakeChild) -> None:
            clock.now += seconds

        return on_wait

    _, spawn = _spawner([FakeChild(1, ran(1)), FakeChild(1, ran(1)), FakeChild(1, ran(sup.STEADY + 1)), FakeChild(0)])
    assert Supervisor(["w"], spawn=spawn, clock=clock).run() == 0
    assert short_pauses == [sup.FIRST_PAUSE, 2 * sup.FIRST_PAUSE, sup.FIRST_PAUSE]


def test_the_pause_stops_growing_at_its_longest(short_pauses: list[float]) -> None:
    _, spawn = _spawner([FakeChild(1) for _ in range(9)] + [FakeChild(0)])
    Supervisor(["w"], spawn=spawn, clock=Clock()).run()
    assert max(short_pauses) == sup.LONGEST_PAUSE and short_pauses[-1] == sup.LONGEST_PAUSE


def test_stopping_asks_the_worker_for_a_warm_shutdown_and_ends_with_its_exit_code() -> None:
    holder: dict[str, Supervisor] = {}

    def stopped_meanwhile(child: FakeChild) -> None:
        holder["s"].stop()  # as the SIGTERM handler does while the main thread waits
        child.code = 3 if signal.SIGTERM in child.signals else 99

    commands, spawn = _spawner([FakeChild(0, stopped_meanwhile), FakeChild(0)])
    holder["s"] = s = Supervisor(["w"], spawn=spawn, clock=Clock())
    assert s.run() == 3
    assert len(commands) == 1 and s.restarts == 0


def test_a_stop_during_the_pause_starts_no_new_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    class SignalledWhilePausing(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            self.set()
            return True

    monkeypatch.setattr(sup, "Event", SignalledWhilePausing)
    commands, spawn = _spawner([FakeChild(1), FakeChild(0)])
    s = Supervisor(["w"], spawn=spawn, clock=Clock())
    assert s.run() == 1 and len(commands) == 1 and s.restarts == 0


def test_a_worker_that_exits_cleanly_of_its_own_accord_is_not_restarted() -> None:
    commands, spawn = _spawner([FakeChild(0), FakeChild(0)])
    assert Supervisor(["w"], spawn=spawn, clock=Clock()).run() == 0
    assert len(commands) == 1
