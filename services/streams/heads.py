"""The last version of each game a process's streams watch, read once per wake-up of the game
(``services.streams.lines``)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from services.streams.wakeups import POLL_FALLBACK, game_key

HEAD_TTL = POLL_FALLBACK / 2
"""Seconds a game's head version, read for its streams, is trusted without a wake-up."""
HEADS_KEPT = 20_000
"""Games whose heads are held at most, the least recently read dropped first."""


class Heads:
    """The last version of each game this process's streams watch, read from the store once per
    wake-up of the game, and again at most every ``HEAD_TTL`` seconds, however many streams ask.

    A wake-up of ``game:<id>`` (``Wakeups.observers``) moves that game's generation on; a head
    read in an older generation is read again. The generation is taken before the read, so a
    wake-up that comes during it makes the next caller read again."""

    def __init__(self, read: Callable[[str], int], follow: Callable[[str, bool], None] = lambda key, on: None) -> None:
        """``follow``: asks for a game's wake-ups (``True``) while its head is held, and stops
        (``False``): the other processes send a game's only to those that follow it
        (``infra.wake_interest``), and a head nobody woke would be read again only after ``HEAD_TTL``."""
        self._read = read
        self._follow = follow
        self._held: OrderedDict[str, tuple[int, int, float]] = OrderedDict()
        self._generations: dict[str, int] = {}
        self._lock = threading.Lock()
        self._reading = threading.Lock()

    def observe(self, key: str) -> None:
        """Moves a watched game's generation on; a game no stream has asked for is not counted."""
        if key.startswith("game:"):
            gid = key[5:]
            if gid not in self._generations:  # atomic under the GIL; ``head`` adds it before it reads
                return
            with self._lock:
                if gid in self._generations:
                    self._generations[gid] += 1

    def head(self, gid: str) -> int:
        found = self._fresh(gid)
        if found is not None:
            return found
        with self._reading:  # one read for the streams that ask together
            found = self._fresh(gid)
            if found is not None:
                return found
            with self._lock:
                new = gid not in self._generations
                generation = self._generations.setdefault(gid, 0)
            if new:
                self._follow(game_key(gid), True)  # before the read: a save after it wakes this process
            head = self._read(gid)
            with self._lock:
                self._held[gid] = (generation, head, time.monotonic())
                self._held.move_to_end(gid)
                while len(self._held) > HEADS_KEPT:
                    old, _ = self._held.popitem(last=False)
                    if self._generations.pop(old, None) is not None:
                        self._follow(game_key(old), False)
            return head

    def _fresh(self, gid: str) -> int | None:
        with self._lock:
            held = self._held.get(gid)
            if held is None or held[0] != self._generations.get(gid, 0):
                return None
            if time.monotonic() - held[2] >= HEAD_TTL:
                return None
            return held[1]
