"""What the game list and the inbox remember of each game between events, and how its events move it.

Both read models need a little of a game besides its event: which game and variant it is, its
seats, its clock (``projections.deadline_index``). Each keeps it in memory of its own, moved by
the game's events through the methods here (one home for both folds), and, for a game not in
memory (after a restart), recalls it: the game list from its summary row, which it wrote up to the
event before; the inbox from the event store (``from_store``), since it reads no other read model.
Neither folds a board: the boards are a read model of their own (``projections.board_projection``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from projections import deadline_index
from projections.event_keys import game_of, stamp_of
from projections.views import GameViewsSQL
from services.common.event_store import EventStore
from services.deadlines import clocks
from services.play.aggregate import Game

KEPT = 10_000
"""Games remembered at most between batches: a game that ended is forgotten at once, and past
this many running ones the longest remembered go (each comes back when it moves)."""


@dataclass(frozen=True)
class Recalled:
    """A game's facts, seats and clock, as read back for a game not in memory."""

    meta: dict[str, Any]
    seats: list[dict[str, Any]]
    clock: dict[str, Any]


Recall = Callable[[str], Recalled | None]
"""Where a game not in memory comes back from (None: nowhere, it is unknown)."""


class GameMemory:
    """Each game's facts and clock as the events so far left them."""

    def __init__(self, recall: Recall) -> None:
        self.recall = recall
        self.meta: dict[str, dict[str, Any]] = {}
        self.seats: dict[str, list[dict[str, Any]]] = {}
        self.clocks: dict[str, dict[str, Any]] = {}

    def forget(self, gid: str) -> None:
        self.meta.pop(gid, None)
        self.seats.pop(gid, None)
        self.clocks.pop(gid, None)

    def settle(self, ended: Iterable[str], kept: int = KEPT) -> None:
        """Forgets the games that ended, and the longest remembered past ``kept``: called between
        batches, once a batch's rows are written, since a game forgotten within a batch would be
        read back from a row that does not yet hold the batch's changes. Without it the memory
        grew with every game ever played, a few KB a game (some 5,500 games in 10 minutes of a
        saturated ``bench/http_load.py``)."""
        for gid in ended:
            self.forget(gid)
        for table in (self.meta, self.seats, self.clocks):
            while len(table) > kept:
                del table[next(iter(table))]

    def holds(self, gid: str) -> bool:
        return gid in self.meta

    def hold(self, gid: str, recalled: Recalled) -> None:
        self.meta[gid], self.seats[gid], self.clocks[gid] = recalled.meta, recalled.seats, recalled.clock

    def _recalled(self, gid: str) -> None:
        recalled = self.recall(gid)
        if recalled is None:
            raise LookupError(f"no record of game {gid} to recall")
        self.hold(gid, recalled)

    def game_meta(self, gid: str) -> dict[str, Any]:
        if gid not in self.meta:
            self._recalled(gid)
        return self.meta[gid]

    def seats_of(self, gid: str) -> list[dict[str, Any]]:
        if gid not in self.seats:
            self._recalled(gid)
        return self.seats[gid]

    def clock_of(self, gid: str) -> dict[str, Any]:
        """The game's turn starts, banks and awaited seats."""
        if gid not in self.clocks:
            self._recalled(gid)
        return self.clocks[gid]

    # ------------------------------------------------------------ the events

    def created(self, e: Game.Created) -> None:
        gid = game_of(e)
        self.meta[gid] = {
            "game": e.game,
            "variant": e.variant,
            "options": e.options,
            "tc": e.time_control,
            "sandbox": bool(e.sandbox_of),
            "creator": e.creator,
        }
        self.seats[gid] = []
        self.clocks[gid] = deadline_index.new_clock()

    def seat_added(self, e: Game.SeatTaken | Game.Joined) -> list[dict[str, Any]]:
        """The game's seats with the new one, in seat order; a seat joined during the game gets
        its bank."""
        gid = game_of(e)
        if isinstance(e, Game.Joined):
            deadline_index.joined(self.clock_of(gid), self.game_meta(gid)["tc"], e.seat)
        seats = [
            *self.seats_of(gid),
            {"seat": e.seat, "player_id": e.player_id, "name": e.name, "kind": e.kind, "bot": e.bot},
        ]
        seats.sort(key=lambda s: s["seat"])
        self.seats[gid] = seats
        return seats

    def seat_given_up(self, e: Game.SeatGivenUp) -> list[dict[str, Any]]:
        """The game's seats without the one given up (a table not started: no clock holds it)."""
        gid = game_of(e)
        seats = [s for s in self.seats_of(gid) if s["seat"] != e.seat]
        self.seats[gid] = seats
        return seats

    def started(self, e: Game.Started) -> None:
        gid = game_of(e)
        self.seats[gid] = [dict(s) for s in e.seats]
        deadline_index.started(self.clock_of(gid), self.game_meta(gid)["tc"], e.seats)

    def forked(self, e: Game.Forked) -> None:
        gid = game_of(e)
        self.seats[gid] = [dict(s) for s in e.seats]
        deadline_index.forked(self.clock_of(gid), e.awaiting, stamp_of(e))

    def decided(self, e: Game.RuleEvent) -> list[int] | None:
        """At the event that closes its decision, moves the awaited seats and their turns; the
        seats awaited before it (None at any other event)."""
        if not clocks.closes_decision(e):
            return None
        held = self.clock_of(game_of(e))
        before = list(held["awaiting"])
        deadline_index.decided(held, e)
        return before

    def settled(self, e: Game.ClockSettled) -> None:
        deadline_index.settled(self.clock_of(game_of(e)), e.banks)


def from_summary(view: GameViewsSQL) -> Recall:
    """The game list's recall: a game's summary row, written up to the event before."""

    def recall(gid: str) -> Recalled | None:
        row = view.game_summary(gid)
        if row is None:
            return None
        meta = {
            "game": row["game"],
            "variant": row["variant"],
            "options": row["options"],
            "tc": row["time_control"],
            "sandbox": bool(row["sandbox"]),
            "creator": row["creator"],
        }
        return Recalled(meta, list(row["seats"]), deadline_index.clock_of(row.get("clock"), row.get("awaiting", [])))

    return recall


def from_store(store: EventStore, gid: str, version: int) -> Recalled:
    """A game's facts at ``version``, from its events in the store: what a read model that reads no
    other recalls. Its awaited seats are those whose turns run, as at the last event that closed a
    decision (an event inside a decision moves the aggregate's ``awaiting``, not a read model's clock)."""
    game: Any = store.repository.get(uuid.UUID(gid), version=version)
    meta = {
        "game": game.game,
        "variant": game.variant,
        "options": dict(game.options),
        "tc": dict(game.time_control),
        "sandbox": bool(game.sandbox_of),
        "creator": game.creator,
    }
    clock = {"turns": dict(game.turns), "banks": dict(game.banks), "awaiting": [int(s) for s in game.turns]}
    return Recalled(meta, [dict(s) for s in game.seats], clock)
