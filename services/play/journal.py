"""The journal of refused commands: who, when, what, and which rule refused it.

It is a read model beside the game, not part of the game's own stream: a
refused command changes nothing in the game.

While the game runs, a refusal is a secret of the seat that sent it: which
command a seat tried, and which rule refused it, can tell what it holds (a card
refused as "not in your hand" against one refused as "no connection there").
So each seat reads its own refusals whole, and of the other seats' refusals
only that one happened, at which version. Once the game has ended, everyone
reads all of it.

Only players seated in the game are journaled, under a seat they hold, at most
``MAX_ENTRIES_PER_PLAYER`` refusals each per game; the command is kept up to
``MAX_COMMAND_BYTES`` of its JSON.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from domain.kernel import RuleError
from services.common import clock
from services.common.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_journal (
        entry_id TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        at TEXT NOT NULL,
        player_id TEXT NOT NULL,
        seat INTEGER,
        version INTEGER,
        command TEXT NOT NULL,
        code TEXT NOT NULL,
        message TEXT NOT NULL,
        rule TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS dh_journal_game ON dh_journal (game_id, at)",
]
MAX_ENTRIES_PER_PLAYER = 200
"""Refusals kept per player and game; later ones are refused all the same, and not journaled."""
MAX_COMMAND_BYTES = 4096
"""A refused command's JSON is kept up to this length (a longer one is kept as its type)."""


class Journal:
    def __init__(self, db: SqlStore) -> None:
        self.db = db
        self.db.script(TABLES)

    def refused(self, game_id: str, player_id: str, seat: int, version: int, command: Any, error: Exception) -> None:
        """Journals one refusal of a seated player's command (``seat`` is one they hold)."""
        if self._count(game_id, player_id) >= MAX_ENTRIES_PER_PLAYER:
            return
        rule = error.rule.to_json() if isinstance(error, RuleError) else None
        code = getattr(error, "code", type(error).__name__)
        message = getattr(error, "message", str(error))
        self.db.execute(
            "INSERT INTO dh_journal (entry_id, game_id, at, player_id, seat, version, command, code, message, rule) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                str(uuid.uuid4()),
                game_id,
                clock.now().isoformat(),
                player_id,
                seat,
                version,
                _kept(command),
                code,
                message,
                json.dumps(rule) if rule else None,
            ),
        )

    def _count(self, game_id: str, player_id: str) -> int:
        row = self.db.one(
            "SELECT COUNT(*) AS n FROM dh_journal WHERE game_id = ? AND player_id = ?", (game_id, player_id)
        )
        return int(row["n"]) if row else 0

    def entries(self, game_id: str, revealed: bool, reader: str | None) -> list[dict[str, Any]]:
        """The journal as ``reader`` may read it: whole once ``revealed`` (the game has ended),
        else whole for the reader's own refusals and reduced to their time, seat and version for
        the others'."""
        rows = self.db.query("SELECT * FROM dh_journal WHERE game_id = ? ORDER BY at, entry_id", (game_id,))
        return [_entry(row, revealed or row["player_id"] == reader) for row in rows]


def _entry(row: dict[str, Any], whole: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "at": row["at"],
        "player_id": row["player_id"],
        "seat": row["seat"],
        "version": row["version"],
        "command": None,
        "code": None,
        "message": None,
        "rule": None,
    }
    if whole:
        entry.update(
            command=json.loads(row["command"]),
            code=row["code"],
            message=row["message"],
            rule=json.loads(row["rule"]) if row["rule"] else None,
        )
    return entry


def _kept(command: Any) -> str:
    text = json.dumps(command, default=str)
    if len(text) <= MAX_COMMAND_BYTES:
        return text
    kind = command.get("type") if isinstance(command, dict) else None
    return json.dumps({"type": kind if isinstance(kind, str) else None, "truncated": True})
