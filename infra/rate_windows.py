"""Rate limits counted in this process's memory, in fixed windows, as cheaply as a check can be.

``limits``' ``MemoryStorage`` counts a fixed window under a key string built for every hit
(``LIMITER/dragonhall/moves/token:.../6000/1/minute``), with a lock and a dictionary of
expiries, and ``FixedWindowRateLimiter`` asks it twice for a refusal. ``Windows`` counts the
same windows, as ``MemoryStorage`` does (a window starts at its first hit and lasts the limit's
period; a count past the limit refuses until the window ends), under the tuple the caller already
holds, in one dictionary and one lock; ended windows are dropped by a sweep at most every
``SWEEP_SECONDS``, run by the check that finds it due, not by a timer thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable

SWEEP_SECONDS = 10.0


class Windows:
    """Fixed windows by key: ``hit(key, amount, seconds)`` counts one hit."""

    def __init__(self) -> None:
        self._windows: dict[Hashable, list[float]] = {}
        """key -> [the window's end (``time.time``), hits in it]"""
        self._lock = threading.Lock()
        self._next_sweep = time.monotonic() + SWEEP_SECONDS

    def hit(self, key: Hashable, amount: int, seconds: int) -> float | None:
        """Counts a hit; None when it is within ``amount`` hits of its window, else the time
        (``time.time``) at which the window ends."""
        end, hits = self.count(key, seconds)
        return end if hits > amount else None

    def count(self, key: Hashable, seconds: int) -> tuple[float, float]:
        """Counts a hit: the time (``time.time``) at which its window ends, and the hits in it."""
        now = time.time()
        with self._lock:
            window = self._windows.get(key)
            if window is None or window[0] <= now:
                self._windows[key] = window = [now + seconds, 1.0]
            else:
                window[1] += 1
            end, hits = window
        if time.monotonic() >= self._next_sweep:
            self.sweep()
        return end, hits

    def sweep(self) -> None:
        """Drops the windows that have ended."""
        now = time.time()
        with self._lock:
            self._next_sweep = time.monotonic() + SWEEP_SECONDS
            for key in [k for k, (end, _) in self._windows.items() if end <= now]:
                del self._windows[key]

    def __len__(self) -> int:
        return len(self._windows)
