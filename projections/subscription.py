"""Following a SQLite event store: a subscription that polls.

``SQLiteApplicationRecorder.subscribe()`` is not implemented in eventsourcing
9.5, so ``ProjectionRunner`` cannot follow a SQLite application out of the box.
This recorder subclass adds a subscription that pulls new notifications every
``POLL_INTERVAL`` seconds, and at once when a writer in the same process calls
``wake()`` after a save. Select it with ``APPLICATION_RECORDER_TOPIC``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import ListenNotifySubscription, Subscription
from eventsourcing.sqlite import SQLiteApplicationRecorder

POLL_INTERVAL = 0.2
TOPIC = "projections.subscription:PollingSQLiteApplicationRecorder"

_listeners: set[threading.Event] = set()
_listeners_lock = threading.Lock()


def wake() -> None:
    """Tells every polling subscription in this process that new events were saved."""
    with _listeners_lock:
        for flag in _listeners:
            flag.set()


class PollingSubscription(ListenNotifySubscription[Any]):
    """Pulls notifications on a timer, or at once when woken."""

    def __init__(self, recorder: Any, gt: int | None = None, topics: Sequence[str] = ()) -> None:
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        with _listeners_lock:
            _listeners.add(self._has_been_notified)

    def _loop_on_pull(self) -> None:
        try:
            self._pull()
            while not self._has_been_stopped:
                self._has_been_notified.wait(timeout=POLL_INTERVAL)
                self._pull()
        except BaseException as e:  # noqa: BLE001 - handed to the runner through the subscription
            if self._thread_error is None:
                self._thread_error = e
            self.stop()

    def stop(self) -> None:
        super().stop()
        with _listeners_lock:
            _listeners.discard(self._has_been_notified)


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """The SQLite application recorder, with a polling subscription."""

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return PollingSubscription(self, gt=gt, topics=topics)
