"""Player accounts and their bearer tokens.

Accounts are not game history, so they live in a plain table rather than an
event stream, and are consistent at once (a new player can create a game in
the next request). A token is shown once, at registration; only its SHA-256 is
stored. Tokens carry 256 bits of randomness, so a fast hash is enough. A
webhook's signing secret is shown once too, when its URL is set; it is derived
again when needed (``services.webhook_keys``), never stored.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from services import webhook_keys
from services.errors import NotAuthenticated, PlayerNotFound
from services.sqlstore import SqlStore
from services.webhook_targets import WebhookTargets

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_players (
        player_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        webhook_url TEXT
    )""",
    *webhook_keys.TABLES,
]

SERVER_BOT_PREFIX = "server-bot:"


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    kind: str
    created_at: str
    webhook_url: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "created_at": self.created_at,
            "webhook_url": self.webhook_url,
        }


class Accounts:
    """Registers players and authenticates their tokens."""

    def __init__(self, db: SqlStore, master_key: bytes, webhook_targets: WebhookTargets | None = None) -> None:
        self.db = db
        self._master_key = master_key
        """The server's key, from which webhook secrets derive (the one game seeds derive from)."""
        self.webhook_targets = webhook_targets or WebhookTargets()
        """Where webhooks may go: checked when a URL is set, and again by each delivery."""
        self.db.script(TABLES)
        self._by_hash: dict[str, Player] = {}
        self._lock = threading.Lock()

    def register(self, name: str, kind: str) -> tuple[Player, str]:
        """A new player and its token (returned once, never stored in clear)."""
        token = secrets.token_urlsafe(32)
        player = Player(str(uuid.uuid4()), name, kind, datetime.now(UTC).isoformat())
        self.db.execute(
            "INSERT INTO dh_players (player_id, name, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            (player.id, player.name, player.kind, _hash(token), player.created_at),
        )
        return player, token

    def authenticate(self, token: str) -> Player:
        """The player holding ``token``; ``NotAuthenticated`` if none does."""
        digest = _hash(token)
        with self._lock:
            cached = self._by_hash.get(digest)
        if cached is not None:
            return cached
        row = self.db.one("SELECT * FROM dh_players WHERE token_hash = ?", (digest,))
        if row is None:
            raise NotAuthenticated("the bearer token is not valid")
        player = _player(row)
        with self._lock:
            if len(self._by_hash) > 10_000:
                self._by_hash.clear()
            self._by_hash[digest] = player
        return player

    def get(self, player_id: str) -> Player:
        row = self.db.one("SELECT * FROM dh_players WHERE player_id = ?", (player_id,))
        if row is None:
            raise PlayerNotFound(f"no player {player_id}")
        return _player(row)

    def set_webhook(self, player_id: str, url: str | None) -> tuple[Player, str | None]:
        """Sets (or, with None, clears) the player's webhook; returns the player and the new
        URL's signing secret, shown only now. Every URL set gets a new secret, so setting the
        same URL again rotates it (and gives one to a webhook set before secrets existed).
        ``InvalidRequest`` for a URL webhooks may not use (``services.webhook_targets``)."""
        if url is not None:
            self.webhook_targets.check(url)
        nonce = webhook_keys.new_nonce() if url else None
        with self.db.tx() as t:
            t.execute("UPDATE dh_players SET webhook_url = ? WHERE player_id = ?", (url, player_id))
            if nonce is None:
                t.execute("DELETE FROM dh_webhook_keys WHERE player_id = ?", (player_id,))
            else:
                t.execute(
                    "INSERT INTO dh_webhook_keys (player_id, nonce) VALUES (?, ?) "
                    "ON CONFLICT (player_id) DO UPDATE SET nonce = excluded.nonce",
                    (player_id, nonce),
                )
        with self._lock:
            self._by_hash.clear()
        secret = webhook_keys.derive(self._master_key, player_id, nonce) if nonce else None
        return self.get(player_id), secret

    def webhook_secret(self, player_id: str) -> str | None:
        """The signing secret of the player's webhook; None if it has none (no webhook, or
        one set before secrets existed)."""
        row = self.db.one("SELECT nonce FROM dh_webhook_keys WHERE player_id = ?", (player_id,))
        return None if row is None else webhook_keys.derive(self._master_key, player_id, row["nonce"])


def server_bot_id(bot: str) -> str:
    """The player id that stands for a server-run bot in a seat."""
    return SERVER_BOT_PREFIX + bot


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _player(row: dict[str, Any]) -> Player:
    return Player(row["player_id"], row["name"], row["kind"], row["created_at"], row.get("webhook_url"))
