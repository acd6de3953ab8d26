"""The journal of refused commands: who, when, what, and which rule refused it.

It is a read model beside the game, not part of the game's own stream: a
refused command changes nothing in the game. The game's seats may read it while
the game runs, with other seats' secret fields hidden and refusal messages shown
only to whoever sent the command (a message may quote a secret); everyone may
read all of it once the game has ended.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from domain.kernel import RuleError, Viewer
from services import clock
from services.sqlstore import SqlStore

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


class Journal:
    def __init__(self, db: SqlStore) -> None:
        self.db = db
        self.db.script(TABLES)

    def refused(self, game_id: str, player_id: str, seat: int | None, version: int | None, command: Any,
                error: Exception) -> None:
        rule = error.rule.to_json() if isinstance(error, RuleError) else None
        code = getattr(error, "code", type(error).__name__)
        message = getattr(error, "message", str(error))
        self.db.execute(
            "INSERT INTO dh_journal (entry_id, game_id, at, player_id, seat, version, command, code, message, rule) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (str(uuid.uuid4()), game_id, clock.now().isoformat(), player_id, seat, version,
             json.dumps(command, default=str), code, message, json.dumps(rule) if rule else None),
        )

    def entries(self, game_id: str, viewer: Viewer, viewer_player: str | None, ruleset: Any) -> list[dict[str, Any]]:
        rows = self.db.query("SELECT * FROM dh_journal WHERE game_id = ? ORDER BY at, entry_id", (game_id,))
        out = []
        for row in rows:
            mine = viewer.omniscient or row["player_id"] == viewer_player
            out.append({
                "at": row["at"], "player_id": row["player_id"], "seat": row["seat"], "version": row["version"],
                "command": _command(json.loads(row["command"]), row["seat"], viewer, mine, ruleset),
                "code": row["code"], "message": row["message"] if mine else None,
                "rule": json.loads(row["rule"]) if row["rule"] else None,
            })
        return out


def _command(command: Any, seat: int | None, viewer: Viewer, mine: bool, ruleset: Any) -> Any:
    """The command as the viewer may see it: secret fields hidden unless it is theirs."""
    if mine or not isinstance(command, dict):
        return command
    cls = ruleset.commands.by_type.get(command.get("type"))
    if cls is None:
        return {"type": command.get("type")}
    return {k: ({"hidden": True} if k in cls.SECRET else v) for k, v in command.items()}
