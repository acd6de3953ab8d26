"""A game's steps as people count them: step 0 is the start of play, then one step per decision.

A *step* is one decision and what it caused (``services.reads.steps``): it opens with one of
``STEP_STARTS``. People number them from the start of play: the table's opening, its seats and the
start (with its first deal) are all step 0, and each later step is one more. The log, the replay, the
audit and the disputes all use these numbers.

A page that follows a game asks for its steps after a version many times, so the steps' bounds are
kept per game in this process (``bounds``) and extended with the events after the version they were
taken at: reading a change costs the change, not the game's whole history.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.reads.steps import CAUSES, STEP_STARTS

STARTS = ("Started", "Forked")
"""The step that starts play: step 0 ends with it."""
KEPT = 512
"""Games whose steps' bounds are kept."""


def stored_type(stored: Any) -> str:
    """A stored event's type: a rule event's kind, or the platform event's class name."""
    return str(getattr(stored, "KIND", "") or type(stored).__name__)


def step_numbers(kinds: Sequence[str]) -> list[int]:
    """The person's number of each step, given the type of the event each step opens with:
    0 up to and including the start of play, then one more per step."""
    start = next((i for i, k in enumerate(kinds) if k in STARTS), None)
    return [0 if start is None else max(0, i - start) for i in range(len(kinds))]


def grouped(stored: Iterable[Any]) -> list[list[Any]]:
    """Stored events in steps: each opens with one of ``STEP_STARTS``."""
    out: list[list[Any]] = []
    for e in stored:
        if not out or stored_type(e) in STEP_STARTS:
            out.append([])
        out[-1].append(e)
    return out


@dataclass(frozen=True)
class Bounds:
    """Where each step of a game begins and ends, up to ``version``."""

    version: int
    first: tuple[int, ...]
    """Each step's first version."""
    until: tuple[int, ...]
    """Each step's last version."""
    kinds: tuple[str, ...]
    """The type of each step's first event."""
    seats: tuple[int | None, ...]
    """The seat that took each step's decision (who moved is never secret), or None."""

    @property
    def numbers(self) -> list[int]:
        return step_numbers(self.kinds)

    def extended(self, stored: Iterable[Any], version: int) -> Bounds:
        """These bounds with the events after ``self.version`` (up to ``version``) added."""
        first, until, kinds, seats = list(self.first), list(self.until), list(self.kinds), list(self.seats)
        for e in stored:
            v = e.originator_version
            if v <= self.version or v > version:
                continue
            kind = stored_type(e)
            if not first or kind in STEP_STARTS:
                first.append(v)
                until.append(v)
                kinds.append(kind)
                seats.append(getattr(e, "seat", None) if kind in (*CAUSES, "SeatTaken") else None)
            else:
                until[-1] = v
        return Bounds(version, tuple(first), tuple(until), tuple(kinds), tuple(seats))


NONE = Bounds(0, (), (), (), ())
_KEPT: OrderedDict[str, Bounds] = OrderedDict()
_LOCK = threading.Lock()


def bounds(games: Any, game_id: str, version: int) -> Bounds:
    """The bounds of the steps of ``game_id`` up to ``version`` (its current version), from those
    kept in this process and the events after them."""
    with _LOCK:
        kept = _KEPT.get(game_id, NONE)
    if kept.version > version:  # another reader saw a later version: start again for this one
        kept = NONE
    found = kept.extended(games.stored_events(game_id, after=kept.version), version) if kept.version < version else kept
    with _LOCK:
        if found.version >= _KEPT.get(game_id, NONE).version:
            _KEPT[game_id] = found
            _KEPT.move_to_end(game_id)
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    return found


def index(found: Bounds) -> list[dict[str, Any]]:
    """Each step: ``{step, version, until, type, seat}``."""
    return [
        {"step": n, "version": f, "until": u, "type": k, "seat": s}
        for n, f, u, k, s in zip(found.numbers, found.first, found.until, found.kinds, found.seats, strict=True)
    ]


def step_index(stored: Iterable[Any]) -> list[dict[str, Any]]:
    """Each step of the stored events in order: its number, versions, the type of its first event
    and the seat that took its decision."""
    events = list(stored)
    top = max((e.originator_version for e in events), default=0)
    return index(NONE.extended(events, top))


def before_step(steps: Sequence[Mapping[str, Any]], number: int) -> Mapping[str, Any] | None:
    """The decision of step ``number`` (its seat) and the version of the position it was taken on:
    ``{"step", "version", "seat", "type"}``; None for step 0 or a step the game does not have."""
    found = next((s for s in steps if s["step"] == number), None)
    if found is None or number < 1:
        return None
    earlier = [s["until"] for s in steps if s["step"] < number]
    return {"step": number, "version": max(earlier), "seat": found["seat"], "type": found["type"]}


def step_of_version(steps: Sequence[Mapping[str, Any]], version: int) -> int:
    """The step decided on the position of ``version`` (a dispute's): the first step after it."""
    later = [s["step"] for s in steps if s["version"] > version]
    return min(later) if later else (steps[-1]["step"] if steps else 0)
