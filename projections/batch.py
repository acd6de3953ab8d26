"""The row changes of a batch of events, and the error that names the game a batch cannot apply.

The game projection (``projections.games``) adds to one ``Batch``; it is written with the
tracking record of the batch's last event in one transaction (``projections.tracked``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from projections import set_aside
from projections.event_keys import stamp_of
from projections.views import Change
from services.play.aggregate import Game


@dataclass
class Batch:
    """The row changes of a batch of events, coalesced per game."""

    inserts: list[Change] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    timed: set[str] = field(default_factory=set)
    """Games whose awaited seats and clock columns are written once, after the batch's last event."""
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)

    def update(self, gid: str, e: Game.Event, **columns: Any) -> None:
        row = self.updates.setdefault(gid, {})
        row.update(version=e.originator_version, updated_at=stamp_of(e), **columns)

    def changes(self) -> list[Change]:
        out = list(self.inserts)
        for gid, columns in self.updates.items():
            sets = ", ".join(f"{k} = ?" for k in columns)
            out.append((f"UPDATE {{p}}dh_games SET {sets} WHERE game_id = ?", (*columns.values(), gid)))
        return out


Fresh = dict[str, tuple[int, str]]
"""Games set aside during a batch: from which version, and why."""


class Poisoned(Exception):
    """One game's events cannot be projected: ``error`` came of them, not of the database."""

    def __init__(self, gid: str, error: BaseException) -> None:
        super().__init__(gid, error)
        self.gid = gid
        self.error = error


@contextmanager
def blame(gid: str) -> Iterator[None]:
    """Turns an error that is not ``set_aside.transient`` into one that names game ``gid``."""
    try:
        yield
    except Poisoned:
        raise
    except Exception as e:
        if set_aside.transient(e):
            raise
        raise Poisoned(gid, e) from e
