"""How often a store subscription pulls: at most once every ``GATHER`` seconds while saves keep
coming, and at once for a save after a quiet spell."""

from __future__ import annotations

import threading
import time

from infra.batched_pull import BatchedPull

GATHER = 3.0
"""Long against the test's own waits, so that "at once" and "after the gather" cannot be confused."""


class Counting(BatchedPull):
    """The pull loop of a subscription whose pulls are only counted."""

    WAKE_TIMEOUT = None

    def __init__(self) -> None:
        self.GATHER = GATHER
        self._has_been_notified = threading.Event()
        self._has_been_stopped = False
        self._thread_error = None
        self.pulls: list[float] = []
        self.steps: list[str] = []
        self.pulled = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._loop_on_pull, daemon=True)
        self._thread.start()

    def _gathering(self, gathering: bool) -> None:
        self.steps.append("gather" if gathering else "gathered")

    def _pull(self) -> None:
        self._has_been_notified.clear()
        self.steps.append("pull")
        self.pulls.append(time.monotonic())
        self.pulled.release()

    def stop(self) -> None:
        self._has_been_stopped = True
        self._has_been_notified.set()


def test_a_save_after_a_quiet_spell_is_pulled_at_once_and_a_burst_is_gathered() -> None:
    sub = Counting()
    try:
        assert sub.pulled.acquire(timeout=5)  # the first pull, of what was stored before
        time.sleep(GATHER)  # quiet
        woken = time.monotonic()
        sub._has_been_notified.set()
        assert sub.pulled.acquire(timeout=GATHER / 2), "a lone save is pulled without waiting the gather"
        assert sub.pulls[-1] - woken < GATHER / 2
        for _ in range(5):  # a burst right after: one more pull, once the gather has passed
            sub._has_been_notified.set()
            time.sleep(0.01)
        assert sub.pulled.acquire(timeout=2 * GATHER)
        assert sub.pulls[-1] - sub.pulls[-2] >= GATHER - 0.05
        assert not sub.pulled.acquire(timeout=0.2), "the burst's saves shared that pull"
    finally:
        sub.stop()


def test_a_gather_is_told_before_its_sleep_and_after_it_before_the_pull() -> None:
    """The projection process wants no wake-up while it gathers (``sqlite_events.ARMING``): it is
    told when the gather starts, and again before the pull reads, so a save whose wake-up was
    spared meanwhile is committed before that read."""
    sub = Counting()
    try:
        assert sub.pulled.acquire(timeout=5)
        sub._has_been_notified.set()  # within GATHER of the first pull: gathered
        assert sub.pulled.acquire(timeout=2 * GATHER)
        assert sub.steps == ["pull", "gather", "gathered", "pull"]
    finally:
        sub.stop()
