"""What the board projection remembers of each game between events: its state, and when its row is due.

Boards are folded with the game's own ``evolve`` and kept here. A board row is written when the
game ends, when it has waited ``BOARD_LAG`` seconds, or when the runner has been idle that long:
most moves then cost no board write. A row records the version it is folded up to, and readers
use it only when that is the game's last version (else they read the write model). After a
restart, a state not in memory is read back from its row if the row is current, or rebuilt from
the event store (``app``).
"""

from __future__ import annotations

import json
import time
import uuid
from collections import OrderedDict
from typing import Any

from domain.kernel import Ruleset, decode
from projections.views import GameViewsSQL
from services.common.event_store import EventStore

STATE_CACHE = 4096
BOARD_LAG = 0.5
"""Seconds a board may wait in memory before its row is written, while the runner is busy."""


class BoardMemory:
    """Each game's board as the events so far left it, and the boards waiting to be written."""

    def __init__(self, view: GameViewsSQL, app: EventStore | None = None) -> None:
        self.view = view
        self.app = app
        """The event store, where a state that is neither in memory nor in its row is rebuilt from."""
        self.states: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self.dirty: dict[str, float] = {}

    def forget(self, gid: str) -> None:
        self.states.pop(gid, None)
        self.dirty.pop(gid, None)

    def touch(self, gid: str) -> None:
        self.dirty.setdefault(gid, time.monotonic())

    def advance(self, gid: str, version: int) -> None:
        """Every event of a game moves its board's version on, even those that leave it as it was."""
        held = self.states.get(gid)
        if held is not None and held[0] == version - 1:
            self.states[gid] = (version, held[1])
            self.touch(gid)

    def remember(self, gid: str, version: int, state: Any) -> None:
        self.states[gid] = (version, state)
        self.states.move_to_end(gid)
        while len(self.states) > STATE_CACHE:
            old = next(iter(self.states))
            if old in self.dirty:  # write it out before forgetting it
                self.states.move_to_end(old)
                self.dirty[old] = 0.0
                break
            self.states.popitem(last=False)
        self.touch(gid)

    def state_before(self, gid: str, version: int, ruleset: Ruleset[Any]) -> Any:
        """The game's state just before ``version``. Events reach the projection in
        order and every batch is written whole, so the state in memory, or else the
        board row, is the state after every earlier event of the game."""
        held = self.states.get(gid)
        if held is not None:
            return held[1]
        board = self.view.board(gid)
        if board is not None and board[0] == version - 1 and board[1] is not None:
            return decode(ruleset.state_type, json.loads(board[1]))
        return self.stored_state(gid, version - 1)

    def stored_state(self, gid: str, version: int) -> Any:
        """The game's state at ``version``, rebuilt from the event store."""
        if self.app is None:  # given by the runner that feeds the projection (``wiring``)
            raise LookupError(f"no event store to rebuild game {gid} at version {version} from")
        return self.app.repository.get(uuid.UUID(gid), version=version).state

    def due_boards(self, ended: set[str], idle: bool) -> list[tuple[str, int, Any]]:
        """The boards to write now: ``(game, version, state)`` of every game whose board waited
        ``BOARD_LAG``, ended, or all of them when ``idle``; each is then no longer waiting."""
        now = time.monotonic()
        out = []
        for gid, since in list(self.dirty.items()):
            if idle or now - since >= BOARD_LAG or gid in ended:
                held = self.states.get(gid)
                if held is not None:
                    out.append((gid, held[0], held[1]))
                self.dirty.pop(gid, None)  # flush() at shutdown may race the runner's own
        return out
