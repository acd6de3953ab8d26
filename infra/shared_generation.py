"""A generation shared by the processes of one host through a small mapped file
(``services.accounts.token_cache``): reading it is a read of memory, no system call, so every
request may read it."""

from __future__ import annotations

import os
from pathlib import Path

from infra.private_files import shared_map

_SIZE = 8


class SharedGeneration:
    """Eight bytes of a file in the data directory, mapped by every process that opens it."""

    def __init__(self, path: Path) -> None:
        self._map = shared_map(path, _SIZE)

    def read(self) -> int:
        return int.from_bytes(self._map[:_SIZE], "little")

    def move(self) -> None:
        """To a new random value: two processes moving it at once still leave it where no answer
        kept before either move can be found again."""
        self._map[:_SIZE] = os.urandom(_SIZE)


class LocalGeneration:
    """The generation of a deployment of one process (the in-memory store)."""

    def __init__(self) -> None:
        self._value = 0

    def read(self) -> int:
        return self._value

    def move(self) -> None:
        self._value += 1
