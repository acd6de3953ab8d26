"""What every projection of the read models shares: a position of its own, and the games it sets aside.

Each read model (``projections.views.READ_MODEL_TABLES``: the game list, the boards, the
ratings, the deadline index, the inbox) is kept by a projection of its own, with its own tracking
record (``views.tracking_name``), written in the same transaction as its changes, so each event
changes each read model exactly once (the inbox's entries go to the account feed before its
record, each kept once by its key: ``projections.inbox_projection``). One runner
(``projections.runner``) reads and decodes each batch of events once and hands it to every
projection in turn; a projection whose position is
already past an event skips it. So a read model can be rebuilt alone: its tables emptied and its
position set back to the start (``GameViewsSQL.drop_views``), the runner starts from the lowest
position, and that read model catches up while the others skip what they already hold.

A game whose events a projection cannot apply is set aside in that read model's table
(``projections.set_aside``): the batch is projected again without that game's events, and the
read side goes on. A write the database refuses for a reason other than the events
(``set_aside.transient``) stops the runner instead, which its leader replaces.
"""

from __future__ import annotations

import logging
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from projections import set_aside
from projections.batch import Fresh, Poisoned, blame
from projections.event_keys import game_of
from projections.views import VIEWS, Change, GameViewsSQL, tracking_name
from services.common import clock

log = logging.getLogger(__name__)
H = TypeVar("H")

Items = Sequence[tuple[DomainEventProtocol[uuid.UUID], Tracking]]
Apply = Callable[[str, DomainEventProtocol[uuid.UUID]], None]
"""What a projection does with one event of a game it keeps: ``(game id, event)``."""
EventsOf = Callable[[str], Sequence[DomainEventProtocol[uuid.UUID]]]
"""Every event of one game, from the store (to retry a game set aside)."""
Staged = list[tuple[Sequence[Change], Tracking]]
"""Read models' changes of a batch, each with its tracking record, not yet written."""
Held = tuple[int | None, set[str] | None]
"""A projection's position and the games it set aside (``TrackedProjection.held``)."""


class TrackedProjection(Projection[GameViewsSQL], ABC):
    """A projection that keeps one read model, at a position of its own."""

    name = VIEWS
    """The read models' database settings, shared by every projection (each subclass names it
    again: ``Projection`` names a subclass that does not after the class)."""
    read_model: ClassVar[str]
    """Its key in ``views.READ_MODEL_TABLES``, which names its tracking record."""
    set_aside_table: ClassVar[str]
    """Where it records the games it set aside."""
    split_from: ClassVar[str | None] = None
    """The read model whose position it shared before it had its own: the first time a version
    with its own runs, it starts there (``GameViewsSQL.take_position_from``), with what ``_carry``
    copies of what that projection wrote for it."""

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self.tracking_name = tracking_name(self.read_model)
        if self.split_from is not None:
            view.take_position_from(self.tracking_name, tracking_name(self.split_from), self._carry)
        self._position = self.view.max_tracking_id(self.tracking_name)
        self._set_aside_games: set[str] | None = None
        self._caught_up: dict[str, int] = {}
        """Per game retried at start (``retry_set_aside``), the version it was applied up to."""
        self.staged: Staged | None = None
        """Where ``_commit`` leaves its writes while a runner writes every read model's batch in
        one transaction (``projections.runner.ReadModels``); None: each batch commits at once."""

    def _carry(self, c: Any, sql: Callable[[str], str]) -> None:
        """Copies, in the take-over's transaction (``split_from``), what this read model takes over."""

    def _each_event(self, items: Items, fresh: Fresh, skipped: dict[str, int], apply: Apply) -> None:
        """Hands each event of the batch to ``apply``, but those of the games set aside (before
        the batch, and ``fresh``), whose last version seen goes into ``skipped``, and those applied
        when their game was retried. An error names the game of the event it came from
        (``Poisoned``), so that game alone is set aside; one the database raised for another reason
        (``set_aside.transient``) goes up as it is."""
        aside = self._aside()
        gid = ""
        try:  # one handler for the batch, not a context per event: this loop is the runner's hot path
            for event, _tracking in items:
                gid, version = game_of(event), event.originator_version
                if gid in aside or gid in fresh:
                    skipped[gid] = version
                    continue
                if version <= self._caught_up.get(gid, 0):
                    continue
                apply(gid, event)
        except Exception as e:
            if set_aside.transient(e):
                raise
            raise Poisoned(gid, e) from e

    def position(self) -> int | None:
        """The last event this read model holds (None: it has recorded none)."""
        return self._position

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(self, items: Items) -> None:
        """Applies the batch's events this read model has not yet processed, and records the position
        of the last one, atomically.

        A game whose event cannot be applied is set aside: the batch is projected again without that
        game's events, and the game's record is written with it. A write the database refuses for a
        reason other than itself (``set_aside.transient``) is tried again one event at a time, to find
        the game to set aside."""
        items = self._unseen(items)
        if not items:
            return
        fresh: Fresh = {}
        while True:
            try:
                self._project(items, fresh)
                break
            except Poisoned as p:
                self._forget(items)
                self._set_aside(fresh, items, p)
            except BaseException as e:
                self._forget(items)
                if set_aside.transient(e):
                    raise
                if len(items) > 1:
                    for item in items:
                        self.process_batch([item])
                    return
                self._set_aside(fresh, items, Poisoned(game_of(items[0][0]), e))
        self._aside().update(fresh)
        self._position = items[-1][1].notification_id
        if self.staged is None:
            self._written()

    def _unseen(self, items: Items) -> Items:
        """The events past this read model's position (all of them, but while it catches up)."""
        position = self._position
        if position is None or items[0][1].notification_id > position:
            return items
        return [item for item in items if item[1].notification_id > position]

    def _commit(self, changes: Sequence[Change], items: Items) -> None:
        """Writes ``changes`` with this read model's tracking record of the batch's last event (or
        leaves them in ``staged``)."""
        tracking = Tracking(self.tracking_name, items[-1][1].notification_id)
        if self.staged is not None:
            self.staged.append((changes, tracking))
        else:
            self.view.apply(changes, tracking)

    def held(self) -> Held:
        """What a batch changes of this projection besides its memory: its position and the games
        it set aside (``undo``)."""
        aside = self._set_aside_games
        return self._position, None if aside is None else set(aside)

    def undo(self, held: Held, items: Items) -> None:
        """Back to before a batch whose staged writes were not committed: its position and games
        set aside as ``held``, and nothing in memory of the batch's games (the tables are the truth)."""
        self._position, self._set_aside_games = held
        self._forget(items)

    def written(self) -> None:
        """Called once the batch's staged writes are committed."""
        self._written()

    def _set_aside(self, fresh: Fresh, items: Items, p: Poisoned) -> None:
        """Sets ``p``'s game aside from its first event in the batch (an error after the events may
        come of any of them)."""
        versions = [e.originator_version for e, _t in items if game_of(e) == p.gid]
        version = min(versions) if versions else self._next_version(p.gid)
        fresh[p.gid] = (version, set_aside.describe(p.error))
        self._forget_game(p.gid)
        log.error(
            "the %s read model set aside game %s from version %s: %s", self.read_model, p.gid, version, fresh[p.gid][1]
        )

    def _aside(self) -> set[str]:
        """The games this read model set aside, read from its table on first use."""
        if self._set_aside_games is None:
            self._set_aside_games = {r["game_id"] for r in self.view.set_aside_games(self.set_aside_table)}
        return self._set_aside_games

    @abstractmethod
    def _project(self, items: Items, fresh: Fresh) -> None:
        """One attempt at a batch, skipping the games set aside (before it, and ``fresh``): its
        changes written with ``_commit``."""

    @abstractmethod
    def _forget(self, items: Items) -> None:
        """After a failed write, drops what memory learnt from the batch: the tables are the truth."""

    def _forget_game(self, gid: str) -> None:
        """Drops what memory holds of a game set aside."""

    def _next_version(self, gid: str) -> int:
        """The version a game set aside after its events (by an error of the batch's end) waits from."""
        return 0

    def _written(self) -> None:
        """Called after each batch is written."""

    def flush(self) -> None:
        """Writes out what the projection holds in memory (when the runner is idle, and at shutdown)."""

    def retry_set_aside(self, events_of: EventsOf) -> None:
        """Applies the games set aside again before the runner's first batch, where the read model
        can (``RetriedProjection``); the ratings, which must rate games in stream order, cannot, and
        are rebuilt instead."""


