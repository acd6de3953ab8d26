"""The board projection: keeps ``dh_boards``, each game's latest rules state, from the events.

A read model of its own, with its own tracking record (``projections.tracked``): it can be
rebuilt alone (``dragonhall rebuild-projections --only boards``) while the game list stays as it
is. It reads no other read model: a rule event's class names its game (``rule_event_class``),
a game's start is configured from its ``Created`` (kept in memory until it starts), and a state
not in memory comes from the game's board row or the event store (``projections.board_memory``,
where the states are kept and the rows written lazily: at a game's end, after ``BOARD_LAG``, or
when the runner is idle, ``flush``). Each rule event is folded once, here: the game list folds
no board.

Every event of a game moves its board's version on, so a row is current (its version the game's
last) as soon as it is written; readers use only a current row (``services.reads.queries``).

A game it cannot fold is set aside in ``dh_board_set_aside`` and, as the game list's, retried
from its first event when a runner starts (``retry_set_aside``): a board is the fold of the game's
own events, which an upgrade that fixes the rules may now apply.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from domain.kernel import canonical_json, decode, find_game
from projections import set_aside
from projections.batch import Fresh
from projections.board_memory import BoardMemory
from projections.event_keys import game_of
from projections.tracked import Handlers, Items, RetriedProjection
from projections.views import VIEWS, Change, GameViewsSQL, carry_set_aside_to_boards
from services.common import clock
from services.common.event_store import EventStore
from services.play.aggregate import Game

log = logging.getLogger(__name__)

TABLES = ("dh_boards",)
UPSERT = (
    "INSERT INTO {p}dh_boards (game_id, version, state) VALUES (?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state"
)
Configured = tuple[str, str, dict[str, Any]]
"""A game not yet started: its game, variant and options."""


class BoardProjection(RetriedProjection):
    """Materialises ``dh_boards``: each game's rules state, folded with the game's own ``evolve``."""

    name = VIEWS
    read_model = "boards"
    set_aside_table = set_aside.BOARDS_TABLE
    retried_tables = TABLES
    split_from = "games"

    def __init__(self, view: GameViewsSQL, app: EventStore | None = None) -> None:
        """``app``: the event store, where a state neither in memory nor in its row is rebuilt from."""
        super().__init__(view)
        self.memory = BoardMemory(view, app)
        self._unstarted: dict[str, Configured] = {}
        """The version up to which a game retried (``retry_set_aside``) was applied."""

    def _carry(self, c: Any, sql: Callable[[str], str]) -> None:
        carry_set_aside_to_boards(c, sql)

    def _project(self, items: Items, fresh: Fresh) -> None:
        skipped: dict[str, int] = {}
        ended: set[str] = set()
        self._each_event(items, fresh, skipped, lambda _gid, event: self._apply(event, ended))
        rows = self._due(ended, idle=False)
        marks = set_aside.marks(fresh, skipped, clock.now().isoformat(), self.set_aside_table)
        self._commit([*rows, *marks], items)

    def _apply(self, event: DomainEventProtocol[uuid.UUID], ended: set[str]) -> None:
        """Folds one event into its game's board; every event moves the board's version on."""
        handler = _HANDLERS.of(type(event))
        if handler is not None:
            handler(self, event, ended)
        self.memory.advance(game_of(event), event.originator_version)

    def _due(self, ended: set[str], idle: bool) -> list[Change]:
        """The rows of the boards due now (``BoardMemory.due_boards``)."""
        due = self.memory.due_boards(ended, idle)
        return [(UPSERT, (gid, version, canonical_json(state))) for gid, version, state in due]

    def flush(self) -> None:
        """Writes out every board still held in memory (when the runner is idle, and at shutdown)."""
        if not self.memory.dirty:
            return
        rows = self._due(set(), idle=True)
        if rows:
            self.view.write(rows)

    def _forget(self, items: Items) -> None:
        for event, _tracking in items:
            self._forget_game(game_of(event))

    def _forget_game(self, gid: str) -> None:
        self.memory.forget(gid)
        self._unstarted.pop(gid, None)

    def _next_version(self, gid: str) -> int:
        held = self.memory.states.get(gid)
        return held[0] + 1 if held else 0

    def _refold(self, gid: str, events: Sequence[DomainEventProtocol[uuid.UUID]]) -> list[Change]:
        for event in events:
            self._apply(event, set())
        return self._due({gid}, idle=True)

    def _created(self, e: Game.Created, ended: set[str]) -> None:
        self._unstarted[game_of(e)] = (e.game, e.variant, e.options)

    def _started(self, e: Game.Started, ended: set[str]) -> None:
        def initial(game: str, variant: str, options: Any) -> Any:
            ruleset = find_game(game)
            return ruleset.initial(ruleset.configure(variant, options, len(e.seats)))

        self._begin(e, lambda configured: initial(*configured))

    def _forked(self, e: Game.Forked, ended: set[str]) -> None:
        self._begin(e, lambda configured: decode(find_game(configured[0]).state_type, e.state))

    def _begin(self, e: Game.Started | Game.Forked, first: Callable[[Configured], Any]) -> None:
        """Remembers a game's first board: ``first`` of its configuration, or, for a game created
        before this runner started, the one stored."""
        gid, version = game_of(e), e.originator_version
        configured = self._unstarted.pop(gid, None)
        state = self.memory.stored_state(gid, version) if configured is None else first(configured)
        self.memory.remember(gid, version, state)

    def _rule_event(self, e: Game.RuleEvent, ended: set[str]) -> None:
        """Folds the board: the only fold of a rule event on the read side."""
        gid, version = game_of(e), e.originator_version
        ruleset = find_game(_game_of(type(e)))
        state = self.memory.state_before(gid, version, ruleset)
        self.memory.remember(gid, version, ruleset.evolve(state, ruleset.load_event(e.KIND, e.data)))

    def _ended(self, e: Game.Finished | Game.Abandoned, ended: set[str]) -> None:
        """Its board is written with the batch (a game abandoned before it started has none)."""
        gid = game_of(e)
        self._unstarted.pop(gid, None)
        ended.add(gid)


@cache
def _game_of(cls: type) -> str:
    """The game a rule event class belongs to, from its topic ``dragonhall:<game>:<kind>``
    (``services.play.aggregate.rule_event_class``)."""
    topic: str = cls.TOPIC  # type: ignore[attr-defined]
    _dragonhall, game, _kind = topic.split(":")
    return game


_Handler = Callable[[BoardProjection, Any, set[str]], None]
_HANDLERS: Handlers[_Handler] = Handlers(
    {
        Game.Created: BoardProjection._created,
        Game.Started: BoardProjection._started,
        Game.Forked: BoardProjection._forked,
        Game.RuleEvent: BoardProjection._rule_event,
        Game.Finished: BoardProjection._ended,
        Game.Abandoned: BoardProjection._ended,
    }
)
