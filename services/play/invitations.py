"""Invitations (challenges): a game's creator invites players or bot accounts by name; each
invitee accepts (and is seated) or declines with a reason, which the inviter hears.

One flow for people and bots, after Lichess's challenges: an invitation says who invites whom
to what (the game, its variant and options, seats, clock, rated or casual, start time), so an
invitee, or a bot's rules, can decide on it alone. It reaches the invitee in the inbox, on the
account stream (again on every connect while it is pending: ``pending``) and by webhook; the
answer reaches the inviter the same ways (``invitation_accepted``, ``invitation_declined``).
Accepting takes a seat like any other player (``services.play.seating``); the game starts when full.

An invitation is a row of ``dh_invitations``, not an event of the game: it changes nothing at
the table until it is accepted, and then the seat taken is the game's own event. It holds only
what the game's listing shows anyone (no seat's hidden information exists before the start).
A pending invitation whose table no longer has a seat for the invitee reads as ``closed``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from services.accounts.account_feed import AccountFeed, Entry
from services.accounts.inbox import Inbox
from services.accounts.player import Player
from services.accounts.players import Accounts
from services.common import clock
from services.common.errors import InvalidRequest, PlayerNotFound, ServiceError
from services.common.ports import GameRows
from services.common.sqlstore import SqlStore
from services.play.aggregate import Game

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_invitations (
        invitation_id TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        inviter_id TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT,
        details TEXT NOT NULL,
        created_at TEXT NOT NULL,
        answered_at TEXT,
        UNIQUE (game_id, player_id)
    )""",
    "CREATE INDEX IF NOT EXISTS dh_invitations_player ON dh_invitations (player_id, created_at)",
    "CREATE INDEX IF NOT EXISTS dh_invitations_inviter ON dh_invitations (inviter_id, created_at)",
]
DECLINE_REASONS: dict[str, str] = {
    "generic": "I am not accepting invitations at the moment.",
    "later": "This is not the right time for me; please ask again later.",
    "too_fast": "This clock is too fast for me; please invite me to a slower game.",
    "too_slow": "This clock is too slow for me; please invite me to a faster game.",
    "time_control": "I am not accepting invitations with this clock.",
    "rated": "Please invite me to a rated game instead.",
    "casual": "Please invite me to a casual game instead.",
    "standard": "Please invite me to the game's usual variant instead.",
    "variant": "This variant is not for me right now.",
    "no_bot": "I am not accepting invitations from bots.",
    "only_bot": "I am only accepting invitations from bots.",
}
"""Why an invitee declines, as the API names it and as a person reads it (Lichess's reasons)."""
STATUSES = ("pending", "accepted", "declined", "closed")
LISTED = 50
"""Invitations listed per direction: the pending ones, then the latest answered."""


class InvitationNotFound(ServiceError):
    """No invitation with this id was sent to (or by) the caller: one answer for both cases."""

    code = "invitation_not_found"


class InvitationClosed(ServiceError):
    """The invitation was answered already, or its table has no seat for the invitee any more."""

    code = "invitation_closed"


def invitation_id_of(game_id: str, player_id: str) -> str:
    """The id of the invitation to ``game_id`` sent to ``player_id``: one per invitee and table."""
    return str(uuid.uuid5(uuid.UUID(game_id), f"invitation:{player_id}"))


