"""Who is looking: the one input that decides what a view or event reveals."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Viewer:
    """A seat, a spectator (``seat is None``), or everyone after the game (``omniscient``)."""

    seat: int | None = None
    omniscient: bool = False

    @classmethod
    def of(cls, seat: int) -> Viewer:
        return cls(seat=seat)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls()

    @classmethod
    def everyone(cls) -> Viewer:
        """The view once a game has finished: nothing is hidden any more."""
        return cls(omniscient=True)

    def sees(self, seat: int) -> bool:
        """Whether this viewer may see what belongs to ``seat``."""
        return self.omniscient or self.seat == seat
