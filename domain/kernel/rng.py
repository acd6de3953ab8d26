"""The one source of chance: a documented, re-derivable generator.

Every shuffle and roll in Dragonhall is drawn from ``Rng``. Its output is a pure
function of a secret game seed and a *stream* label, so an auditor who learns the
seed after the game (it is revealed by ``GameFinished``, and its SHA-256 was
published at creation) can re-derive every chance outcome.

Algorithm (HMAC-SHA256 in counter mode):

* block ``i`` (``i = 0, 1, 2, ...``) is ``HMAC-SHA256(key=seed, msg=f"{stream}:{i}")``;
* each 32-byte block is read as four unsigned 64-bit big-endian words, in order;
* ``below(n)`` takes the next word ``w`` and rejects it while
  ``w >= 2**64 - (2**64 % n)``, then returns ``w % n`` (no modulo bias);
* ``shuffle`` is Fisher-Yates from the last index down:
  ``for i in range(len - 1, 0, -1): swap(i, below(i + 1))``.

The platform uses the stream ``"setup"`` for a game's opening and
``"v{N}"`` for the decision taken at aggregate version ``N``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 2**64


class Rng:
    """A deterministic stream of uniform choices derived from ``(seed, stream)``."""

    __slots__ = ("_block", "_seed", "_stream", "_words")

    def __init__(self, seed: bytes, stream: str) -> None:
        self._seed = seed
        self._stream = stream
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            digest = hmac.new(self._seed, f"{self._stream}:{self._block}".encode(), hashlib.sha256).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _WORD - (_WORD % n)
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates, see module doc)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def roll(self, faces: Sequence[T], count: int) -> tuple[T, ...]:
        """``count`` independent uniform draws from ``faces`` (dice)."""
        return tuple(self.choice(faces) for _ in range(count))


def seed_commitment(seed: bytes) -> str:
    """The SHA-256 of the seed, published when the game is created."""
    return hashlib.sha256(seed).hexdigest()
