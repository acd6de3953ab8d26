"""Whether this process wants every game's wake-up now: while a subscription of its read models'
projections waits for one (``infra.sqlite_events.ARMING``, told to ``wake_transports.UnixBroadcast``).

A subscription that was woken gathers the saves of a few milliseconds (``sqlite_events.COALESCE``)
before it pulls; a wake-up sent meanwhile only sets a flag already set. Under load the projection
process was sent a datagram by each HTTP process for every move, some ten for each pull. So a
subscription is disarmed while it gathers, and armed again before its pull reads: a save whose
sender found it disarmed was committed before the pull, which reads it; a save after that finds it
armed.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable


class Arming:
    """Whether any of a process's subscriptions waits for a wake-up (is armed), told to watchers at
    every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: weakref.WeakSet[object] = weakref.WeakSet()
        self._retired: weakref.WeakSet[object] = weakref.WeakSet()
        self._watchers: list[Callable[[bool], None]] = []

    def watch(self, hook: Callable[[bool], None]) -> None:
        """Calls ``hook`` with whether any subscription is armed: now, and at every change."""
        with self._lock:
            self._watchers.append(hook)
            hook(bool(self._armed))

    def unwatch(self, hook: Callable[[bool], None]) -> None:
        with self._lock:
            if hook in self._watchers:
                self._watchers.remove(hook)

    def arm(self, subscription: object, armed: bool) -> None:
        """``subscription`` waits for a wake-up (``armed``) or will pull anyway; a retired one is
        never armed again."""
        with self._lock:
            if armed and subscription in self._retired:
                return
            before = bool(self._armed)
            if armed:
                self._armed.add(subscription)
            else:
                self._armed.discard(subscription)
            self._tell(before)

    def retire(self, subscription: object) -> None:
        """``subscription`` has stopped."""
        with self._lock:
            before = bool(self._armed)
            self._retired.add(subscription)
            self._armed.discard(subscription)
            self._tell(before)

    def _tell(self, before: bool) -> None:
        now = bool(self._armed)
        if now != before:
            for hook in self._watchers:
                hook(now)
