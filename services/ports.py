"""What the write side asks of the outside world, as small interfaces.

``services`` never imports ``workers``: the bootstrap plugs a ``Work``
implementation in (Celery, or nothing in unit tests).
"""

from __future__ import annotations

from typing import Any, Protocol


class Work(Protocol):
    """Background work triggered by a change of a game."""

    def game_changed(self, game: Any) -> None:
        """Called after every save: schedule bot turns, deadlines and notifications."""


class NullWork:
    """No background work (unit tests that drive everything by hand)."""

    def game_changed(self, game: Any) -> None:
        return None
