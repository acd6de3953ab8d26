"""Each game's published mark: the last version whose publish to the stream engine is no longer on
its way (sent, or lost and left to the streams' recovery).

The engine's publisher (``services.streams.grip``) raises it after each POST; the API answers a held
stream's catch-up and recoveries only up to it, so that what the channel brings next follows them.
The processes writing one SQLite store share a board (``infra.version_board.VersionBoard`` on
``DATA_DIR/published.board``); a process that is its store's only writer keeps its own.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Protocol


class Marks(Protocol):
    """Where the publishers post each game's published mark (``infra.version_board.VersionBoard``,
    shared by the processes writing one SQLite store, or ``LocalMarks``)."""

    def raise_to(self, game_id: uuid.UUID, version: int) -> None: ...

    def version(self, game_id: uuid.UUID) -> int | None: ...


MARKS_KEPT = 1 << 16


class LocalMarks:
    """The published marks of a process that is its store's only writer (it publishes every save)."""

    def __init__(self) -> None:
        self._marks: OrderedDict[uuid.UUID, int] = OrderedDict()
        self._lock = threading.Lock()

    def raise_to(self, game_id: uuid.UUID, version: int) -> None:
        with self._lock:
            if self._marks.get(game_id, -1) < version:
                self._marks[game_id] = version
                self._marks.move_to_end(game_id)
                while len(self._marks) > MARKS_KEPT:
                    self._marks.popitem(last=False)

    def version(self, game_id: uuid.UUID) -> int | None:
        with self._lock:
            return self._marks.get(game_id)
