"""Files only their owner may read: the embedded store's data directory.

``DRAGONHALL_DATA_DIR`` holds the events (with every hand, goal and program of the
games still running), the accounts (token hashes, webhook nonces), the server key
from which every game's seed and every webhook secret derive, and the lock files
and version board the processes share. Created under the usual umask (022) they
were readable by every user of the machine. Dragonhall creates each of them 0600,
and the directories it makes 0700, whatever the umask: every process of one
deployment runs as the same user (``deploy/systemd``), so none of them loses access.
A file or directory that already exists keeps its mode: an operator may have chosen it.

SQLite creates a database's ``-wal`` and ``-shm`` files with the mode of the
database file itself, so a database created empty and 0600 before SQLite opens it
(``private_file``; an empty file is a valid SQLite database) keeps all three private.
"""

from __future__ import annotations

import contextlib
import mmap
import os
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    """Makes ``path``, and each missing directory above it, 0700; those that exist are left as they are."""
    missing = []
    at = path
    while not at.exists() and at != at.parent:
        missing.append(at)
        at = at.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            directory.mkdir(mode=DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Creates ``path`` empty and 0600 (and its directory 0700) if it is missing; an existing
    file is left untouched. Two processes may call it at once: one creates, the other finds it."""
    private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    return path


def shared_map(path: Path, size: int) -> mmap.mmap:
    """The first ``size`` bytes of ``path`` (made private and grown to ``size`` zero bytes if need be),
    mapped for reading and writing and shared with every process that maps the file: what the
    processes of one deployment tell each other without a system call."""
    fd = os.open(private_file(path), os.O_RDWR)
    try:
        if os.fstat(fd).st_size < size:
            os.ftruncate(fd, size)
        return mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    finally:
        os.close(fd)


def private_database(name: str | None) -> None:
    """Creates a SQLite database file 0600 before SQLite does (with the umask's 0644), unless
    ``name`` is an in-memory database or a URI, which name no plain file here."""
    if name and ":memory:" not in name and not name.startswith("file:"):
        private_file(Path(name))
