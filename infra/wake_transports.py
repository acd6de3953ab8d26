"""Carrying stream wake-ups between the processes of one deployment (``services.streams.wakeups``).

Three transports, one per kind of deployment:

* ``RedisBroadcast``: Redis pub/sub, when a Redis broker is configured.
* ``PostgresBroadcast``: PostgreSQL ``LISTEN/NOTIFY``, on PostgreSQL without Redis
  (``infra.postgres_wakeups``).
* ``UnixBroadcast``: Unix datagram sockets in the data directory, for the processes
  of one host sharing a SQLite store (``dragonhall serve`` runs two HTTP processes
  and a projector on a 2-core machine).

Each listens on a daemon thread and hands every key it receives from another
process to ``deliver``. Messages are ``<origin>|<key>``: a process skips its own,
which its hub has already delivered. Every transport is best effort: a lost
message delays a stream until its next poll (``wakeups.POLL_FALLBACK``), never
loses a line, so errors are logged and the listener carries on.
"""

from __future__ import annotations

import abc
import contextlib
import logging
import mmap
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from infra import wake_interest

log = logging.getLogger("dragonhall.wakeups")

Deliver = Callable[[str], None]
RETRY = 1.0
"""Seconds before a listener whose connection failed connects again."""


def new_origin() -> str:
    return uuid.uuid4().hex[:12]


def split_message(message: str, origin: str) -> list[str]:
    """The keys of ``<origin>|<key>[\\n<key>...]`` sent by another process (none of this one's)."""
    sender, _, keys = message.partition("|")
    return [] if sender == origin else [key for key in keys.split("\n") if key]


# ------------------------------------------------------------------ Redis


class Reconnecting(abc.ABC):
    """A listener thread that connects, listens until stopped, and connects again ``RETRY`` seconds
    after its connection is lost: a broker or database that cannot be reached (at start or later)
    costs wake-ups, not the process."""

    what = ""
    """What it listens to, for the log."""
    follow_waits = False

    def interested(self, key: str, following: bool) -> None:
        """Every process hears every key of a channel: nothing to tell the senders."""
        return None

    def _start_listening(self, name: str) -> None:
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._listen, name=name, daemon=True)
        self._thread.start()
        self._listening.wait(timeout=5)

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                self._session()
            except Exception as e:
                self._listening.set()
                if not self._stopping.is_set():
                    log.warning("wake-up listener lost %s (%s); trying again", self.what, e)
                    self._stopping.wait(RETRY)

    @abc.abstractmethod
    def _session(self) -> None:
        """Connects, sets ``_listening``, and delivers what it hears until ``_stopping`` is set."""


class RedisBroadcast(Reconnecting):
    """Redis pub/sub on one channel per deployment."""

    what = "Redis"

    def __init__(self, url: str, deliver: Deliver, channel: str = "dragonhall:wake") -> None:
        import redis

        self.channel = channel
        self.origin = new_origin()
        self._deliver = deliver
        self._client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._start_listening("redis-wake-listener")

    def _session(self) -> None:
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.channel)
            self._listening.set()
            while not self._stopping.is_set():
                message = pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._received(message)
        finally:
            pubsub.close()

    def _received(self, message: dict[str, Any]) -> None:
        data = message.get("data")
        text = data.decode() if isinstance(data, bytes) else str(data)
        for key in split_message(text, self.origin):
            self._deliver(key)

    def send(self, key: str) -> None:
        try:
            self._client.publish(self.channel, f"{self.origin}|{key}")
        except Exception as e:
            log.warning("could not publish a wake-up to Redis: %s", e)

    def close(self) -> None:
        self._stopping.set()
        self.send("")  # wakes the listener now rather than at its next second: every receiver drops an empty key
        self._thread.join(timeout=3)
        self._client.close()


# ------------------------------------------------------------------ Unix datagrams


class AllWanted(Protocol):
    """Tells its watchers whether this process wants every game's wake-up now
    (``infra.sqlite_events.ARMING``: while its projections wait for one)."""

    def watch(self, hook: Callable[[bool], None]) -> None: ...
    def unwatch(self, hook: Callable[[bool], None]) -> None: ...


