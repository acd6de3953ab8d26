"""How the ``Game`` aggregate is stored, apart from what it holds: its events' timestamps
come from the services' clock, and its snapshots keep the rules state in its JSON form."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eventsourcing.domain import Snapshot

from domain.kernel import decode, encode
from services.common import clock


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

    def mutate(self, _: None) -> Any:
        """The ``Game`` as snapshotted, its rules state decoded again (typed ``Any``: the aggregate
        imports this module, not the other way round)."""
        game: Any = super().mutate(None)
        if game.state is not None:
            game.state = decode(game.ruleset.state_type, game.state)
        return game
