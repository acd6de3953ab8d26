"""The game projection: keeps the list and the summaries from the events.

It matches on the stored event type and turns each event into row changes.
Within a batch the changes are coalesced (one summary update per game,
``projections.batch``), then written with its own tracking record of the batch's last
event in one transaction (``projections.tracked``). Its parts: what it remembers of each
game (``projections.game_memory``), the clock its summary shows (folded by
``projections.deadline_index``) and the players' feeds (``projections.turn_notices``). It folds
no board: the boards, the ratings and the deadline index are other read models, each with a
projection of its own (``projections.board_projection``, ``projections.rating_projection``,
``projections.deadline_projection``).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from projections import deadline_index, set_aside, turn_notices
from projections.batch import Batch, Fresh, blame
from projections.game_memory import GameMemory
from projections.tracked import Items, RetriedProjection, nearest_handler
from projections.views import VIEWS, Change, GameViewsSQL
from services.accounts.account_feed import AccountFeed
from services.common import clock
from services.deadlines import clocks
from services.play.aggregate import Game

log = logging.getLogger(__name__)


class GameProjection(RetriedProjection):
    """Materialises ``dh_games`` and ``dh_game_players``, and writes the players' feeds
    (``feed``). The boards, the ratings and the deadlines are read models of their own
    (``projections.board_projection``, ``projections.rating_projection``,
    ``projections.deadline_projection``)."""

    name = VIEWS
    read_model = "games"
    set_aside_table = set_aside.GAMES_TABLE
    retried_tables = set_aside.GAME_TABLES

    def __init__(self, view: GameViewsSQL, feed: AccountFeed | None = None) -> None:
        """``feed``: where the account events go (None keeps no feed)."""
        super().__init__(view)
        self.memory = GameMemory(view)
        self.feed = feed
        self.listeners: list[Callable[[], None]] = []
        """Called after every batch is written."""
        """The version up to which a game retried (``retry_set_aside``) was applied."""

    def _written(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _project(self, items: Items, fresh: Fresh) -> None:
        """One attempt at a batch, skipping the games set aside (before it, and ``fresh``)."""
        batch = Batch()
        skipped: dict[str, int] = {}
        self._each_event(items, fresh, skipped, lambda _gid, event: self.apply(event, batch))
        self._settle_clocks(batch)
        turn_notices.announce_turns(self.memory, batch)
        if self.feed is not None:  # first: written again, if the batch is, it is kept once
            self.feed.append(batch.feed)
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
        turn_notices.announce_turns(self.memory, batch)
        if self.feed is not None:
            self.feed.append(batch.feed)
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
            self.memory.forget(str(event.originator_id))

    def apply(self, event: DomainEventProtocol[uuid.UUID], batch: Batch) -> None:
        """Turns one event into row changes. Events this projection does not use only
        move its position on. (A dict lookup per event type: ``singledispatchmethod``
        costs several times more per call, and this runs for every event.)"""
        handler = _handler(type(event))
        if handler is not None:
            handler(self, event, batch)

    def _created(self, e: Game.Created, batch: Batch) -> None:
        gid = str(e.originator_id)
        at = e.timestamp.isoformat()
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
        self.memory.meta[gid] = {
            "game": e.game,
            "variant": e.variant,
            "options": e.options,
            "tc": e.time_control,
            "sandbox": bool(e.sandbox_of),
        }
        self.memory.seats[gid] = []
        self.memory.clocks[gid] = deadline_index.new_clock()
        marks = ", ".join("?" for _ in row)
        batch.inserts.append((f"INSERT INTO {{p}}dh_games ({', '.join(row)}) VALUES ({marks})", tuple(row.values())))
        batch.inserts.append(_player(gid, e.creator))

    def _seat_taken(self, e: Game.SeatTaken, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _joined(self, e: Game.Joined, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, batch: Batch) -> None:
        gid = str(e.originator_id)
        if isinstance(e, Game.Joined):
            deadline_index.joined(self.memory.clock_of(gid), self.memory.game_meta(gid)["tc"], e.seat)
        seats = [
            *self.memory.seats_of(gid),
            {"seat": e.seat, "player_id": e.player_id, "name": e.name, "kind": e.kind, "bot": e.bot},
        ]
        seats.sort(key=lambda s: s["seat"])
        self.memory.seats[gid] = seats
        batch.update(gid, e, seats=json.dumps(seats))
        batch.inserts.append(_player(gid, e.player_id))

    def _started(self, e: Game.Started, batch: Batch) -> None:
        gid = str(e.originator_id)
        meta = self.memory.game_meta(gid)
        self.memory.seats[gid] = [dict(s) for s in e.seats]
        deadline_index.started(self.memory.clock_of(gid), meta["tc"], e.seats)
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)
        batch.awaited_before.setdefault(gid, [])
        self._tell(batch, e, "game_started", {})

    def _forked(self, e: Game.Forked, batch: Batch) -> None:
        gid = str(e.originator_id)
        self.memory.seats[gid] = [dict(s) for s in e.seats]
        deadline_index.forked(self.memory.clock_of(gid), e.awaiting, e.timestamp.isoformat())
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)

    def _rule_event(self, e: Game.RuleEvent, batch: Batch) -> None:
        """At the event that closes its decision, moves the awaited seats and their turns (as the
        aggregate does: ``projections.deadline_index``); the board is the board projection's."""
        gid = str(e.originator_id)
        batch.update(gid, e)
        if clocks.closes_decision(e):
            held = self.memory.clock_of(gid)
            batch.awaited_before.setdefault(gid, list(held["awaiting"]))
            deadline_index.decided(held, e)
            batch.timed.add(gid)

    def _clock_settled(self, e: Game.ClockSettled, batch: Batch) -> None:
        gid = str(e.originator_id)
        deadline_index.settled(self.memory.clock_of(gid), e.banks)
        batch.update(gid, e)
        batch.timed.add(gid)

    def _finished(self, e: Game.Finished, batch: Batch) -> None:
        batch.ended.add(str(e.originator_id))
        self._tell(batch, e, "game_finished", {"status": "finished", "outcome": e.outcome})
        batch.update(str(e.originator_id), e, status="finished", awaiting="[]", outcome=json.dumps(e.outcome))

    def _abandoned(self, e: Game.Abandoned, batch: Batch) -> None:
        outcome = e.outcome
        batch.ended.add(str(e.originator_id))
        self._tell(batch, e, "game_finished", {"status": "abandoned", "outcome": outcome})
        batch.update(str(e.originator_id), e, status="abandoned", awaiting="[]", outcome=json.dumps(outcome))

    def _move(self, e: Game.MoveMade | Game.Resigned, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)

    def _timed_out(self, e: Game.TurnTimedOut, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)
        self._tell(batch, e, "timeout", {"timed_out_seat": e.seat, "policy": e.policy})

    def _policy_played(self, e: Game.PolicyPlayed, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)

    def _tell(self, batch: Batch, e: Game.Event, kind: str, facts: dict[str, Any]) -> None:
        turn_notices.tell_seats(self.memory, batch, str(e.originator_id), e, kind, facts)


def _player(gid: str, player_id: str) -> Change:
    return (
        "INSERT INTO {p}dh_game_players (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (gid, player_id),
    )


_Handler = Callable[[GameProjection, Any, Batch], None]
_HANDLERS: dict[type, _Handler] = {
    Game.Created: GameProjection._created,
    Game.SeatTaken: GameProjection._seat_taken,
    Game.Joined: GameProjection._joined,
    Game.Started: GameProjection._started,
    Game.Forked: GameProjection._forked,
    Game.RuleEvent: GameProjection._rule_event,
    Game.ClockSettled: GameProjection._clock_settled,
    Game.Finished: GameProjection._finished,
    Game.Abandoned: GameProjection._abandoned,
    Game.MoveMade: GameProjection._move,
    Game.Resigned: GameProjection._move,
    Game.TurnTimedOut: GameProjection._timed_out,
    Game.PolicyPlayed: GameProjection._policy_played,
}


@cache
def _handler(cls: type) -> _Handler | None:
    return nearest_handler(_HANDLERS, cls)
