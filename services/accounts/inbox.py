"""Each player's inbox: reminders and invitations, and the table of webhook deliveries.

A reminder is recorded once per turn (its key is the game, the seat and the
turn's start), and goes to the account feed like every account event; a webhook
subscribed to its type (``services.accounts.webhook_subscriptions``) is POSTed at most
once per entry: a delivery row is made once per item (the entry's dedupe key),
and a task takes it (``pending`` to ``sending``) before the POST, so two tasks
for one delivery never both send it. A delivery still ``pending`` long after its
last try had its task lost (with a broker that could not be reached, say); the
sweep sends it a new one (``lost_deliveries``).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from services.accounts.account_feed import AccountFeed, Entry
from services.common import clock
from services.common.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_inbox (
        item_id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        dedupe TEXT NOT NULL UNIQUE,
        game_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        payload TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS dh_inbox_player ON dh_inbox (player_id, created_at)",
    """CREATE TABLE IF NOT EXISTS dh_webhook_deliveries (
        delivery_id TEXT PRIMARY KEY,
        item_id TEXT NOT NULL UNIQUE,
        url TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        last_error TEXT
    )""",
]


class Inbox:
    def __init__(self, db: SqlStore, feed: AccountFeed | None = None) -> None:
        self.db = db
        self.feed = feed
        """Where each new item is also told to its account's stream and webhooks."""
        self.db.script(TABLES)

    def add(self, player_id: str, kind: str, dedupe: str, game_id: str, payload: dict[str, Any]) -> str | None:
        """Records an item once per ``dedupe`` key; returns its id, or None if it was already there."""
        item_id = str(uuid.uuid4())
        with self.db.tx() as t:
            inserted = t.execute(
                "INSERT INTO dh_inbox (item_id, player_id, kind, dedupe, game_id, created_at, payload) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe) DO NOTHING",
                (item_id, player_id, kind, dedupe, game_id, clock.now().isoformat(), json.dumps(payload)),
            )
        if not inserted:
            return None
        if self.feed is not None:
            facts = {k: v for k, v in payload.items() if k != "type"}
            self.feed.append([Entry(player_id, kind, f"inbox:{dedupe}", game_id, {"item_id": item_id, **facts})])
        return item_id

    def items(self, player_id: str, kind: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self.db.query(
            "SELECT item_id, kind, game_id, created_at, payload FROM dh_inbox WHERE player_id = ? AND kind = ? "
            "ORDER BY created_at DESC LIMIT ?",
            (player_id, kind, limit),
        )
        return [
            {
                "id": r["item_id"],
                "kind": r["kind"],
                "game_id": r["game_id"],
                "at": r["created_at"],
                **json.loads(r["payload"]),
            }
            for r in rows
        ]

    def has(self, dedupe: str) -> bool:
        return self.db.one("SELECT 1 AS x FROM dh_inbox WHERE dedupe = ?", (dedupe,)) is not None

    # ------------------------------------------------------------ webhooks

    def claim_delivery(self, item_id: str, url: str) -> str | None:
        """Claims the one delivery of an item (an account feed entry's dedupe key, or an inbox
        item's id); None if it was already claimed."""
        delivery_id = str(uuid.uuid4())
        with self.db.tx() as t:
            inserted = t.execute(
                "INSERT INTO dh_webhook_deliveries (delivery_id, item_id, url, status, attempts, updated_at) "
                "VALUES (?, ?, ?, 'pending', 0, ?) ON CONFLICT (item_id) DO NOTHING",
                (delivery_id, item_id, url, clock.now().isoformat()),
            )
        return delivery_id if inserted else None

    def delivery(self, delivery_id: str) -> dict[str, Any] | None:
        """A delivery with the ``player_id`` and ``payload`` of what it POSTs: an account feed
        entry (its item is the entry's dedupe key) or, for a delivery claimed before webhooks
        followed the feed, an inbox item."""
        row = self.db.one(
            "SELECT d.*, i.payload, i.player_id FROM dh_webhook_deliveries d "
            "LEFT JOIN dh_inbox i ON i.item_id = d.item_id WHERE d.delivery_id = ?",
            (delivery_id,),
        )
        if row is None:
            return None
        if row["payload"] is not None:
            row["payload"] = json.loads(row["payload"])
            return row
        entry = self.feed.entry(row["item_id"]) if self.feed is not None else None
        if entry is None:
            return None
        return {**row, "player_id": entry["player_id"], "payload": entry["line"]}

    def take_delivery(self, delivery_id: str) -> bool:
        """Marks a pending delivery ``sending`` for the one task that will POST it; False if
        another task took it, or it is no longer pending."""
        return (
            self.db.execute(
                "UPDATE dh_webhook_deliveries SET status = 'sending', updated_at = ? "
                "WHERE delivery_id = ? AND status = 'pending'",
                (clock.now().isoformat(), delivery_id),
            )
            == 1
        )

    def lost_deliveries(self, before: datetime, limit: int = 100) -> list[str]:
        """Deliveries still pending since before ``before``: their task was lost."""
        rows = self.db.query(
            "SELECT delivery_id FROM dh_webhook_deliveries WHERE status = 'pending' AND updated_at < ? "
            "ORDER BY updated_at LIMIT ?",
            (before.isoformat(), limit),
        )
        return [r["delivery_id"] for r in rows]

    def mark_delivery(self, delivery_id: str, status: str, error: str | None = None) -> None:
        self.db.execute(
            "UPDATE dh_webhook_deliveries SET status = ?, attempts = attempts + 1, updated_at = ?, last_error = ? "
            "WHERE delivery_id = ?",
            (status, clock.now().isoformat(), error, delivery_id),
        )
