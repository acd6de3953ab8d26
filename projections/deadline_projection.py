"""The deadline projection: keeps the deadline index (``projections.deadline_views``) from the events.

A read model of its own, with its own tracking record (``projections.tracked``): it can be
rebuilt alone (``dragonhall rebuild-projections --only deadlines``) while the game list stays
as it is. It reads no other read model: what it needs of each game (its status, time control,
the seats a server bot plays, its clock and awaited seats) comes from the game's own events,
kept in memory and in the game's row, read back after a restart. It folds no board: the clock
moves at the platform's events and the rule events' ``awaiting`` and ``closes``
(``projections.deadline_index``, the rules it shares with the game list).

Each game's row is written once per batch, as the game stands after the batch's last event: a
move's several rule events cost one computation of its deadlines, not one each; every event
of the game moves its ``updated_at`` on (the sweep finds a bot that has not moved by it).

A game it cannot apply is set aside in ``dh_deadline_set_aside``, and comes back by a rebuild
of the deadline index, once the code applies it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from projections import deadline_index, set_aside
from projections.batch import Fresh, blame
from projections.deadline_index import Clock
from projections.deadline_views import UPSERT, carry_game_list_to_deadlines
from projections.event_keys import game_of, stamp_of
from projections.tracked import Handlers, Items, RetriedProjection
from projections.views import VIEWS, Change, GameViewsSQL
from services.common import clock
from services.common.visibility import ENDED
from services.play.aggregate import Game


@dataclass
class Timed:
    """What the deadlines know of one game."""

    status: str
    tc: dict[str, Any]
    bot_seats: set[int]
    clock: Clock
    due: dict[str, Any]
    """``next_deadline``, ``next_reminder``, ``bots_awaited``."""
    updated_at: str = ""

    def row(self, gid: str) -> tuple[Any, ...]:
        held = self.clock
        return (
            gid, self.status, json.dumps(self.tc), json.dumps(sorted(self.bot_seats)),
            deadline_index.clock_json(held), json.dumps(held["awaiting"]),
            self.due["next_deadline"], self.due["next_reminder"], self.due["bots_awaited"], self.updated_at,
        )  # fmt: skip


@dataclass
class _Batch:
    touched: dict[str, Timed] = field(default_factory=dict)
    """The games the batch changed: their rows are written once, after it."""
    timed: set[str] = field(default_factory=set)
    """Those whose clock moved: their deadlines are computed again."""


class DeadlineProjection(RetriedProjection):
    """Materialises ``dh_deadlines``: each game's clock and when its next deadline and reminder fall."""

    name = VIEWS
    read_model = "deadlines"
    set_aside_table = set_aside.DEADLINES_TABLE
    retried_tables = ("dh_deadlines",)
    split_from = "games"

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self._games: dict[str, Timed] = {}

    def _carry(self, c: Any, sql: Callable[[str], str]) -> None:
        carry_game_list_to_deadlines(c, sql)

    def _project(self, items: Items, fresh: Fresh) -> None:
        skipped: dict[str, int] = {}
        batch = _Batch()
        self._each_event(items, fresh, skipped, lambda gid, event: self._apply(gid, event, batch))
        changes = self._settle(batch)
        marks = set_aside.marks(fresh, skipped, clock.now().isoformat(), self.set_aside_table)
        self._commit([*changes, *marks], items)

    def _refold(self, gid: str, events: Sequence[DomainEventProtocol[uuid.UUID]]) -> list[Change]:
        batch = _Batch()
        for event in events:
            self._apply(gid, event, batch)
        return self._settle(batch)

    def _apply(self, gid: str, event: DomainEventProtocol[uuid.UUID], batch: _Batch) -> None:
        handler = _HANDLERS.of(type(event))
        if handler is None:
            return
        game = handler(self, event, batch)
        game.updated_at = stamp_of(event)
        batch.touched[gid] = game

    def _settle(self, batch: _Batch) -> list[Change]:
        """Each changed game's row, its deadlines computed again if its clock moved; an ended
        game leaves memory (its row stays, with nothing due)."""
        changes: list[Change] = []
        for gid, game in batch.touched.items():
            with blame(gid):  # the game whose deadline cannot be computed, not the batch's last
                if game.status in ENDED:
                    self._games.pop(gid, None)
                elif gid in batch.timed:
                    game.due = deadline_index.timing(game.tc, game.clock, game.bot_seats)
                changes.append((UPSERT, game.row(gid)))
        return changes

    def _forget(self, items: Items) -> None:
        self._games.clear()

    def _forget_game(self, gid: str) -> None:
        self._games.pop(gid, None)

    def _game(self, gid: str) -> Timed:
        """The game: in memory, else read back from its row."""
        game = self._games.get(gid)
        if game is None:
            row = self.view.deadline_row(gid)
            if row is None:
                raise LookupError(f"no deadline row for game {gid}")
            due = {k: row[k] for k in deadline_index.NO_TIMING}
            held = deadline_index.clock_of(row["clock"], row["awaiting"])
            game = Timed(row["status"], dict(row["time_control"]), set(row["bot_seats"]), held, due, row["updated_at"])
            self._games[gid] = game
        return game

    def _created(self, e: Game.Created, batch: _Batch) -> Timed:
        status, held = "scheduled" if e.starts_at else "open", deadline_index.new_clock()
        game = Timed(status, dict(e.time_control), set(), held, deadline_index.starts(e.starts_at))
        self._games[game_of(e)] = game
        return game

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, batch: _Batch) -> Timed:
        game = self._game(game_of(e))
        if e.bot:
            game.bot_seats.add(e.seat)
        else:
            game.bot_seats.discard(e.seat)
        if isinstance(e, Game.Joined):
            deadline_index.joined(game.clock, game.tc, e.seat)
        return game

    def _seat_given_up(self, e: Game.SeatGivenUp, batch: _Batch) -> Timed:
        game = self._game(game_of(e))
        game.bot_seats.discard(e.seat)
        return game

    def _started(self, e: Game.Started, batch: _Batch) -> Timed:
        game = self._seated(e, batch)
        deadline_index.started(game.clock, game.tc, e.seats)
        return game

    def _forked(self, e: Game.Forked, batch: _Batch) -> Timed:
        game = self._seated(e, batch)
        deadline_index.forked(game.clock, e.awaiting, stamp_of(e))
        return game

    def _seated(self, e: Game.Started | Game.Forked, batch: _Batch) -> Timed:
        gid = game_of(e)
        game = self._game(gid)
        game.status = "active"
        game.bot_seats = {s["seat"] for s in e.seats if s.get("bot")}
        batch.timed.add(gid)
        return game

    def _rule_event(self, e: Game.RuleEvent, batch: _Batch) -> Timed:
        gid = game_of(e)
        game = self._game(gid)
        if deadline_index.decided(game.clock, e):
            batch.timed.add(gid)
        return game

    def _clock_settled(self, e: Game.ClockSettled, batch: _Batch) -> Timed:
        gid = game_of(e)
        game = self._game(gid)
        deadline_index.settled(game.clock, e.banks)
        batch.timed.add(gid)
        return game

    def _finished(self, e: Game.Finished, batch: _Batch) -> Timed:
        return self._ended(e, "finished")

    def _abandoned(self, e: Game.Abandoned, batch: _Batch) -> Timed:
        return self._ended(e, "abandoned")

    def _ended(self, e: Game.Event, status: str) -> Timed:
        """Nothing is awaited any more, nothing due; the clock stays as it stopped."""
        game = self._game(game_of(e))
        game.status = status
        game.clock["awaiting"] = []
        game.due = dict(deadline_index.NO_TIMING)
        return game

    def _moved(self, e: Game.Event, batch: _Batch) -> Timed:
        """An event that leaves the clock as it was: the game has moved (``updated_at``)."""
        return self._game(game_of(e))


_Handler = Callable[[DeadlineProjection, Any, _Batch], Timed]
_HANDLERS: Handlers[_Handler] = Handlers(
    {
        Game.Created: DeadlineProjection._created,
        Game.SeatTaken: DeadlineProjection._seat_added,
        Game.SeatGivenUp: DeadlineProjection._seat_given_up,
        Game.Joined: DeadlineProjection._seat_added,
        Game.Started: DeadlineProjection._started,
        Game.Forked: DeadlineProjection._forked,
        Game.RuleEvent: DeadlineProjection._rule_event,
        Game.ClockSettled: DeadlineProjection._clock_settled,
        Game.Finished: DeadlineProjection._finished,
        Game.Abandoned: DeadlineProjection._abandoned,
        Game.MoveMade: DeadlineProjection._moved,
        Game.Resigned: DeadlineProjection._moved,
        Game.TurnTimedOut: DeadlineProjection._moved,
        Game.PolicyPlayed: DeadlineProjection._moved,
    }
)
