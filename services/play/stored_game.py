"""How the ``Game`` aggregate is stored, apart from what it holds: its events' timestamps
come from the services' clock, and its snapshots keep the rules state in its JSON form."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from eventsourcing.domain import Snapshot

from domain.kernel import decode, encode
from services.common import clock

if TYPE_CHECKING:
    from services.play.aggregate import Game


class Timed:
    """Event timestamps come from the services' clock, so tests can control time."""

    @staticmethod
    def create_timestamp() -> datetime:
        return clock.now()


class GameSnapshot(Snapshot):
    """Stores the rules state in its JSON form; the rest of the aggregate is plain data."""

    TOPIC = "dragonhall:Game.Snapshot"

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        snap = super().take(aggregate)
        state = dict(snap.state)
        state["state"] = None if aggregate.state is None else encode(aggregate.state)
        object.__setattr__(snap, "state", state)
        return snap

    def mutate(self, _: None) -> Game:
        game = cast("Game", super().mutate(None))
        if game.state is not None:
            game.state = decode(game.ruleset.state_type, game.state)
        return game
