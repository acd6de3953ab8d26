"""The account feed: what happened to each account, in order, for its stream and webhooks.

Each entry has a ``cursor``, increasing in the order entries are committed, and a
``dedupe`` key: the inbox projection may write a batch's entries again after a crash
(before its tracking record), and a timer may fire twice, but an entry is
recorded once. Entry types:

* ``game_started``, ``your_turn``, ``game_finished``, ``timeout``, ``seat_given_up`` (to those
  still seated, when a player leaves a table not started or a server bot is taken off it):
  written by the inbox projection from the events (``projections.inbox_projection``);
* ``invitation``, ``reminder``: written with the inbox item (``services.accounts.inbox``);
* ``invitation_accepted``, ``invitation_declined``: to the inviter, when an invitee answers
  (``services.play.invitations``);
* ``tournament_round``: to each player of a tournament's round, when it is paired: their
  table and when its game starts; ``tournament_cancelled``: to each entrant
  (``services.competition.tournaments``);
* ``dispute_opened``: written when a dispute is opened on one of the account's games.

Entries carry only what every seat of the game may know: game id, seat, version,
status, deadline. A stream (``services.streams.lines``) is woken through ``Wakeups``
after each write, and reads the table from the cursor it has sent up to. A webhook
subscribes to types of entries (``services.accounts.webhook_subscriptions``), and each POST's
body is the entry's stream line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from services.common import clock
from services.common.sqlstore import SqlStore, Tx
from services.deadlines import clocks
from services.streams.wakeups import Wakeups, account_key

log = logging.getLogger("dragonhall.feed")

TYPES = (
    "game_started",
    "your_turn",
    "game_finished",
    "timeout",
    "seat_given_up",
    "invitation",
    "invitation_accepted",
    "invitation_declined",
    "reminder",
    "dispute_opened",
    "tournament_round",
    "tournament_cancelled",
)

_CURSOR = {"sqlite": "INTEGER PRIMARY KEY AUTOINCREMENT", "postgres": "BIGSERIAL PRIMARY KEY"}
"""The one column whose type the two databases spell differently: an increasing cursor."""
TABLES = {
    dialect: [
        f"""CREATE TABLE IF NOT EXISTS dh_account_events (
            cursor {cursor},
            player_id TEXT NOT NULL,
            type TEXT NOT NULL,
            dedupe TEXT NOT NULL UNIQUE,
            game_id TEXT,
            at TEXT NOT NULL,
            payload TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS dh_account_events_player ON dh_account_events (player_id, cursor)",
    ]
    for dialect, cursor in _CURSOR.items()
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One account event to record."""

    player_id: str
    type: str
    dedupe: str
    game_id: str | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Appended:
    """An entry as recorded: its account, the account's cursor before it (0: its first), its line."""

    player_id: str
    before: int
    line: dict[str, Any]


