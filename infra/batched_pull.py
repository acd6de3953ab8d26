"""Store subscriptions that gather saves before they pull, and hand a projection
runner every pulled notification at once.

eventsourcing's ``ListenNotifySubscription`` pulls notifications in lists, then
hands them out one at a time through ``__next__``, and the runner's thread
passes each on through a queue: under load that is several thread hand-offs
per event, which cost more than processing the event. ``BatchedPull`` lets the
runner take everything pulled so far in one call instead. Its pull loop also
waits ``GATHER`` seconds after a wake-up, so that one query serves many saves,
and pulls at least every ``WAKE_TIMEOUT`` seconds when nothing wakes it.
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
    """After a wake-up, wait this long for more saves before pulling."""

    _has_been_notified: threading.Event
    _notifications: Sequence[Notification]
    _notifications_index: int
    _notifications_queue: Any
    _has_been_stopped: bool
    _thread_error: BaseException | None

    def _loop_on_pull(self) -> None:
        try:
            self._pull()  # type: ignore[attr-defined]
            while not self._has_been_stopped:
                if self._has_been_notified.wait(timeout=self.WAKE_TIMEOUT) and self.GATHER:
                    time.sleep(self.GATHER)
                self._pull()  # type: ignore[attr-defined]
        except BaseException as e:
            if self._thread_error is None:
                self._thread_error = e
            self.stop()  # type: ignore[attr-defined]

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
