"""Store subscriptions that gather saves before they pull, and hand a projection
runner every pulled notification at once.

eventsourcing's ``ListenNotifySubscription`` pulls notifications in lists, then
hands them out one at a time through ``__next__``, and the runner's thread
passes each on through a queue: under load that is several thread hand-offs
per event, which cost more than processing the event. ``BatchedPull`` lets the
runner take everything pulled so far in one call instead. Its pull loop also
pulls at most once every ``GATHER`` seconds, so that under load one query serves
many saves, and at least every ``WAKE_TIMEOUT`` seconds when nothing wakes it.

A wake-up after a quiet spell is pulled at once: it used to wait ``GATHER`` too,
which on PostgreSQL (0.2 s) made every read model, and the account streams'
``your_turn`` written from them, a fifth of a second late even for a lone move.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Notification, ShutDown


class BatchedPull:
    """A mixin for ``ListenNotifySubscription`` subclasses."""

    WAKE_TIMEOUT: float | None = None
    """Pull at least this often even when not woken (None: only when woken)."""
    GATHER = 0.0
    """Seconds between two pulls at least, when woken: the saves of that time share one pull."""

    _has_been_notified: threading.Event
    _notifications: Sequence[Notification]
    _notifications_index: int
    _notifications_queue: Any
    _has_been_stopped: bool
    _thread_error: BaseException | None

    def _loop_on_pull(self) -> None:
        try:
            last = time.monotonic()
            self._pull()  # type: ignore[attr-defined]
            while not self._has_been_stopped:
                if self._has_been_notified.wait(timeout=self.WAKE_TIMEOUT) and self.GATHER:
                    self._gather(last + self.GATHER - time.monotonic())
                last = time.monotonic()
                self._pull()  # type: ignore[attr-defined]
        except BaseException as e:
            if self._thread_error is None:
                self._thread_error = e
            self.stop()  # type: ignore[attr-defined]

    def _gather(self, pause: float) -> None:
        """Sleeps ``pause`` seconds, if any, told to ``_gathering`` before and after: the pull that
        follows reads every save of that time, so the wake-ups sent meanwhile are not needed."""
        if pause <= 0:
            return
        self._gathering(True)
        try:
            time.sleep(pause)
        finally:
            self._gathering(False)

    def _gathering(self, gathering: bool) -> None:
        """Told when a gather starts and ends (before the pull reads)."""

    def take_batch(self, limit: int, timeout: float) -> list[Notification] | None:
        """Up to ``limit`` notifications, all those pulled and not yet taken; waits up to
        ``timeout`` seconds for the first (an empty list if none came). None once stopped;
        raises the pulling thread's error if it failed."""
        out = list(self._notifications[self._notifications_index :])
        self._notifications, self._notifications_index = [], 0
        try:
            if not out:
                out = list(self._notifications_queue.get(timeout=timeout))
                self._notifications_queue.task_done()
            while len(out) < limit:
                out.extend(self._notifications_queue.get_nowait())
                self._notifications_queue.task_done()
        except queue.Empty:
            pass
        except ShutDown:
            out = []
        if self._has_been_stopped and not out:
            if self._thread_error is not None:
                raise self._thread_error
            return None
        return out
