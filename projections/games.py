"""The game projection: keeps the list and the summaries from the events.

It matches on the stored event type and turns each event into row changes.
Within a batch the changes are coalesced (one summary update per game,
``projections.batch``), then written with its own tracking record of the batch's last
event in one transaction (``projections.tracked``). Its parts: what it remembers of each
game and the clock its summary shows (``projections.game_memory``, folded as the inbox folds
it). It folds no board and tells no player: the boards, the ratings, the deadline index and the
inbox are other read models, each with a projection of its own (``projections.board_projection``,
``projections.rating_projection``, ``projections.deadline_projection``,
``projections.inbox_projection``).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from projections import deadline_index, set_aside
from projections.batch import Batch, Fresh, blame
from projections.event_keys import game_of, stamp_of
from projections.game_memory import GameMemory, from_summary
from projections.tracked import Handlers, Items, RetriedProjection
from projections.views import VIEWS, Change, GameViewsSQL
from services.common import clock
from services.play.aggregate import Game

log = logging.getLogger(__name__)


class GameProjection(RetriedProjection):
    """Materialises ``dh_games`` and ``dh_game_players``."""

    name = VIEWS
    read_model = "games"
    set_aside_table = set_aside.GAMES_TABLE
    retried_tables = set_aside.GAME_TABLES

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self.memory = GameMemory(from_summary(view))
        self.listeners: list[Callable[[], None]] = []
        """Called after every batch is written."""

    def _written(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _project(self, items: Items, fresh: Fresh) -> None:
        """One attempt at a batch, skipping the games set aside (before it, and ``fresh``)."""
        batch = Batch()
        skipped: dict[str, int] = {}
        self._each_event(items, fresh, skipped, lambda _gid, event: self.apply(event, batch))
        self._settle_clocks(batch)
        marks = set_aside.marks(fresh, skipped, clock.now().isoformat())
        self._commit([*batch.changes(), *marks], items)
        self.memory.settle(batch.ended)

    def _forget_game(self, gid: str) -> None:
        self.memory.forget(gid)

    def _refold(self, gid: str, events: Sequence[DomainEventProtocol[uuid.UUID]]) -> list[Change]:
        batch = Batch()
        for event in events:
            self.apply(event, batch)
        self._settle_clocks(batch)
        return batch.changes()

    def _settle_clocks(self, batch: Batch) -> None:
        """Writes each timed game's awaited seats and clock as they stand after the batch: a move's
        several rule events cost one write, not one each."""
        for gid in batch.timed:
            with blame(gid):
                held = self.memory.clock_of(gid)
                awaiting = "[]" if gid in batch.ended else json.dumps(held["awaiting"])
                batch.updates[gid].update(awaiting=awaiting, clock=deadline_index.clock_json(held))

    def _forget(self, items: Items) -> None:
        for event, _tracking in items:
            self.memory.forget(game_of(event))

    def apply(self, event: DomainEventProtocol[uuid.UUID], batch: Batch) -> None:
        """Turns one event into row changes. Events this projection does not use only
        move its position on. (A dict lookup per event type: ``singledispatchmethod``
        costs several times more per call, and this runs for every event.)"""
        handler = _HANDLERS.of(type(event))
        if handler is not None:
            handler(self, event, batch)

    def _created(self, e: Game.Created, batch: Batch) -> None:
        gid = game_of(e)
        at = stamp_of(e)
        row = {
            "game_id": gid,
            "game": e.game,
            "variant": e.variant,
            "status": "scheduled" if e.starts_at else "open",
            "version": e.originator_version,
            "seats": "[]",
            "planned_seats": e.seats,
            "awaiting": "[]",
            "creator": e.creator,
            "options": json.dumps(e.options),
            "time_control": json.dumps(e.time_control),
            "starts_at": e.starts_at,
            "created_at": at,
            "updated_at": at,
            "outcome": None,
            "sandbox": 1 if e.sandbox_of else 0,
            "seed_commitment": e.seed_commitment,
        }
        self.memory.created(e)
        marks = ", ".join("?" for _ in row)
        batch.inserts.append((f"INSERT INTO {{p}}dh_games ({', '.join(row)}) VALUES ({marks})", tuple(row.values())))
        batch.inserts.append(_player(gid, e.creator))

    def _seat_taken(self, e: Game.SeatTaken, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _joined(self, e: Game.Joined, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, batch: Batch) -> None:
        gid = game_of(e)
        seats = self.memory.seat_added(e)
        batch.update(gid, e, seats=json.dumps(seats))
        batch.inserts.append(_player(gid, e.player_id))

    def _seat_given_up(self, e: Game.SeatGivenUp, batch: Batch) -> None:
        """The seat is free again; the game leaves its player's list unless they created it or
        hold another of its seats."""
        gid = game_of(e)
        seats = self.memory.seat_given_up(e)
        batch.update(gid, e, seats=json.dumps(seats))
        if all(s["player_id"] != e.player_id for s in seats):
            batch.inserts.append(_unlisted(gid, e.player_id))

    def _started(self, e: Game.Started, batch: Batch) -> None:
        gid = game_of(e)
        self.memory.started(e)
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)

    def _forked(self, e: Game.Forked, batch: Batch) -> None:
        gid = game_of(e)
        self.memory.forked(e)
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)

    def _rule_event(self, e: Game.RuleEvent, batch: Batch) -> None:
        """At the event that closes its decision, moves the awaited seats and their turns (as the
        aggregate does: ``projections.deadline_index``); the board is the board projection's."""
        gid = game_of(e)
        batch.update(gid, e)
        if self.memory.decided(e) is not None:
            batch.timed.add(gid)

    def _clock_settled(self, e: Game.ClockSettled, batch: Batch) -> None:
        gid = game_of(e)
        self.memory.settled(e)
        batch.update(gid, e)
        batch.timed.add(gid)

    def _finished(self, e: Game.Finished, batch: Batch) -> None:
        batch.ended.add(game_of(e))
        batch.update(game_of(e), e, status="finished", awaiting="[]", outcome=json.dumps(e.outcome))

    def _abandoned(self, e: Game.Abandoned, batch: Batch) -> None:
        batch.ended.add(game_of(e))
        batch.update(game_of(e), e, status="abandoned", awaiting="[]", outcome=json.dumps(e.outcome))

    def _move(self, e: Game.MoveMade | Game.Resigned | Game.TurnTimedOut | Game.PolicyPlayed, batch: Batch) -> None:
        batch.update(game_of(e), e)


