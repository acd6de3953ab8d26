"""The inbox projection: tells each player, in their account feed, what their games do.

A read model of its own, with its own tracking record (``projections.tracked``): the account
events every seated account gets from its games (``game_started``, ``your_turn``, ``timeout``,
``game_finished``, and ``seat_given_up`` at a table not started: ``projections.turn_notices``),
written to the account feed (``services.accounts.account_feed``), which wakes the accounts'
streams and webhooks. The invitations and reminders in the same feed are written by the services
that make them.

What a player was told is never taken back: the feed keeps each entry once by its dedupe key, and a
batch's entries are appended before the batch's tracking record is written. After a crash between
the two, the batch is projected again and nothing is told twice; a rebuild
(``dragonhall rebuild-projections --only inbox``) adds what is missing and rewrites nothing.

It reads no other read model: what it needs of each game (which game, its seats, its clock) it
keeps in memory from the game's events, folded as the game list folds them
(``projections.game_memory``), and recalls a game not in memory from the event store.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from projections import set_aside, turn_notices
from projections.batch import Fresh
from projections.event_keys import game_of
from projections.game_memory import GameMemory, Recalled, from_store
from projections.tracked import Handlers, Items, RetriedProjection
from projections.turn_notices import Notices
from projections.views import VIEWS, Change, GameViewsSQL
from services.accounts.account_feed import AccountFeed
from services.accounts.players import SERVER_BOT_PREFIX
from services.common import clock
from services.common.event_store import EventStore
from services.play.aggregate import Game


class InboxProjection(RetriedProjection):
    """Appends the account events of each batch of game events to the players' feed."""

    name = VIEWS
    read_model = "inbox"
    set_aside_table = set_aside.INBOX_TABLE
    retried_tables = ()
    """It owns no rows of a game: a game retried appends what its feed misses (kept once)."""
    split_from = "games"
    """The game list wrote the feed before the inbox had a projection of its own."""

    def __init__(self, view: GameViewsSQL, app: EventStore | None, feed: AccountFeed | None) -> None:
        """``app``: where a game not in memory is recalled from; ``feed``: where the account
        events go (None tells no one, as in a test of the other read models)."""
        super().__init__(view)
        self.app = app
        self.feed = feed
        self.memory = GameMemory(_unknown)

    def _project(self, items: Items, fresh: Fresh) -> None:
        notices = Notices()
        skipped: dict[str, int] = {}
        self._each_event(items, fresh, skipped, lambda gid, event: self._apply(gid, event, notices))
        self._tell(notices)
        self._commit(set_aside.marks(fresh, skipped, clock.now().isoformat(), self.set_aside_table), items)
        self.memory.settle(notices.ended)

    def _refold(self, gid: str, events: Sequence[DomainEventProtocol[uuid.UUID]]) -> list[Change]:
        notices = Notices()
        for event in events:
            self._apply(gid, event, notices)
        self._tell(notices)
        self.memory.settle(notices.ended)
        return []

    def _tell(self, notices: Notices) -> None:
        notices.settle()
        if self.feed is not None:
            self.feed.append(notices.entries)

    def _apply(self, gid: str, event: DomainEventProtocol[uuid.UUID], notices: Notices) -> None:
        version = event.originator_version
        if gid in notices.turns:  # the turns a decision began wait for the rest of its save
            if isinstance(event, Game.ClockSettled):
                notices.saved_at(gid, version)
            else:
                notices.settle(gid)
        handler = _HANDLERS.of(type(event))
        if handler is None:
            return
        if version > 1 and not self.memory.holds(gid):
            self.memory.hold(gid, self._recall(gid, version - 1))
        handler(self, event, notices)

    def _recall(self, gid: str, version: int) -> Recalled:
        if self.app is None:
            raise LookupError(f"no event store to recall game {gid} from")
        return from_store(self.app, gid, version)

    def _forget(self, items: Items) -> None:
        for event, _tracking in items:
            self.memory.forget(game_of(event))

    def _forget_game(self, gid: str) -> None:
        self.memory.forget(gid)

    def _created(self, e: Game.Created, notices: Notices) -> None:
        self.memory.created(e)

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, notices: Notices) -> None:
        self.memory.seat_added(e)

    def _seat_given_up(self, e: Game.SeatGivenUp, notices: Notices) -> None:
        """Those still seated hear who left (the creator, who took a server bot off, does not)."""
        self.memory.seat_given_up(e)
        bot = e.player_id.startswith(SERVER_BOT_PREFIX)
        actor = self.memory.game_meta(game_of(e))["creator"] if bot else e.player_id
        facts = {"given_up_seat": e.seat, "name": e.name, "kind": e.kind, "bot": e.bot if bot else None}
        turn_notices.tell_seats(self.memory, notices, e, "seat_given_up", facts, skip=actor)

    def _started(self, e: Game.Started, notices: Notices) -> None:
        self.memory.started(e)
        turn_notices.tell_seats(self.memory, notices, e, "game_started", {})

    def _forked(self, e: Game.Forked, notices: Notices) -> None:
        self.memory.forked(e)

    def _rule_event(self, e: Game.RuleEvent, notices: Notices) -> None:
        before = self.memory.decided(e)
        if before is not None:
            turn_notices.announce_turns(self.memory, notices, e, before)

    def _clock_settled(self, e: Game.ClockSettled, notices: Notices) -> None:
        self.memory.settled(e)

    def _ended(self, e: Game.Finished | Game.Abandoned, notices: Notices) -> None:
        notices.ended.add(game_of(e))
        status = "finished" if isinstance(e, Game.Finished) else "abandoned"
        turn_notices.tell_seats(self.memory, notices, e, "game_finished", {"status": status, "outcome": e.outcome})

    def _timed_out(self, e: Game.TurnTimedOut, notices: Notices) -> None:
        turn_notices.tell_seats(self.memory, notices, e, "timeout", {"timed_out_seat": e.seat, "policy": e.policy})


def _unknown(gid: str) -> Recalled | None:
    """The inbox recalls a game before its event is handled (``InboxProjection._apply``), by version."""
    return None


_Handler = Callable[[InboxProjection, Any, Notices], None]
_HANDLERS: Handlers[_Handler] = Handlers(
    {
        Game.Created: InboxProjection._created,
        Game.SeatTaken: InboxProjection._seat_added,
        Game.SeatGivenUp: InboxProjection._seat_given_up,
        Game.Joined: InboxProjection._seat_added,
        Game.Started: InboxProjection._started,
        Game.Forked: InboxProjection._forked,
        Game.RuleEvent: InboxProjection._rule_event,
        Game.ClockSettled: InboxProjection._clock_settled,
        Game.Finished: InboxProjection._ended,
        Game.Abandoned: InboxProjection._ended,
        Game.TurnTimedOut: InboxProjection._timed_out,
    }
)
