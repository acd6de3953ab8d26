"""Stream wake-ups between the processes of a PostgreSQL deployment without Redis: ``LISTEN/NOTIFY``
(``infra.wake_transports`` has the other transports and what they share)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import select
import threading
from typing import Any

from infra import wake_interest
from infra.wake_transports import Deliver, Reconnecting, log, new_origin, split_message


class PostgresBroadcast(Reconnecting):
    """``NOTIFY`` on channels of one deployment (its schema names them), ``LISTEN`` on a connection
    of its own.

    A game's or an account's key goes to the channel of its slot (``wake_interest.slot``, one of
    ``SLOTS``), which a process listens to only while one of its streams follows a key of that slot;
    other keys (a token's: rare) go to the deployment's channel, which every process listens to. So
    a move of a game nobody follows reaches no process: every move's ``NOTIFY`` used to reach every
    process, whose listener then took the GIL to learn that none of its streams followed the game
    (2.6% of each HTTP process's CPU on PostgreSQL, 0.05 ms a move, issue 39's eleventh sitting).

    A stream's ``follow`` returns once its slot's ``LISTEN`` is in effect (the listener runs it, woken
    through a pipe of this process: ``follow_waits``), and a save notifies after its commit: so
    either the stream's catch-up holds the save, or its process hears of it. A process of an older
    release listens to the deployment's channel alone, and hears no game's wake-up from this one (its
    streams poll: ``wakeups.POLL_FALLBACK``) until it is upgraded too."""

    what = "PostgreSQL"
    SLOTS = 1024
    """Slot channels: a process listens to as many at most, however many keys its streams follow."""
    FOLLOW_WAIT = 2.0
    """Seconds a ``follow`` waits for its ``LISTEN`` at most (a database out of reach)."""
    follow_waits = True
    """``interested`` may wait for the listener's round trip: the streams' loop calls it off its thread."""

    def __init__(self, conninfo: str, deliver: Deliver, schema: str | None = None) -> None:
        self.channel = "dragonhall_wake" + (f"_{re.sub(r'[^a-z0-9_]', '_', schema.lower())}" if schema else "")
        self._prefix = "dhw_" + hashlib.sha256(self.channel.encode()).hexdigest()[:16]
        self.origin = new_origin()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._conninfo = conninfo
        self._deliver = deliver
        self._send_lock = threading.Lock()
        self._sender: Any = None
        self._counts: dict[str, int] = {}
        """Slot channel -> the streams of this process following a key of it."""
        self._changes: dict[str, bool] = {}
        """Slot channels to ``LISTEN`` (True) or ``UNLISTEN`` (False) at the listener's next turn."""
        self._asked = self._applied = 0
        self._listen_asked: dict[str, int] = {}
        """Slot channel -> the change that listens to it: a follower waits until it is applied."""
        self._turn = threading.Condition()
        self._start_listening("pg-wake-listener")

    def channel_of(self, key: str) -> str:
        """The channel ``key`` is sent on (``wake_interest.slot``)."""
        index = wake_interest.slot(key)
        return self.channel if index is None else f"{self._prefix}_{index % self.SLOTS}"

    def interested(self, key: str, following: bool) -> None:
        """Counts one more (or one fewer) stream following ``key``; one more returns once this
        process listens to its channel."""
        channel = self.channel_of(key)
        if channel == self.channel:
            return
        with self._turn:
            count = self._counts.get(channel, 0) + (1 if following else -1)
            if count > 0:
                self._counts[channel] = count
            else:
                self._counts.pop(channel, None)
            if count == (1 if following else 0):
                self._asked += 1
                self._changes[channel] = following
                if following:
                    self._listen_asked[channel] = self._asked
            ticket = self._listen_asked.get(channel, 0) if following else 0
            if ticket <= self._applied:
                return
        self._wake_listener()
        with self._turn:
            self._turn.wait_for(lambda: self._applied >= ticket or self._stopping.is_set(), self.FOLLOW_WAIT)

    def _wake_listener(self) -> None:
        with contextlib.suppress(BlockingIOError):  # a full pipe wakes it as well
            os.write(self._wake_w, b"x")

    def _session(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True) as conn:
            with self._turn:
                listened, asked = [self.channel, *self._counts], self._asked
                self._changes.clear()
            conn.execute("".join(f'LISTEN "{channel}";' for channel in listened))
            self._applied_up_to(asked)
            self._listening.set()
            while not self._stopping.is_set():
                self._drain(conn)
                self._apply(conn)
                self._drain(conn)  # what came in while it ran
                ready, _, _ = select.select([conn.fileno(), self._wake_r], [], [], 1.0)
                if self._wake_r in ready:
                    os.read(self._wake_r, 4096)

    def _drain(self, conn: Any) -> None:
        """Delivers the notifications received, without waiting for more."""
        for notice in conn.notifies(timeout=0):
            for key in split_message(notice.payload, self.origin):
                self._deliver(key)

    def _apply(self, conn: Any) -> None:
        """Runs the ``LISTEN`` and ``UNLISTEN`` asked since the last turn, in one round trip."""
        with self._turn:
            changes, asked = self._changes, self._asked
            self._changes = {}
        if changes:
            conn.execute("".join(f'{"LISTEN" if on else "UNLISTEN"} "{channel}";' for channel, on in changes.items()))
        self._applied_up_to(asked)

    def _applied_up_to(self, asked: int) -> None:
        with self._turn:
            self._applied = max(self._applied, asked)
            self._turn.notify_all()

    def send(self, key: str) -> None:
        """Sends ``key`` (keys, one a line) on each key's channel, in one statement."""
        by_channel: dict[str, list[str]] = {}
        for one in key.split("\n"):
            by_channel.setdefault(self.channel_of(one), []).append(one)
        self._notify([(channel, f"{self.origin}|" + "\n".join(keys)) for channel, keys in by_channel.items()])

    def _notify(self, messages: list[tuple[str, str]]) -> None:
        import psycopg

        with self._send_lock:
            try:
                if self._sender is None or self._sender.closed:
                    self._sender = psycopg.connect(self._conninfo, autocommit=True)
                self._sender.execute(
                    "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) AS m(c, p)",
                    ([c for c, _ in messages], [p for _, p in messages]),
                )
            except Exception as e:
                log.warning("could not send a wake-up through PostgreSQL: %s", e)
                self._sender = None

    def close(self) -> None:
        self._stopping.set()
        self._wake_listener()  # the listener stops now
        self._thread.join(timeout=3)
        with self._turn:
            self._turn.notify_all()
        with self._send_lock:
            if self._sender is not None:
                self._sender.close()
                self._sender = None
        os.close(self._wake_r)
        os.close(self._wake_w)
