"""Which account events each player's webhook receives, and the claiming of their deliveries.

A player with a webhook URL subscribes to types of its account feed
(``services.accounts.account_feed.TYPES``); ``["reminder"]`` by default, which is what a
webhook received before it could choose. Each subscription keeps the feed cursor
it has looked at up to (``dh_webhook_subscriptions``, a table of its own, so the
players' table needs no ALTER TABLE). ``due`` reads the entries after it, claims
one delivery per entry of a subscribed type in the deliveries table
(``Inbox.claim_delivery``, keyed by the entry's dedupe key, so an entry is claimed
once however many processes look at it at once), then moves the cursor on. A crash
between the two claims nothing twice: the next look claims the same keys again and
gets nothing.

``due`` is called right after entries are appended where background work runs
(``workers.dispatch`` listens to the feed), and by every sweep for all
subscriptions, so entries appended by a process without a worker (a projections
process) or whose look failed are delivered at the next sweep. Each POST's body is
the entry as the account stream sends it (``account_feed.line``): public facts only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import Any

from services.accounts.account_feed import TYPES, AccountFeed
from services.accounts.inbox import Inbox
from services.accounts.players import Accounts
from services.common.errors import InvalidRequest, PlayerNotFound
from services.common.sqlstore import SqlStore

DEFAULT_EVENTS = ("reminder",)
BATCH = 500
"""Feed entries read by one look; the next look (the next sweep at the latest) reads on."""

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_webhook_subscriptions (
        player_id TEXT PRIMARY KEY,
        events TEXT NOT NULL,
        cursor BIGINT NOT NULL
    )""",
]

BACKFILL = """INSERT INTO dh_webhook_subscriptions (player_id, events, cursor)
    SELECT p.player_id, ?, COALESCE((SELECT MAX(e.cursor) FROM dh_account_events e WHERE e.player_id = p.player_id), 0)
    FROM dh_players p WHERE p.webhook_url IS NOT NULL
    ON CONFLICT (player_id) DO NOTHING"""
"""A webhook set before subscriptions existed keeps receiving reminders: from the entries
appended after this start on."""


class WebhookSubscriptions:
    """Subscriptions by event type, and the deliveries of the feed entries they want."""

    def __init__(self, db: SqlStore, feed: AccountFeed, inbox: Inbox, url_of: Callable[[str], str | None]) -> None:
        self.db = db
        self.feed = feed
        self.inbox = inbox
        self.url_of = url_of
        """The player's webhook URL now (``Accounts``), or None."""
        self.db.script(TABLES)
        if self.db.create_tables:  # the process that makes the tables brings old rows up to date
            self.db.execute(BACKFILL, (json.dumps(DEFAULT_EVENTS),))

    def subscribe(self, player_id: str, events: Sequence[str] | None) -> list[str]:
        """Has the player's webhook receive ``events`` (None: unsubscribe, as when its URL is
        cleared) and returns them. A new subscription starts after the entries already in the
        feed; a changed one keeps its cursor, so entries not yet looked at follow the new types.
        ``InvalidRequest`` for a type the feed does not have."""
        if events is None:
            self.db.execute("DELETE FROM dh_webhook_subscriptions WHERE player_id = ?", (player_id,))
            return []
        unknown = sorted(set(events) - set(TYPES))
        if unknown:
            raise InvalidRequest(f"unknown event types {unknown}; known: {list(TYPES)}")
        chosen = [t for t in TYPES if t in set(events)]
        self.db.execute(
            "INSERT INTO dh_webhook_subscriptions (player_id, events, cursor) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET events = excluded.events",
            (player_id, json.dumps(chosen), self.feed.last_cursor(player_id)),
        )
        return chosen

    def events_of(self, player_id: str) -> list[str]:
        """The types the player's webhook receives; [] without a webhook."""
        row = self.db.one("SELECT events FROM dh_webhook_subscriptions WHERE player_id = ?", (player_id,))
        return [] if row is None else list(json.loads(row["events"]))

    def due(self, player_ids: Collection[str] | None = None) -> list[str]:
        """Claims a delivery for each entry after a subscription's cursor that it wants (of
        ``player_ids``' subscriptions, or all) and moves the cursors on; the new deliveries'
        ids, for the webhook task to POST."""
        where = ""
        params: list[Any] = [BATCH]
        if player_ids is not None:
            if not player_ids:
                return []
            ids = sorted(set(player_ids))
            where = f"WHERE s.player_id IN ({', '.join('?' for _ in ids)}) "
            params = [*ids, BATCH]
        rows = self.db.query(
            "SELECT s.player_id, s.events, e.cursor, e.type, e.dedupe FROM dh_webhook_subscriptions s "
            "JOIN dh_account_events e ON e.player_id = s.player_id AND e.cursor > s.cursor "
            f"{where}ORDER BY e.cursor LIMIT ?",
            params,
        )
        claimed: list[str] = []
        last: dict[str, int] = {}
        urls: dict[str, str | None] = {}
        for row in rows:
            pid = row["player_id"]
            if pid not in urls:
                urls[pid] = self.url_of(pid)
            url = urls[pid]
            if url and row["type"] in json.loads(row["events"]):
                delivery = self.inbox.claim_delivery(row["dedupe"], url)
                if delivery is not None:
                    claimed.append(delivery)
            last[pid] = int(row["cursor"])
        for pid, cursor in last.items():
            self.db.execute(
                "UPDATE dh_webhook_subscriptions SET cursor = ? WHERE player_id = ? AND cursor < ?",
                (cursor, pid, cursor),
            )
        return claimed


def webhook_url(accounts: Accounts) -> Callable[[str], str | None]:
    """Each player's webhook URL as ``accounts`` holds it now (None for a player it does not know)."""

    def url_of(player_id: str) -> str | None:
        try:
            return accounts.get(player_id).webhook_url
        except PlayerNotFound:
            return None

    return url_of