class Invitations:
    """Records invitations, tells invitees and inviters, and lists them for each side."""

    def __init__(self, db: SqlStore, accounts: Accounts, inbox: Inbox, feed: AccountFeed, views: GameRows) -> None:
        self.db = db
        self.accounts = accounts
        self.inbox = inbox
        self.feed = feed
        self.views = views
        """The game read models: whether an invitation's table is still open, for its listing."""
        self.db.script(TABLES)

    def resolve(self, creator: str, invited: list[str]) -> list[str]:
        """The account ids of ``invited``, each a name (as a person reads it: case and letters
        that look alike ignored) or an id; ``InvalidRequest`` naming one that is nobody, or the
        creator."""
        found: list[str] = []
        for entry in invited:
            player_id = self._account_id(entry)
            if player_id is None:
                raise InvalidRequest(f"nobody is called {entry!r}: check the name", field="invite")
            if player_id == creator:
                raise InvalidRequest("you cannot invite yourself: you take a seat at your own table", field="invite")
            if player_id not in found:
                found.append(player_id)
        return found

    def _account_id(self, entry: str) -> str | None:
        try:
            return self.accounts.get(entry).id
        except PlayerNotFound:
            return self.accounts.names.find(entry)

    def send(self, game: Game, invited: list[str] | None = None) -> None:
        """Invites each of ``invited`` (account ids; else those ``game``'s settings name,
        ``invite``) to ``game``, once each."""
        invited = game.settings.get("invite", []) if invited is None else invited
        if not invited:
            return
        inviter = self._who(game.creator)
        details = {
            "game": game.game,
            "variant": game.variant,
            "options": dict(game.options),
            "seats": game.planned_seats,
            "time_control": dict(game.time_control),
            "rated": bool(game.settings.get("rated", True)),
            "starts_at": game.starts_at,
            "inviter": inviter,
        }
        for player_id in invited:
            self._send_one(str(game.id), player_id, game.creator, details)

    def _send_one(self, game_id: str, player_id: str, inviter_id: str, details: dict[str, Any]) -> None:
        invitation_id = invitation_id_of(game_id, player_id)
        self.db.execute(
            "INSERT INTO dh_invitations (invitation_id, game_id, player_id, inviter_id, status, details, created_at) "
            "VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT DO NOTHING",
            (invitation_id, game_id, player_id, inviter_id, json.dumps(details), clock.now().isoformat()),
        )
        line = {"type": "invitation", "invitation_id": invitation_id, "game_id": game_id, **details,
                "creator": inviter_id}  # fmt: skip
        self.inbox.add(player_id, "invitation", f"invitation:{game_id}:{player_id}", game_id, line)

    # ------------------------------------------------------------ answers

    def pending_for(self, invitation_id: str, player: Player) -> dict[str, Any]:
        """The caller's pending invitation ``invitation_id``: ``InvitationNotFound`` if it is not
        the caller's, ``InvitationClosed`` if it was answered."""
        row = self._row(invitation_id)
        if row is None or row["player_id"] != player.id:
            raise InvitationNotFound(f"you have no invitation {invitation_id}")
        if row["status"] != "pending":
            raise InvitationClosed(f"this invitation was {row['status']} already")
        return row

    def accepted(self, invitation_id: str) -> dict[str, Any]:
        """Marks the invitation accepted (its invitee is seated) and tells the inviter."""
        return self._answer(invitation_id, "accepted", None)

    def closed(self, invitation_id: str) -> None:
        """Marks an invitation whose table has no seat for its invitee any more."""
        self.db.execute(
            "UPDATE dh_invitations SET status = 'closed', answered_at = ? "
            "WHERE invitation_id = ? AND status = 'pending'",
            (clock.now().isoformat(), invitation_id),
        )

    def decline(self, invitation_id: str, player: Player, reason: str) -> dict[str, Any]:
        """The invitee declines, saying why (one of ``DECLINE_REASONS``); the inviter is told."""
        if reason not in DECLINE_REASONS:
            raise InvalidRequest(f"unknown reason {reason!r}; one of: {', '.join(DECLINE_REASONS)}", field="reason")
        self.pending_for(invitation_id, player)
        return self._answer(invitation_id, "declined", reason)

    def _answer(self, invitation_id: str, status: str, reason: str | None) -> dict[str, Any]:
        moved = self.db.execute(
            "UPDATE dh_invitations SET status = ?, reason = ?, answered_at = ? "
            "WHERE invitation_id = ? AND status = 'pending'",
            (status, reason, clock.now().isoformat(), invitation_id),
        )
        row = self._row(invitation_id)
        assert row is not None
        if not moved:
            raise InvitationClosed(f"this invitation was {row['status']} already")
        invitation = self._json(row)
        facts = {k: invitation[k] for k in ("invitation_id", "invitee", "status", "reason", "reason_text", "game")}
        self.feed.append(
            [
                Entry(
                    row["inviter_id"],
                    f"invitation_{status}",
                    f"invitation-{status}:{invitation_id}",
                    row["game_id"],
                    facts,
                )
            ]
        )
        return invitation

    # ------------------------------------------------------------ reads

    def get(self, invitation_id: str, player_id: str) -> dict[str, Any]:
        """An invitation its invitee or its inviter reads; ``InvitationNotFound`` for anyone else."""
        row = self._row(invitation_id)
        if row is None or player_id not in (row["player_id"], row["inviter_id"]):
            raise InvitationNotFound(f"you have no invitation {invitation_id}")
        return self._json(row)

    def received(self, player_id: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """Invitations to ``player_id``: pending ones first (oldest first), then the latest answered."""
        return self._listing("player_id", player_id, limit)

    def sent(self, player_id: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """Invitations ``player_id`` sent, in the same order."""
        return self._listing("inviter_id", player_id, limit)

    def waiting(self, game_id: str) -> frozenset[str]:
        """The players invited to ``game_id`` who have not answered yet: their seats are kept."""
        rows = self.db.query(
            "SELECT player_id FROM dh_invitations WHERE game_id = ? AND status = 'pending'", (game_id,)
        )
        return frozenset(r["player_id"] for r in rows)

    def at_table(self, game_id: str) -> list[dict[str, Any]]:
        """The invitations to ``game_id`` in the order they were sent, for its table's page: each
        invitee as ``who``, its ``inviter``, the stored ``status`` and the decline's ``reason_text``."""
        rows = self.db.query(
            "SELECT invitation_id, player_id, inviter_id, status, reason FROM dh_invitations WHERE game_id = ? "
            "ORDER BY created_at, invitation_id",
            (game_id,),
        )
        return [
            {"invitation_id": r["invitation_id"], "who": self._who(r["player_id"]),
             "inviter": self._who(r["inviter_id"]), "status": r["status"],
             "reason_text": DECLINE_REASONS.get(r["reason"] or "")}
            for r in rows
        ]  # fmt: skip

    def kept(self, game_ids: list[str]) -> dict[str, int]:
        """How many seats of each of ``game_ids`` wait for an invitee's answer (a lobby page's tables)."""
        if not game_ids:
            return {}
        rows = self.db.query(
            f"SELECT game_id, COUNT(*) AS n FROM dh_invitations WHERE status = 'pending' "
            f"AND game_id IN ({', '.join('?' * len(game_ids))}) GROUP BY game_id",
            game_ids,
        )
        return {r["game_id"]: int(r["n"]) for r in rows}

    def pending(self, player_id: str) -> list[dict[str, Any]]:
        """The invitations ``player_id`` may still accept: what an account stream sends when it connects."""
        return [i for i in self.received(player_id) if i["status"] == "pending"]

    def _listing(self, column: str, player_id: str, limit: int) -> list[dict[str, Any]]:
        rows = self.db.query(
            f"SELECT * FROM dh_invitations WHERE {column} = ? "
            "ORDER BY CASE WHEN status = 'pending' THEN 0 ELSE 1 END, "
            "CASE WHEN status = 'pending' THEN created_at END, answered_at DESC, invitation_id LIMIT ?",
            (player_id, limit),
        )
        return [self._json(r) for r in rows]

    def _row(self, invitation_id: str) -> dict[str, Any] | None:
        return self.db.one("SELECT * FROM dh_invitations WHERE invitation_id = ?", (invitation_id,))

    def _json(self, row: dict[str, Any]) -> dict[str, Any]:
        status = row["status"]
        if status == "pending" and not self._table_open(row["game_id"]):
            status = "closed"
        return {
            "invitation_id": row["invitation_id"],
            "game_id": row["game_id"],
            **json.loads(row["details"]),
            "invitee": self._who(row["player_id"]),
            "status": status,
            "reason": row["reason"],
            "reason_text": DECLINE_REASONS.get(row["reason"] or ""),
            "created_at": row["created_at"],
            "answered_at": row["answered_at"],
        }

    def _table_open(self, game_id: str) -> bool:
        """Whether the table still has a seat to take, as the read models show it (a table not
        listed yet was just opened)."""
        summary = self.views.game_summary(game_id)
        if summary is None:
            return True
        return summary["status"] in ("open", "scheduled") and len(summary["seats"]) < summary["planned_seats"]

    def name_of(self, player_id: str) -> str:
        """The name an invitee is called by, in a refusal."""
        return str(self._who(player_id)["name"])

    def _who(self, player_id: str) -> dict[str, Any]:
        try:
            p = self.accounts.get(player_id)
        except PlayerNotFound:
            return {"id": player_id, "name": player_id, "kind": "human"}
        return {"id": p.id, "name": p.name, "kind": p.kind}
