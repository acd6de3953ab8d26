"""Who is called what: each account's name keys (no two names alike) and its name as searched.

Two tables beside ``dh_players`` (``services.accounts.players``), written in the registration's own
transaction:

* ``dh_name_keys``: every key of every account's name (``services.accounts.names.keys``), the key the
  primary key, so two accounts can never hold names that look alike, even when two processes
  register at once;
* ``dh_name_search``: each account's name folded (NFKC, case-folded), which suggestions and
  look-ups by name read.

Accounts made before names were unique get their keys at start-up (``MIGRATE``), the first
registered keeping a name that several share; the others keep theirs, and are found by id.
"""

from __future__ import annotations

from typing import Any

from services.accounts import names
from services.common.errors import InvalidRequest, ServiceError
from services.common.sqlstore import SqlStore, Tx

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_name_keys (
        name_key TEXT PRIMARY KEY,
        player_id TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS dh_name_keys_player ON dh_name_keys (player_id)",
    """CREATE TABLE IF NOT EXISTS dh_name_search (
        player_id TEXT PRIMARY KEY,
        folded TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS dh_name_search_folded ON dh_name_search (folded)",
]
SUGGESTIONS = 10
"""The most names one search suggests."""


class NameTaken(ServiceError):
    """Another account's name is this one, or looks like it (409)."""

    code = "name_taken"


class NameBook:
    """Reserves names at registration, finds accounts by name, suggests names."""

    def __init__(self, db: SqlStore) -> None:
        self.db = db
        self.db.script(TABLES)
        if self.db.create_tables:
            self._migrate()

    def check(self, name: str) -> str:
        """``name`` cleaned (``names.clean``), or ``InvalidRequest`` saying why it cannot be one."""
        try:
            return names.clean(name)
        except names.NameRefused as e:
            raise InvalidRequest(str(e), field="name") from None

    def reserve(self, t: Tx, player_id: str, name: str) -> None:
        """Records ``name``'s keys for ``player_id`` in the registration's transaction;
        ``NameTaken`` (which rolls it back) when another account holds one of them."""
        if not _record(t, player_id, name):
            message = (
                f"the name {name!r} is taken, or looks too much like one that is "
                "(names ignore case and letters that look alike): choose another"
            )
            raise NameTaken(message, fields={"name": [message]})

    def find(self, name: str) -> str | None:
        """The id of the account whose name is ``name`` as a person reads it (case and letters
        that look alike ignored): the account whose name folds to the same letters if there is
        one, else the one account sharing a key with it; None when there is none, or several (or
        ``name`` could not be one: control characters, which no store need be asked about)."""
        if not names.printable(name):
            return None
        found = sorted(names.keys(name))
        marks = ", ".join("?" for _ in found)
        rows = self.db.query(
            "SELECT DISTINCT k.player_id, s.folded FROM dh_name_keys k "
            f"LEFT JOIN dh_name_search s ON s.player_id = k.player_id WHERE k.name_key IN ({marks})",
            found,
        )
        exact = [r["player_id"] for r in rows if r["folded"] == names.folded(name)]
        if exact:
            return str(exact[0])
        return str(rows[0]["player_id"]) if len(rows) == 1 else None

    def search(self, text: str, limit: int = SUGGESTIONS) -> list[dict[str, Any]]:
        """Accounts whose name holds ``text`` (case ignored): names that start with it first,
        then shorter names, then alphabetically."""
        needle = names.folded(text.strip())
        if not needle or not names.printable(needle):
            return []
        pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self.db.query(
            "SELECT p.player_id, p.name, p.kind FROM dh_name_search s JOIN dh_players p ON p.player_id = s.player_id "
            "WHERE s.folded LIKE ? ESCAPE '\\' "
            "ORDER BY CASE WHEN substr(s.folded, 1, ?) = ? THEN 0 ELSE 1 END, length(s.folded), s.folded LIMIT ?",
            (pattern, len(needle), needle, limit),
        )
        return [{"id": r["player_id"], "name": r["name"], "kind": r["kind"]} for r in rows]

    def _migrate(self) -> None:
        """Gives every account without keys its name's keys (accounts made before names were unique)."""
        rows = self.db.query(
            "SELECT player_id, name FROM dh_players p WHERE NOT EXISTS "
            "(SELECT 1 FROM dh_name_search s WHERE s.player_id = p.player_id) ORDER BY created_at, player_id"
        )
        for row in rows:
            with self.db.tx() as t:
                _record(t, row["player_id"], row["name"])


def _record(t: Tx, player_id: str, name: str) -> bool:
    """Writes the keys and the folded name of ``player_id``'s ``name``: False when another
    account held one of the keys (those are left to it; the others are written)."""
    free = True
    for key in sorted(names.keys(name)):
        free = bool(t.execute(_INSERT_KEY, (key, player_id))) and free
    t.execute(
        "INSERT INTO dh_name_search (player_id, folded) VALUES (?, ?) ON CONFLICT (player_id) DO NOTHING",
        (player_id, names.folded(name)),
    )
    return free


_INSERT_KEY = "INSERT INTO dh_name_keys (name_key, player_id) VALUES (?, ?) ON CONFLICT (name_key) DO NOTHING"
