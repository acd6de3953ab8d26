"""The rating projection: keeps the rating tables (``projections.rating_views``) from the events.

A read model of its own, with its own tracking record (``projections.tracked``): it can be
rebuilt alone (``dragonhall rebuild-projections --only ratings``), replaying every game in the
stream's order to the same numbers, while the game list stays as it is. It reads no other read
model: the seats a game ends with come from its own events, kept in memory and, for a game
not yet ended, in ``dh_rating_seats`` (written once per game per batch, removed when it ends).

The events it uses: a game created (whether it is rated), its seats taken, started or forked, a
decision of a seat's own (a move, a resignation), and its end; ``RatingBook`` turns them into
row changes (``projections.ratings``, where the rules are).

A game it cannot rate is set aside in ``dh_rating_set_aside`` and is not retried when a runner
starts: ratings must follow the order of the stream, so such a game comes back by a rebuild of
the ratings, once the code rates it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from projections import set_aside
from projections.batch import Fresh
from projections.event_keys import game_of, stamp_of
from projections.ratings import RatingBook
from projections.tracked import Handlers, Items, TrackedProjection
from projections.views import VIEWS, Change, GameViewsSQL
from services.common import clock
from services.play.aggregate import Game

Seats = list[dict[str, Any]]
Seated = dict[str, Seats | None]
"""The games whose seats changed in a batch: their row is written once (None: removed)."""


class RatingProjection(TrackedProjection):
    """Materialises the rating tables: which games are rated, their results, the ratings."""

    name = VIEWS
    read_model = "ratings"
    set_aside_table = set_aside.RATINGS_TABLE
    split_from = "games"

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self.book = RatingBook(view)
        self._seats: dict[str, Seats] = {}

    def _project(self, items: Items, fresh: Fresh) -> None:
        skipped: dict[str, int] = {}
        changes: list[Change] = []
        seated: Seated = {}
        self._each_event(items, fresh, skipped, lambda _gid, event: self._apply(event, changes, seated))
        changes.extend(_seat_rows(seated))
        marks = set_aside.marks(fresh, skipped, clock.now().isoformat(), self.set_aside_table)
        self._commit([*changes, *marks], items)

    def _apply(self, event: DomainEventProtocol[uuid.UUID], changes: list[Change], seated: Seated) -> None:
        handler = _HANDLERS.of(type(event))
        if handler is not None:
            handler(self, event, changes, seated)

    def _forget(self, items: Items) -> None:
        self.book.forget()
        self._seats.clear()

    def _forget_game(self, gid: str) -> None:
        self._seats.pop(gid, None)

    def _seats_of(self, gid: str) -> Seats:
        """The game's seats: in memory, else in its row, else (a game begun before the ratings kept
        their own seats) in its summary."""
        seats = self._seats.get(gid)
        if seats is None:
            seats = self.view.rating_seats(gid)
            if seats is None:
                summary = self.view.game_summary(gid)
                seats = list(summary["seats"]) if summary else []
            self._seats[gid] = seats
        return seats

    def _seat(self, gid: str, seats: Seats, seated: Seated) -> None:
        self._seats[gid] = seats
        seated[gid] = seats

    def _created(self, e: Game.Created, changes: list[Change], seated: Seated) -> None:
        gid = game_of(e)
        rated = bool(e.settings.get("rated", True))
        changes.extend(self.book.created(gid, e.game, e.variant, rated, bool(e.sandbox_of)))
        self._seat(gid, [], seated)

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, changes: list[Change], seated: Seated) -> None:
        gid = game_of(e)
        seat = {"seat": e.seat, "player_id": e.player_id, "name": e.name, "kind": e.kind, "bot": e.bot}
        by_number = {s["seat"]: s for s in self._seats_of(gid)}  # a summary read back may hold this seat already
        by_number[e.seat] = seat
        self._seat(gid, [by_number[n] for n in sorted(by_number)], seated)

    def _seat_given_up(self, e: Game.SeatGivenUp, changes: list[Change], seated: Seated) -> None:
        gid = game_of(e)
        self._seat(gid, [s for s in self._seats_of(gid) if s["seat"] != e.seat], seated)

    def _seated(self, e: Game.Started | Game.Forked, changes: list[Change], seated: Seated) -> None:
        self._seat(game_of(e), [dict(s) for s in e.seats], seated)

    def _decided(self, e: Game.MoveMade | Game.Resigned, changes: list[Change], seated: Seated) -> None:
        changes.extend(self.book.decided(game_of(e)))

    def _finished(self, e: Game.Finished, changes: list[Change], seated: Seated) -> None:
        self._ended(e, "finished", e.outcome["places"], changes, seated)

    def _abandoned(self, e: Game.Abandoned, changes: list[Change], seated: Seated) -> None:
        self._ended(e, "abandoned", [], changes, seated)

    def _ended(self, e: Game.Event, status: str, places: list[int], changes: list[Change], seated: Seated) -> None:
        gid = game_of(e)
        changes.extend(self.book.ended(gid, status, self._seats_of(gid), places, stamp_of(e)))
        self._seats.pop(gid, None)
        seated[gid] = None


def _seat_rows(seated: Seated) -> list[Change]:
    out: list[Change] = []
    for gid, seats in seated.items():
        if seats is None:
            out.append(("DELETE FROM {p}dh_rating_seats WHERE game_id = ?", (gid,)))
        else:
            out.append(
                (
                    "INSERT INTO {p}dh_rating_seats (game_id, seats) VALUES (?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET seats = excluded.seats",
                    (gid, json.dumps(seats)),
                )
            )
    return out


_Handler = Callable[[RatingProjection, Any, list[Change], Seated], None]
_HANDLERS: Handlers[_Handler] = Handlers(
    {
        Game.Created: RatingProjection._created,
        Game.SeatTaken: RatingProjection._seat_added,
        Game.SeatGivenUp: RatingProjection._seat_given_up,
        Game.Joined: RatingProjection._seat_added,
        Game.Started: RatingProjection._seated,
        Game.Forked: RatingProjection._seated,
        Game.MoveMade: RatingProjection._decided,
        Game.Resigned: RatingProjection._decided,
        Game.Finished: RatingProjection._finished,
        Game.Abandoned: RatingProjection._abandoned,
    }
)
