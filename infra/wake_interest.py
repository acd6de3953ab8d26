"""Which games and accounts the streams of each process follow, shared through one small file per
process, so that a process sends a game's or an account's wake-up only to the processes that follow
it (``wake_transports.UnixBroadcast``).

Measured in issue 39's quiet sitting, the wake-ups cost 0.2 ms of a move's 1.2: between the two
HTTP processes every move was a datagram to the other, whose listener thread then took the GIL to
learn that none of its streams followed the game. Each process now maps a file of one byte per
slot (a game's or an account's key hashed): a slot's byte is set while a stream of the process
follows a game or an account of that slot. The first byte is set while the process wants every
game's wake-up: while its read models' projections wait for one to pull
(``infra.sqlite_events.ARMING``; not while they gather the saves of a few milliseconds, which
their pull will read anyway). A sender reads its peer's byte, in memory, without a system call. A
slot two keys share costs a wake-up too many, never one too few; a peer without a file (one still
starting, or of an older version) is sent every key.

Until 2026-11-30 the accounts' keys (an entry in an account's feed: a ``your_turn`` of every turn)
went to every process, and the projection process was sent every game's key: under load, in a
py-spy of it, 8% of its runner thread's samples were its datagrams to the HTTP processes, for
account streams nobody held, and each HTTP process sent it one datagram a move, some ten for each
of its pulls. A token's key (a revocation) is still sent everywhere: it is rare.

Nothing is lost between a stream's start and its first wake-up: a stream sets its byte before it
reads its catch-up, and a sender reads the byte after its save is committed, so either the
catch-up holds the save or the sender sees the byte.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import threading
import zlib
from pathlib import Path

SLOTS = 1 << 16
"""Slots of the table: with a few thousand followed games, few keys share one."""
SUFFIX = ".wants"
"""A process's table is its socket's path with this suffix instead of ``.sock``."""
_SIZE = 1 + SLOTS


FOLLOWED = ("game:", "account:")
"""The kinds of keys sent only where a stream follows them."""


def slot(key: str) -> int | None:
    """The slot of a game's or an account's key; None for every other key (a token's), which is
    always sent."""
    if not key.startswith(FOLLOWED):
        return None
    return zlib.crc32(key.encode()) & (SLOTS - 1)


class Interest:
    """This process's table: how many of its streams follow each slot, and the file that says
    which slots are followed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.ftruncate(fd, _SIZE)
            self._table = mmap.mmap(fd, _SIZE)
        finally:
            os.close(fd)
        self._counts: dict[int, int] = {}
        self._lock = threading.Lock()

    def follow(self, key: str, following: bool) -> None:
        """Counts one more (or one fewer) stream following ``key``; its slot's byte is set while any does."""
        index = slot(key)
        if index is None:
            return
        with self._lock:
            count = self._counts.get(index, 0) + (1 if following else -1)
            if count > 0:
                self._counts[index] = count
            else:
                self._counts.pop(index, None)
            self._table[1 + index] = 1 if count > 0 else 0

    def want_all(self, wanted: bool) -> None:
        """Asks for every game's wake-up (this process runs the projections) or stops asking."""
        self._table[0] = 1 if wanted else 0

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        self._table.close()


def read_table(socket_path: str) -> mmap.mmap | None:
    """A peer's table, mapped read-only; None where it has none (yet): it is then sent every key."""
    path = socket_path.removesuffix(".sock") + SUFFIX
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size < _SIZE:
                return None
            return mmap.mmap(f.fileno(), _SIZE, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def wanted(table: mmap.mmap | None, keys: str) -> str:
    """The keys of ``keys`` (one a line) that the peer of ``table`` wants."""
    if table is None or table[0]:
        return keys
    if "\n" not in keys:
        return keys if _wants(table, keys) else ""
    return "\n".join(key for key in keys.split("\n") if _wants(table, key))


def _wants(table: mmap.mmap, key: str) -> bool:
    index = slot(key)
    return index is None or table[1 + index] != 0
