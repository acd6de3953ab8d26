"""The reads of the write model: games as their events make them, under the unit of work,
and who a caller is at a game's table. ``GameService`` holds the use cases on top of them."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from domain.kernel import Viewer
from services.common import visibility
from services.common.errors import GameNotFound
from services.common.event_store import EventStore
from services.common.visibility import has_ended, revealed
from services.play.aggregate import Game
from services.play.unit_of_work import GameUnitOfWork, game_uuid

ACTS = (Game.MoveMade, Game.Resigned, Game.TurnTimedOut, Game.PolicyPlayed)
"""The events that end a seat's pending decision."""


class GameReads:
    """Loading games and their events through the unit of work (``uow``)."""

    uow: GameUnitOfWork

    @property
    def store(self) -> EventStore:
        return self.uow.store

    def load(self, game_id: uuid.UUID | str) -> Game:
        return self.uow.load(game_id)

    def load_at(self, game_id: uuid.UUID | str, version: int) -> Game:
        return self.uow.load_at(game_id, version)

    def remembered(self, game_id: uuid.UUID | str) -> Game:
        return self.uow.remembered(game_id)

    def stored_events(self, game_id: uuid.UUID | str, after: int = 0, upto: int | None = None) -> Iterable[Any]:
        return self.store.stored_events(game_uuid(game_id), after, upto)

    def known_version(self, game_id: uuid.UUID | str) -> int | None:
        return self.uow.known_version(game_id)

    def recent_events(self, game_id: uuid.UUID | str, after: int, upto: int) -> list[Any] | None:
        return self.uow.recent_events(game_id, after, upto)

    def last_decision(self, game_id: uuid.UUID | str, version: int) -> Any | None:
        """The stored event of the last seat decision up to ``version`` (one of ``ACTS``), if any."""
        latest = self.store.latest_events(game_uuid(game_id), version)
        return next((e for e in latest if isinstance(e, ACTS)), None)

    def revealed(self, game: Game) -> bool:
        """Whether everything about ``game`` is open to everyone: it has ended, and so has the
        game a sandbox was forked from (``services.common.visibility``)."""
        if not has_ended(game.status):
            return False  # before loading the origin: most games asked about are running
        origin = (game.sandbox_of or {}).get("game_id")
        try:  # an origin that is gone hides nothing any more
            return revealed(game.status, origin is None or has_ended(self.load(origin).status))
        except GameNotFound:
            return True

    def viewer(self, game: Game, player_id: str | None, seat: int | None = None) -> Viewer:
        """Who ``player_id`` is at ``game``'s table (the platform's one viewer rule)."""
        return visibility.viewer(self.revealed(game), game.seats, player_id, seat)
