"""A board in shared memory where the processes writing one SQLite store post each
game's latest version, so a process can tell that its cached copy is current
without asking the store.

Several server processes may write one SQLite file. Each keeps an aggregate
cache, and before this board every load asked the store for events newer than
the cached copy: one query per request, nearly always answered with nothing.
Now a writer posts ``(game fingerprint, version)`` in the game's slot after each
save, and a reader trusts its cache when the slot shows that game at the cached
version. Anything else (another game in the slot, a newer version, an empty
slot) sends the reader to the store as before.

Why this is safe:

* A slot is one aligned 64-bit word, written and read whole.
* A version is posted after its events are committed and before the move is
  acknowledged, so a request that starts after an acknowledgement sees it.
* A save still checks the version in the store (optimistic concurrency), so a
  stale cache can at worst cost a retry, never a wrong event.

All writers of a SQLite store run on its host and go through ``GameService``;
PostgreSQL deployments span hosts and do not use the board.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from infra.private_files import shared_map

SLOTS = 1 << 16
_VERSION = 0xFFFF_FFFF


class VersionBoard:
    """``SLOTS`` 64-bit words in a memory-mapped file, one slot per game (by hash)."""

    def __init__(self, path: Path) -> None:
        self._map = shared_map(path, SLOTS * 8)
        self._words = memoryview(self._map).cast("Q")

    def post(self, game_id: uuid.UUID, version: int) -> None:
        """Posts that ``game_id`` is now at ``version`` (after its events are committed)."""
        slot, mark = _place(game_id)
        self._words[slot] = mark | (version & _VERSION)

    def raise_to(self, game_id: uuid.UUID, version: int) -> None:
        """Posts ``version`` unless the board already shows ``game_id`` at a later one: a mark that
        only moves forward (two processes that post the same game's marks out of order)."""
        shown = self.version(game_id)
        if shown is None or shown < version:
            self.post(game_id, version)

    def is_current(self, game_id: uuid.UUID, version: int) -> bool:
        """Whether the board shows ``game_id`` at ``version``: a cached copy at that
        version is then the latest. False when unsure."""
        slot, mark = _place(game_id)
        return self._words[slot] == mark | (version & _VERSION)

    def version(self, game_id: uuid.UUID) -> int | None:
        """The version the board shows ``game_id`` at; None when its slot shows another game or
        none (the store then knows)."""
        slot, mark = _place(game_id)
        word = self._words[slot]
        if word & ~_VERSION != mark or not word & _VERSION:
            return None
        return int(word & _VERSION)

    def close(self) -> None:
        self._words.release()
        self._map.close()


def _place(game_id: uuid.UUID) -> tuple[int, int]:
    """The game's slot, and its 32-bit fingerprint in the word's high half."""
    n = game_id.int
    return n & (SLOTS - 1), ((n >> 64) & _VERSION) << 32
