"""The tokens one process has authenticated, kept while no account has changed.

Every request names its bearer token, and reading it from the store (a join of the token and its
account) was 0.135 M of a move's 3.36 M instructions through the WSGI app (issue 39, measured with
``bench/request_cost.py --instructions``), and one more round trip on PostgreSQL. A token's answer
changes only when a token is revoked or an account's webhook is set, so a process may keep it, as
long as a revocation is still refused at once, in every process.

So every such change moves a shared *generation* once it is committed (``Accounts`` does), and a
kept answer is used only while the generation is the one read *before* the store was read for it.
A request that starts after a revocation's commit reads the moved generation, finds no answer kept
under it, and reads the store. The generation is a number in a file of the data directory that every
process of a SQLite deployment maps (``infra.shared_generation``); it moves to a random value, so two
processes moving it at once cannot bring back one that a kept answer holds.

Where the processes share no memory (PostgreSQL, whose processes may run on several hosts), the
generation is the process's own, and a kept answer is not *final*: it cannot know of a revocation
made elsewhere. Such an answer serves only a move, whose save checks the token in its own
transaction (``infra.save_guard``), so the move is stored only if the token was live then; a move
refused, or answered without a save, reads the token before its answer (``Accounts.confirm``).
That saved a round trip and 0.09 ms of the HTTP process's CPU a move (0.70 to 0.61 ms,
``bench/request_cost.py --store postgres``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Protocol, TypeVar

P = TypeVar("P")


class Generation(Protocol):
    """A value shared by the processes of a deployment that moves when an account changes."""

    def read(self) -> int: ...
    def move(self) -> None: ...


@dataclass
class Kept(Generic[P]):
    """A token's answer (its player), as the store gave it under ``generation``, and when its use is
    next to be recorded (``last_used_at``, written at most once a minute)."""

    player: P
    touch_due: datetime
    generation: int


class TokenCache(Generic[P]):
    """Answers by the token's hash (never the token itself), at most ``MOST`` of them."""

    MOST = 4096

    def __init__(self, generation: Generation, *, final: bool = True) -> None:
        """``final``: whether ``generation`` is every process's, so that a kept answer may be used
        as it is; False where it is this process's own (see above)."""
        self.generation = generation
        self.final = final
        self._kept: dict[str, Kept[P]] = {}
        self._lock = threading.Lock()

    def now(self) -> int:
        """The generation: read it before reading the store for an answer to keep."""
        return self.generation.read()

    def get(self, token_hash: str, generation: int) -> Kept[P] | None:
        """The answer kept for ``token_hash`` if it was read under ``generation``."""
        kept = self._kept.get(token_hash)
        return kept if kept is not None and kept.generation == generation else None

    def keep(self, token_hash: str, kept: Kept[P]) -> None:
        with self._lock:
            if len(self._kept) >= self.MOST:
                self._kept.clear()  # the next requests read the store again: cheaper than an LRU here
            self._kept[token_hash] = kept

    def forget(self, token_hash: str) -> None:
        """Drops the answer kept for ``token_hash`` (a token found revoked)."""
        with self._lock:
            self._kept.pop(token_hash, None)

    def changed(self) -> None:
        """An account changed (committed): every answer kept so far, here and elsewhere, is stale."""
        self.generation.move()
        with self._lock:
            self._kept.clear()
