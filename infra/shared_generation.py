"""A generation shared by the processes of one host through a small mapped file
(``services.accounts.token_cache``): reading it is a read of memory, no system call, so every
request may read it."""

from __future__ import annotations

import mmap
import os
from pathlib import Path

from infra.private_files import private_file

_SIZE = 8


class SharedGeneration:
    """Eight bytes of a file in the data directory, mapped by every process that opens it."""

    def __init__(self, path: Path) -> None:
        fd = os.open(private_file(path), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < _SIZE:
                os.ftruncate(fd, _SIZE)
            self._map = mmap.mmap(fd, _SIZE)
        finally:
            os.close(fd)

    def read(self) -> int:
        return int.from_bytes(self._map[:_SIZE], "little")

    def move(self) -> None:
        """To a new random value: two processes moving it at once still leave it where no answer
        kept before either move can be found again."""
        self._map[:_SIZE] = os.urandom(_SIZE)

    def close(self) -> None:
        self._map.close()


class LocalGeneration:
    """The generation of a deployment of one process (the in-memory store)."""

    def __init__(self) -> None:
        self._value = 0

    def read(self) -> int:
        return self._value

    def move(self) -> None:
        self._value += 1