class UnixBroadcast:
    """One datagram socket per process in ``directory``; a key is sent to every other socket
    there. A socket whose process has died refuses the datagram and is removed.

    A receiving socket queues ``net.unix.max_dgram_qlen`` datagrams (10 by default), and its
    listener thread takes them only when it gets the GIL: under load the queue fills, and a
    datagram sent then is refused. Measured with ``bench/streams.py``, some 460 wake-ups in ten
    seconds were refused, and each left its streams waiting for their poll (up to 2.5 s). So
    a refused key is held for its peer and sent again ``RESEND`` seconds later, with the keys
    refused since, in one datagram: keys only say "read again", so any number of them coalesce.
    """

    follow_waits = False

    REFRESH = 1.0
    """Seconds the list of the other processes' sockets is trusted before it is read again."""
    RESEND = 0.002
    """Seconds before keys a peer's full queue refused are sent to it again."""
    MOST_KEYS = 64
    """Keys in one datagram at most (about 3 KB)."""
    LARGEST = 65536
    """Bytes the listener reads of one datagram."""
    DRAIN = 64
    """Datagrams the listener reads at most before it delivers their keys."""

    def __init__(self, directory: Path, deliver: Deliver, wants_all: AllWanted | None = None) -> None:
        """``wants_all``: tells whether this process wants every game's wake-up, not only those of
        the games its streams follow (``wake_interest``), each time that changes."""
        self.directory = directory
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.origin = new_origin()
        self.path = directory / f"{os.getpid()}-{self.origin}.sock"
        self._deliver = deliver
        self._wants_all = wants_all
        self.interest = wake_interest.Interest(self.path.with_suffix(wake_interest.SUFFIX))  # before the socket
        if wants_all is not None:
            wants_all.watch(self.interest.want_all)
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(self.path))
        os.chmod(self.path, 0o600)
        self._socket.settimeout(1.0)  # the listener sees ``close`` within a second
        self._queued = self._socket.dup()  # the same socket, read without waiting: what has queued
        self._queued.setblocking(False)
        self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sender.setblocking(False)
        self._peers: list[tuple[str, mmap.mmap | None]] = []
        """The other processes' sockets, each with its table of the games it follows."""
        self._peers_read = 0.0
        self._lock = threading.Lock()
        self._held: dict[str, dict[str, None]] = {}
        """Keys refused by each peer's full queue, in order, to send again."""
        self._resend: threading.Thread | None = None
        self._refused = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._listen, name="unix-wake-listener", daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        """Delivers each key once per wake of this thread: the datagrams that queued while it waited
        for the GIL are read together, and a key sent by several of them is delivered once (a key only
        says "read again"). Under load every move sent one, and the thread took the GIL for each."""
        while not self._stopping:
            try:
                data = [self._socket.recv(self.LARGEST)]
                while len(data) < self.DRAIN:
                    data.append(self._queued.recv(self.LARGEST))
            except TimeoutError:
                continue
            except BlockingIOError:  # nothing more queued
                pass
            except OSError:
                return
            keys: dict[str, None] = {}
            for datagram in data:
                keys.update(dict.fromkeys(split_message(datagram.decode(errors="replace"), self.origin)))
            for key in keys:
                self._deliver(key)

    def _others(self) -> list[tuple[str, mmap.mmap | None]]:
        now = time.monotonic()
        with self._lock:
            if now - self._peers_read > self.REFRESH:
                mine, known = self.path.name, dict(self._peers)
                paths = [str(p) for p in self.directory.glob("*.sock") if p.name != mine]
                self._peers = [(p, known.get(p) or wake_interest.read_table(p)) for p in paths]
                self._peers_read = now
            return self._peers

    def interested(self, key: str, following: bool) -> None:
        self.interest.follow(key, following)

    def send(self, key: str) -> None:
        """Sends ``key`` (keys, one a line) to every other process, each only the games it follows."""
        for peer, table in self._others():
            keys = wake_interest.wanted(table, key)
            if keys:
                self._send_to(peer, keys)

    def _send_to(self, peer: str, key: str | None) -> None:
        """Sends ``key`` to ``peer`` with the keys it refused before; holds them all if it refuses again."""
        with self._lock:
            held = self._held.pop(peer, {})
        if key is not None:
            held[key] = None
        keys = list(held)
        while keys:
            batch, keys = keys[: self.MOST_KEYS], keys[self.MOST_KEYS :]
            message = self.origin + "|" + "\n".join(batch)
            try:
                self._sender.sendto(message.encode(), peer)
            except (ConnectionRefusedError, FileNotFoundError):
                self._drop(peer)
                return
            except OSError:  # its queue is full (BlockingIOError): send again shortly
                self._hold(peer, batch + keys)
                return

    def _hold(self, peer: str, keys: list[str]) -> None:
        """Keeps ``keys`` for ``peer``, for the resending thread (started at the first refusal, and
        kept: under load a peer's queue fills many times a second, and a timer thread started for
        each cost a thread's creation every time)."""
        with self._lock:
            held = self._held.setdefault(peer, {})
            held.update(dict.fromkeys(keys))
            if self._resend is None and not self._stopping:
                self._resend = threading.Thread(target=self._resending, name="unix-wake-resend", daemon=True)
                self._resend.start()
        self._refused.set()

    def _resending(self) -> None:
        while not self._stopping:
            self._refused.wait(timeout=1.0)
            if self._stopping:
                return
            if not self._refused.is_set():
                continue
            self._refused.clear()
            time.sleep(self.RESEND)
            self._send_held()

    def _send_held(self) -> None:
        with self._lock:
            peers = list(self._held)
        for peer in peers:
            self._send_to(peer, None)

    def _drop(self, peer: str) -> None:
        for path in (peer, peer.removesuffix(".sock") + wake_interest.SUFFIX):
            with contextlib.suppress(OSError):
                os.unlink(path)
        with self._lock:
            self._peers_read = 0.0
            self._held.pop(peer, None)

    def close(self) -> None:
        """Wakes the listener with an empty datagram of its own, so a stopping process does not
        wait out the receive timeout (a second of every HTTP process's shutdown)."""
        self._stopping = True
        self._refused.set()  # the resending thread sees ``_stopping`` at once
        with contextlib.suppress(OSError):
            self._sender.sendto(b"", str(self.path))
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        self._thread.join(timeout=3)
        if self._wants_all is not None:
            self._wants_all.unwatch(self.interest.want_all)
        self.interest.close()
        self._socket.close()
        self._queued.close()
        self._sender.close()