class AccountFeed:
    """Appends entries and reads them back by cursor."""

    def __init__(
        self,
        db: SqlStore,
        wakeups: Wakeups | None = None,
        vacation_days: Callable[[str], frozenset[date]] | None = None,
    ) -> None:
        self.db = db
        self.wakeups = wakeups
        self.vacation_days = vacation_days
        """A player's vacation days (``Vacations.days``): a ``your_turn`` deadline read from the feed
        is pushed past them, as the game's own clock is, including days declared after it was written."""
        self.listeners: list[Callable[[set[str]], None]] = []
        """Called after each append with the accounts that got new entries (``workers.dispatch``
        claims their webhook deliveries at once)."""
        self.publishers: list[Callable[[list[Appended]], None]] = []
        """Called after each append with each new entry as a stream line and the account's cursor
        before it (the fan-out engine's publisher, ``services.streams.grip``, orders its lines by them)."""
        self.db.script(TABLES[db.dialect])

    def append(self, entries: Sequence[Entry]) -> int:
        """Records ``entries`` (each once per dedupe key) and wakes their accounts' streams;
        returns how many were new."""
        if not entries:
            return 0
        at = clock.now().isoformat()
        added: list[str] = []
        with self.db.tx() as t:
            self._serialise(t)
            for e in entries:
                if t.execute(
                    "INSERT INTO dh_account_events (player_id, type, dedupe, game_id, at, payload) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe) DO NOTHING",
                    (e.player_id, e.type, e.dedupe, e.game_id, at, json.dumps(e.payload)),
                ):
                    added.append(e.player_id)
            appended = self._appended(t, added) if self.publishers and added else []
        if self.wakeups is not None:
            self.wakeups.publish_all(account_key(e.player_id) for e in entries)
        if added:
            self._tell(set(added))
        for publish in self.publishers if appended else ():
            try:
                publish(appended)
            except Exception:
                log.exception("an account feed publisher failed")
        return len(added)

    def _appended(self, t: Tx, added: list[str]) -> list[Appended]:
        """The entries just added, each with its account's cursor before it: read in the append's
        transaction, where writers take turns (``_serialise``), so the newest ``n`` of an account
        are its ``n`` new ones."""
        out: list[Appended] = []
        for player_id in dict.fromkeys(added):
            n = added.count(player_id)
            rows = t.query(
                "SELECT cursor, type, game_id, at, payload FROM dh_account_events "
                "WHERE player_id = ? ORDER BY cursor DESC LIMIT ?",
                (player_id, n + 1),
            )
            rows.reverse()
            before = int(rows[0]["cursor"]) if len(rows) > n else 0
            for row in rows[-n:]:
                out.append(Appended(player_id, before, self._pushed(player_id, line(row))))
                before = int(row["cursor"])
        return out

    def _tell(self, player_ids: set[str]) -> None:
        """Calls each listener with the accounts that have new entries. A failing listener
        fails no append: the entries are stored, and the sweep looks at them again."""
        for listener in self.listeners:
            try:
                listener(player_ids)
            except Exception:
                log.exception("an account feed listener failed")

    def _serialise(self, t: Tx) -> None:
        """On PostgreSQL, writers of the feed take turns, so cursors are committed in order
        and a reader that has seen cursor N never later meets a smaller one. (SQLite's
        ``BEGIN IMMEDIATE`` already serialises writers.)"""
        if self.db.dialect == "postgres":
            t.execute("LOCK TABLE dh_account_events IN SHARE ROW EXCLUSIVE MODE")

    def since(self, player_id: str, cursor: int, limit: int = 200) -> list[dict[str, Any]]:
        """The account's entries after ``cursor``, oldest first, as stream lines."""
        rows = self.db.query(
            "SELECT cursor, type, game_id, at, payload FROM dh_account_events "
            "WHERE player_id = ? AND cursor > ? ORDER BY cursor LIMIT ?",
            (player_id, cursor, limit),
        )
        return [self._pushed(player_id, line(row)) for row in rows]

    def recent(self, player_id: str, types: Sequence[str], within: int = 500) -> list[dict[str, Any]]:
        """The account's entries of ``types`` among its latest ``within``, newest first: what a page
        tells of lately, read without a pass over an account's whole history (a bot's runs long)."""
        rows = self.db.query(
            "SELECT cursor, type, game_id, at, payload FROM dh_account_events WHERE player_id = ? "
            "ORDER BY cursor DESC LIMIT ?",
            (player_id, within),
        )
        return [line(row) for row in rows if row["type"] in types]

    def entry(self, dedupe: str) -> dict[str, Any] | None:
        """The entry recorded under ``dedupe``, as a stream line, with its ``player_id`` apart."""
        row = self.db.one(
            "SELECT cursor, player_id, type, game_id, at, payload FROM dh_account_events WHERE dedupe = ?", (dedupe,)
        )
        if row is None:
            return None
        return {"player_id": row["player_id"], "line": self._pushed(row["player_id"], line(row))}

    def _pushed(self, player_id: str, entry: dict[str, Any]) -> dict[str, Any]:
        """``entry`` with a ``your_turn`` deadline moved past the player's vacation days."""
        deadline, started = entry.get("deadline"), entry.pop("turn_started", None)
        if entry["type"] != "your_turn" or not deadline or not started or self.vacation_days is None:
            return entry
        days = self.vacation_days(player_id)
        if days:
            start = clocks.parse(started)
            entry["deadline"] = clocks.advance(
                start, (clocks.parse(deadline) - start).total_seconds(), days
            ).isoformat()
        return entry

    def last_cursor(self, player_id: str) -> int:
        row = self.db.one("SELECT MAX(cursor) AS last FROM dh_account_events WHERE player_id = ?", (player_id,))
        return int(row["last"]) if row and row["last"] is not None else 0


def line(row: dict[str, Any]) -> dict[str, Any]:
    payload = json.loads(row["payload"])
    return {"type": row["type"], "cursor": int(row["cursor"]), "at": row["at"], "game_id": row["game_id"], **payload}
