"""Wake-ups for the streams: "something changed under this key, read again".

A stream never learns *what* changed from a wake-up: it reads the event store
(or the account feed) from the position it has sent up to. A lost or repeated
wake-up therefore costs latency at worst, never a missed or doubled line, and a
stream also reads again every ``POLL_FALLBACK`` seconds without one.

``Wakeups`` is the hub of one process: a stream subscribes to a key (``game:<id>``
or ``account:<player id>``) and waits; ``publish`` wakes every subscriber of the key
in this process and hands the key to the ``Broadcast``, which carries it to the
other processes of the deployment (Redis pub/sub, PostgreSQL ``LISTEN/NOTIFY``,
``infra.wake_transports``), where it is ``deliver``-ed to their hubs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

POLL_FALLBACK = 2.5
"""Seconds a stream waits for a wake-up before it reads again anyway: the longest a lost
wake-up delays a line. (Each open stream costs one read per period: 1,000 streams at 2.5 s
are 400 reads a second.)"""


def game_key(game_id: str) -> str:
    return f"game:{game_id}"


def account_key(player_id: str) -> str:
    return f"account:{player_id}"


def tokens_key(player_id: str) -> str:
    """Published when one of the account's tokens is revoked: its streams check theirs at once."""
    return f"tokens:{player_id}"


KEYS_PER_MESSAGE = 64
"""Keys carried in one message at most (a PostgreSQL notification holds under 8,000 bytes)."""


class Broadcast(Protocol):
    """Carries keys to the other processes of the deployment."""

    follow_waits: bool
    """Whether ``interested`` may wait for a round trip (PostgreSQL's ``LISTEN``): an event loop
    then calls ``Wakeups.follow`` off its own thread."""

    def send(self, key: str) -> None:
        """Tells the other processes that ``key`` changed (best effort); ``key`` may be several
        keys, one a line."""

    def interested(self, key: str, following: bool) -> None:
        """One more (or one fewer) stream of this process follows ``key``: a transport that can
        spare a process the keys nobody there follows counts it (``infra.wake_interest``)."""

    def close(self) -> None:
        """Stops listening and releases connections."""


class NoBroadcast:
    """One process serves the deployment (the embedded default): nothing to carry."""

    follow_waits = False

    def send(self, key: str) -> None:
        return None

    def interested(self, key: str, following: bool) -> None:
        return None

    def close(self) -> None:
        return None


class Subscription:
    """One stream's interest in one key: ``wait`` returns when it was woken or timed out."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def wake(self) -> None:
        self._event.set()

    def wait(self, timeout: float) -> bool:
        """Waits up to ``timeout`` seconds; True if woken. The wake is consumed before the
        caller reads, so a change published while it reads wakes the next wait."""
        woken = self._event.wait(timeout)
        self._event.clear()
        return woken


class Wakeups:
    """The subscribers of this process, by key."""

    def __init__(self, transport: Callable[[Callable[[str], None]], Broadcast] | None = None) -> None:
        """``transport`` builds what carries this process's wakes to the others, given the
        ``deliver`` it calls with each key another process published; none: this process only."""
        self.broadcast: Broadcast = NoBroadcast() if transport is None else transport(self.deliver)
        self.observers: list[Callable[[str], None]] = []
        """Told every key delivered here before its subscribers wake (``api.stream_hub.StreamHub``)."""
        self._subscribers: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()

    @contextmanager
    def subscribe(self, *keys: str) -> Iterator[Subscription]:
        """One subscription woken by a publication of any of ``keys``."""
        subscription = Subscription()
        with self._lock:
            for key in keys:
                self._subscribers.setdefault(key, set()).add(subscription)
        self.follow(*keys)
        try:
            yield subscription
        finally:
            self.unfollow(*keys)
            with self._lock:
                for key in keys:
                    held = self._subscribers.get(key)
                    if held is not None:
                        held.discard(subscription)
                        if not held:
                            del self._subscribers[key]

    def follow(self, *keys: str) -> None:
        """A stream of this process follows ``keys`` (before it reads them): the other processes
        send them here (``Broadcast.interested``). Each call is undone by one ``unfollow``."""
        for key in keys:
            self.broadcast.interested(key, True)

    def unfollow(self, *keys: str) -> None:
        for key in keys:
            self.broadcast.interested(key, False)

    def publish(self, key: str) -> None:
        """Wakes the subscribers of ``key`` here and in every other process."""
        self.deliver(key)
        self.broadcast.send(key)

    def publish_all(self, keys: Iterable[str]) -> None:
        """``publish`` of each of ``keys``, carried to the other processes in as few messages as
        ``KEYS_PER_MESSAGE`` allows (one line a key): the read models announce a batch's accounts
        together, rather than one datagram to every process per account."""
        distinct = list(dict.fromkeys(keys))
        for key in distinct:
            self.deliver(key)
        for start in range(0, len(distinct), KEYS_PER_MESSAGE):
            self.broadcast.send("\n".join(distinct[start : start + KEYS_PER_MESSAGE]))

    def deliver(self, key: str) -> None:
        """Wakes the subscribers of ``key`` in this process only (a broadcast received)."""
        for observe in self.observers:
            observe(key)
        if key not in self._subscribers:  # nobody here waits on it (a lookup, atomic under the GIL)
            return
        with self._lock:
            held = list(self._subscribers.get(key, ()))
        for subscription in held:
            subscription.wake()

    def subscribers(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())

    def close(self) -> None:
        self.broadcast.close()