class RetriedProjection(TrackedProjection, ABC):
    """A read model whose rows of a game are a fold of that game's events alone, so that a game it
    set aside can be applied again from its first event when a runner starts."""

    retried_tables: ClassVar[Sequence[str]]
    """Its tables holding rows of one game, cleared before a game set aside is applied again."""

    def retry_set_aside(self, events_of: EventsOf) -> None:
        """Applies every game set aside again from its first event (``events_of``), before the
        runner takes its first batch: a game the code now applies gets its rows back and leaves the
        record; its events the runner delivers later are skipped up to the version applied."""
        self._set_aside_games = None
        for gid in sorted(self._aside()):
            self._retry(gid, events_of)

    @abstractmethod
    def _refold(self, gid: str, events: Sequence[DomainEventProtocol[uuid.UUID]]) -> list[Change]:
        """The rows of game ``gid`` applied from its first event (``events``, all of them): what a
        retry writes after clearing ``retried_tables``."""

    def _retry(self, gid: str, events_of: EventsOf) -> None:
        self._forget_game(gid)
        events = list(events_of(gid))
        try:
            with blame(gid):
                rows = self._refold(gid, events)
            self.view.write([*set_aside.cleared(gid, self.retried_tables, self.set_aside_table), *rows])
        except Poisoned as p:
            self._forget_game(gid)
            last, error = events[-1].originator_version if events else 0, set_aside.describe(p.error)
            self.view.write([set_aside.still(gid, error, last, clock.now().isoformat(), self.set_aside_table)])
            log.error("game %s is still set aside from the %s: %s", gid, self.read_model, error)
            return
        except BaseException:
            self._forget_game(gid)
            raise
        self._aside().discard(gid)
        if events:
            self._caught_up[gid] = events[-1].originator_version
        log.warning("game %s, set aside, is back in the %s (version %s)", gid, self.read_model, len(events))


class Handlers(Generic[H]):
    """A projection's handlers by event class, each class's found once: its own, or its nearest
    base's (``nearest_handler``). A dict lookup per event, the projections' hot path
    (``singledispatchmethod`` costs several times more per call)."""

    def __init__(self, table: Mapping[type, H]) -> None:
        self.table: Mapping[type, H] = dict(table)
        self._found: dict[type, H | None] = {}

    def of(self, cls: type) -> H | None:
        if cls not in self._found:
            self._found[cls] = nearest_handler(self.table, cls)
        return self._found[cls]


def nearest_handler(handlers: Mapping[type, H], cls: type) -> H | None:
    """The handler of an event class: its own, or its nearest base's (rule events are
    subclasses of ``Game.RuleEvent`` made per game)."""
    return next((handlers[base] for base in cls.__mro__ if base in handlers), None)