def _player(gid: str, player_id: str) -> Change:
    return (
        "INSERT INTO {p}dh_game_players (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (gid, player_id),
    )


def _unlisted(gid: str, player_id: str) -> Change:
    """The game off ``player_id``'s list, unless they created it."""
    return (
        "DELETE FROM {p}dh_game_players WHERE game_id = ? AND player_id = ? "
        "AND player_id <> (SELECT creator FROM {p}dh_games WHERE game_id = ?)",
        (gid, player_id, gid),
    )


_Handler = Callable[[GameProjection, Any, Batch], None]
_HANDLERS: Handlers[_Handler] = Handlers(
    {
        Game.Created: GameProjection._created,
        Game.SeatTaken: GameProjection._seat_taken,
        Game.SeatGivenUp: GameProjection._seat_given_up,
        Game.Joined: GameProjection._joined,
        Game.Started: GameProjection._started,
        Game.Forked: GameProjection._forked,
        Game.RuleEvent: GameProjection._rule_event,
        Game.ClockSettled: GameProjection._clock_settled,
        Game.Finished: GameProjection._finished,
        Game.Abandoned: GameProjection._abandoned,
        Game.MoveMade: GameProjection._move,
        Game.Resigned: GameProjection._move,
        Game.TurnTimedOut: GameProjection._move,
        Game.PolicyPlayed: GameProjection._move,
    }
)
