"""A read-side event's game id and timestamp as strings, each made once per event.

Every read model's projection is handed every event of a batch, and each named the event's game
(``str(originator_id)``, 1.7 µs) and its time (``timestamp.isoformat()``, 1.4-2 µs) again: ten
game ids and three timestamps an event, 14% of the projection process's CPU in a profile of
``bench/projection_cost.py`` (issue 39). The projections share one decoded event, so its id and
timestamp objects are the same ones each time, and a dict finds their strings in a tenth of that.

The caches are bounded: past ``KEPT`` entries each starts again (an event is projected within
one batch, so an entry is wanted only for a moment). Dict reads and writes are atomic under the
GIL, so the runner's thread and a rebuild may share them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

KEPT = 8192
"""Entries each cache holds at most before it is emptied."""

_games: dict[int, str] = {}
"""By the id's integer: a ``UUID``'s own hash and equality are Python functions, and each event
decodes its own ``UUID`` object."""
_stamps: dict[int, tuple[datetime, str]] = {}
"""By the timestamp object's identity, which the entry keeps alive: two equal instants in other
time zones are equal datetimes but not the same text."""


def game_of(event: Any) -> str:
    """The event's game id, as the read models key their rows (``game_of(event)``)."""
    uid: UUID = event.originator_id
    name = _games.get(uid.int)
    if name is None:
        if len(_games) >= KEPT:
            _games.clear()
        name = _games[uid.int] = str(uid)
    return name


def stamp_of(event: Any) -> str:
    """The event's timestamp in ISO 8601 (``stamp_of(event)``)."""
    at = event.timestamp
    held = _stamps.get(id(at))
    if held is not None and held[0] is at:
        return held[1]
    if len(_stamps) >= KEPT:
        _stamps.clear()
    text: str = at.isoformat()
    _stamps[id(at)] = (at, text)
    return text
