"""Player accounts and their bearer tokens.

Accounts are not game history, so they live in plain tables rather than an
event stream, and are consistent at once (a new player can create a game in
the next request). An account holds several tokens (``dh_tokens``), each with its
scopes (``services.accounts.scopes``); the first is made at registration and holds every
scope. A token is shown once, when made; only its SHA-256 is stored. Tokens
carry 256 bits of randomness, so a fast hash is enough. A webhook's signing
secret is shown once too, when its URL is set; it is derived again when needed
(``services.accounts.webhook_keys``), never stored.

A token is looked up in the table by its unique hash, or found among the answers this
process keeps while no account changed (``services.accounts.token_cache``): a token revoked
by one process is refused by every process at its next request, and a long-lived stream asks
``still_valid`` from time to time. ``last_used_at`` is written at most once a minute per token.

``dh_players.token_hash`` holds the registration token's hash, as it did before
accounts had several tokens: at start-up any player whose hash ``dh_tokens`` lacks
gets it copied there as a token with every scope. Tokens are revoked, never
deleted, so a revoked registration token is not copied back.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from infra import save_guard
from services.accounts import scopes as sc
from services.accounts import webhook_keys
from services.accounts.account_tables import MIGRATE_REGISTRATION_TOKENS, POSTGRES_FUNCTIONS, TABLES
from services.accounts.name_book import NameBook
from services.accounts.player import Player
from services.accounts.token_cache import Kept, TokenCache
from services.accounts.webhook_targets import WebhookTargets
from services.common.errors import InsufficientScope, InvalidRequest, NotAuthenticated, PlayerNotFound, TokenNotFound
from services.common.sqlstore import SqlStore, Tx

REGISTRATION_TOKEN = "registration"
"""The name of the token an account receives at registration."""
SESSION_TOKEN = "web session"
"""The name of the tokens a person's sign-ins make (``open_session``): signing out revokes them."""
SESSIONS_KEPT = 20
"""Live session tokens one account keeps: a sign-in past them revokes the oldest (a browser whose
cookie was lost never signs out)."""
LAST_USED_GRAIN = timedelta(minutes=1)
"""``last_used_at`` is written when it is older than this, so not on every request."""
TOKENS_PER_ACCOUNT = 100
"""Live tokens one account may hold at once; minting another is refused until one is revoked."""

SERVER_BOT_PREFIX = "server-bot:"


class Accounts:
    """Registers players, and makes, lists, authenticates and revokes their tokens."""

    def __init__(
        self,
        db: SqlStore,
        master_key: bytes,
        webhook_targets: WebhookTargets | None = None,
        tokens: TokenCache[Player] | None = None,
    ) -> None:
        """``tokens``: the answers to tokens this process keeps (``services.accounts.token_cache``);
        None reads every request's token from the store."""
        self.db = db
        self.token_cache = tokens
        self._master_key = master_key
        """The server's key, from which webhook secrets derive (the one game seeds derive from)."""
        self.webhook_targets = webhook_targets or WebhookTargets()
        """Where webhooks may go: checked when a URL is set, and again by each delivery."""
        self.db.script(TABLES)
        if self.db.dialect == "postgres":
            self.db.script(POSTGRES_FUNCTIONS)
        self.names = NameBook(db)
        """Each account's name keys: no two accounts' names look alike (``services.accounts.name_book``)."""
        self.on_revoked: list[Callable[[str], None]] = []
        """Called with the account's id after one of its tokens is revoked: ``wiring`` wakes the
        account's streams in every process, which then check their token at once."""
        if self.db.create_tables:  # the process that makes the tables brings their rows up to date
            self.db.execute(MIGRATE_REGISTRATION_TOKENS, (sc.encode(sc.SCOPES),))

    def register(
        self, name: str, kind: str, owner: str | None = None, token_name: str = REGISTRATION_TOKEN
    ) -> tuple[Player, str]:
        """A new player and its first token (``token_name``), holding every scope (returned once,
        never stored in clear); a bot registered by its ``owner`` is recorded as theirs.
        ``InvalidRequest`` for a name that cannot be one, ``NameTaken`` for a name another
        account holds or that looks like it (``services.accounts.names``)."""
        token = new_secret()
        now = _now()
        player = Player(str(uuid.uuid4()), self.names.check(name), kind, now)
        with self.db.tx() as t:
            self.names.reserve(t, player.id, player.name)
            t.execute(
                "INSERT INTO dh_players (player_id, name, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                (player.id, player.name, player.kind, _hash(token), player.created_at),
            )
            self._insert_token(t, player.id, token_name, sc.SCOPES, token, now)
            if owner is not None:
                t.execute("INSERT INTO dh_bot_owners (bot_id, owner_id) VALUES (?, ?)", (player.id, owner))
        return player, token

    def register_bot(self, owner: Player, name: str) -> tuple[Player, str]:
        """A new bot account owned by ``owner`` (its profile names the owner), and its token. Only
        the owner can claim a bot this way, so an owner shown is one who made the bot."""
        return self.register(name, "bot", owner=owner.id)

    def bots_of(self, owner_id: str) -> list[Player]:
        """The bot accounts ``owner_id`` registered (``register_bot``), by name."""
        rows = self.db.query(
            "SELECT p.* FROM dh_bot_owners o JOIN dh_players p ON p.player_id = o.bot_id WHERE o.owner_id = ? "
            "ORDER BY p.name, p.player_id",
            (owner_id,),
        )
        return [_player(r) for r in rows]

    def open_session(self, player_id: str) -> str:
        """A new session token of the account (every scope), for a person who signed in with a
        password or a recovery code; the oldest sessions past ``SESSIONS_KEPT`` are revoked."""
        secret = new_secret()
        now = _now()
        with self.db.tx() as t:
            self._insert_token(t, player_id, SESSION_TOKEN, sc.SCOPES, secret, now)
            live = t.query(
                "SELECT token_id FROM dh_tokens WHERE player_id = ? AND name = ? AND revoked_at IS NULL "
                "ORDER BY created_at DESC, token_id",
                (player_id, SESSION_TOKEN),
            )
            for old in live[SESSIONS_KEPT:]:
                t.execute("UPDATE dh_tokens SET revoked_at = ? WHERE token_id = ?", (now, old["token_id"]))
        if live[SESSIONS_KEPT:]:
            self._changed()
        return secret

    def close_session(self, token: str) -> None:
        """Revokes ``token`` if it is a session token (signing out); a token made for a bot or a
        script, used to sign a browser in, stays live."""
        row = self.db.one(
            "SELECT token_id, player_id FROM dh_tokens WHERE token_hash = ? AND name = ? AND revoked_at IS NULL",
            (_hash(token), SESSION_TOKEN),
        )
        if row is not None:
            self.revoke_token(row["player_id"], row["token_id"])

    def owner_of(self, bot_id: str) -> Player | None:
        """The account that registered bot ``bot_id`` (``register_bot``); None for any other account."""
        row = self.db.one(
            "SELECT p.* FROM dh_bot_owners o JOIN dh_players p ON p.player_id = o.owner_id WHERE o.bot_id = ?",
            (bot_id,),
        )
        return None if row is None else _player(row)

    def authenticate(self, token: str, *, save_checks: bool = False) -> Player:
        """The player holding ``token``, with the token's id and scopes; ``NotAuthenticated`` if no
        live token is ``token`` (never one, or revoked). ``save_checks``: the request is a move,
        whose save checks the token (``infra.save_guard``), so an answer this process kept may serve
        it even where it is not final (``services.accounts.token_cache``); the caller then
        ``confirm``s the token before any answer the save did not check."""
        token_hash, cache = _hash(token), self.token_cache
        generation = cache.now() if cache is not None else 0  # before the store is read
        kept = cache.get(token_hash, generation) if cache is not None else None
        if kept is not None and cache is not None:
            now = _utcnow()
            if cache.final:
                if now >= kept.touch_due:
                    kept.touch_due = _due(self._touch(kept.player.token_id or "", None, now))
                return kept.player
            if save_checks and now < kept.touch_due:  # a use to record is read below, which records it
                save_guard.GUARD.set(token_hash)
                return kept.player
        player, last_used_at = self._read_token(token_hash)
        if cache is not None:
            cache.keep(token_hash, Kept(player, _due(last_used_at), generation))
        return player

    @property
    def saves_check_tokens(self) -> bool:
        """Whether a move may be answered from a token this process kept that is not final, and
        the token then checked by the move's save or by ``confirm`` (PostgreSQL)."""
        return self.token_cache is not None and not self.token_cache.final

    def confirm(self) -> None:
        """Reads the token of a move answered from what this process kept (``authenticate``'s
        ``save_checks``) if no save has checked it: ``NotAuthenticated`` if it is no longer live.
        Nothing to do after a save, or where the answer was final."""
        token_hash = save_guard.GUARD.get()
        if token_hash is None:
            return
        save_guard.GUARD.set(None)
        live = "SELECT 1 AS live FROM dh_tokens WHERE token_hash = ? AND revoked_at IS NULL"
        if self.db.read_one(live, (token_hash,)) is not None:
            return
        if self.token_cache is not None:
            self.token_cache.forget(token_hash)
        raise NotAuthenticated("the bearer token is not valid")

    def _read_token(self, token_hash: str) -> tuple[Player, str]:
        """The live token's player, read from the store, and when its use was last recorded."""
        row = self.db.read_one(
            "SELECT t.token_id, t.scopes, t.last_used_at, p.player_id, p.name, p.kind, p.created_at, "
            "p.webhook_url FROM dh_tokens t JOIN dh_players p ON p.player_id = t.player_id "
            "WHERE t.token_hash = ? AND t.revoked_at IS NULL",
            (token_hash,),
        )
        if row is None:
            raise NotAuthenticated("the bearer token is not valid")
        last_used_at = self._touch(row["token_id"], row["last_used_at"], _utcnow())
        player = Player(
            row["player_id"],
            row["name"],
            row["kind"],
            row["created_at"],
            row["webhook_url"],
            token_id=row["token_id"],
            scopes=sc.decode(row["scopes"]),
        )
        return player, last_used_at

    def _changed(self) -> None:
        """A token was revoked or a webhook set, and committed: no process answers from what it kept."""
        if self.token_cache is not None:
            self.token_cache.changed()

    def still_valid(self, token_id: str) -> bool:
        """Whether the token is still live (not revoked): a stream opened with it asks every few
        seconds, and ends when the answer is no."""
        row = self.db.read_one("SELECT revoked_at FROM dh_tokens WHERE token_id = ?", (token_id,))
        return row is not None and row["revoked_at"] is None

    def create_token(self, caller: Player, name: str, scopes: list[str]) -> tuple[dict[str, Any], str]:
        """A new token of the caller's account, and its secret (shown once). ``InsufficientScope``
        when ``scopes`` would grant more than the caller's own token; ``InvalidRequest`` past
        ``TOKENS_PER_ACCOUNT`` live tokens."""
        wider = sc.granted(scopes) - sc.granted(caller.scopes)
        if wider:
            needed = sorted(wider)[0]
            raise InsufficientScope(
                f"a token may only make tokens within its own scopes; yours lacks {needed!r}", scope=needed
            )
        secret = new_secret()
        with self.db.tx() as t:
            live = t.query(
                "SELECT COUNT(*) AS n FROM dh_tokens WHERE player_id = ? AND revoked_at IS NULL", (caller.id,)
            )[0]["n"]
            if live >= TOKENS_PER_ACCOUNT:
                raise InvalidRequest(
                    f"an account holds at most {TOKENS_PER_ACCOUNT} tokens; revoke one first", field="name"
                )
            token_id = self._insert_token(t, caller.id, name, scopes, secret, _now())
        record = self.token(caller.id, token_id)
        return record, secret

    def tokens(self, player_id: str) -> list[dict[str, Any]]:
        """The account's live tokens, oldest first, without their secrets."""
        rows = self.db.query(
            "SELECT token_id, name, scopes, created_at, last_used_at FROM dh_tokens "
            "WHERE player_id = ? AND revoked_at IS NULL ORDER BY created_at, token_id",
            (player_id,),
        )
        return [_token(r) for r in rows]

    def token(self, player_id: str, token_id: str) -> dict[str, Any]:
        row = self.db.one(
            "SELECT token_id, name, scopes, created_at, last_used_at FROM dh_tokens "
            "WHERE player_id = ? AND token_id = ? AND revoked_at IS NULL",
            (player_id, token_id),
        )
        if row is None:
            raise TokenNotFound(f"no token {token_id} in your account")
        return _token(row)

    def revoke_token(self, player_id: str, token_id: str) -> None:
        """Revokes one of the account's live tokens, at once for every process; ``TokenNotFound``
        for an unknown id, a revoked token or another account's token (the same answer, so the
        answer tells nothing of other accounts)."""
        n = self.db.execute(
            "UPDATE dh_tokens SET revoked_at = ? WHERE token_id = ? AND player_id = ? AND revoked_at IS NULL",
            (_now(), token_id, player_id),
        )
        if n == 0:
            raise TokenNotFound(f"no token {token_id} in your account")
        self._changed()
        for tell in self.on_revoked:
            tell(player_id)

    def _insert_token(self, t: Tx, player_id: str, name: str, scopes: Iterable[str], secret: str, now: str) -> str:
        token_id = str(uuid.uuid4())
        t.execute(
            "INSERT INTO dh_tokens (token_id, player_id, name, scopes, token_hash, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (token_id, player_id, name, sc.encode(scopes), _hash(secret), now),
        )
        return token_id

    def _touch(self, token_id: str, last_used_at: str | None, now: datetime) -> str:
        """Records that the token was used ``now``, unless it was within ``LAST_USED_GRAIN`` (the
        guard in the statement keeps two processes from both writing within one grain); when it was
        last used, as recorded now."""
        cutoff = _stamp(now - LAST_USED_GRAIN)
        if last_used_at is not None and last_used_at >= cutoff:
            return last_used_at
        stamp = _stamp(now)
        self.db.execute(
            "UPDATE dh_tokens SET last_used_at = ? WHERE token_id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
            (stamp, token_id, cutoff),
        )
        return stamp

    def get(self, player_id: str) -> Player:
        row = self.db.one("SELECT * FROM dh_players WHERE player_id = ?", (player_id,))
        if row is None:
            raise PlayerNotFound(f"no player {player_id}")
        return _player(row)

    def set_webhook(self, player_id: str, url: str | None) -> tuple[Player, str | None]:
        """Sets (or, with None, clears) the player's webhook; returns the player and the new
        URL's signing secret, shown only now. Every URL set gets a new secret, so setting the
        same URL again rotates it (and gives one to a webhook set before secrets existed).
        ``InvalidRequest`` for a URL webhooks may not use (``services.accounts.webhook_targets``)."""
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
        self._changed()
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


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _now() -> str:
    return _stamp(_utcnow())


def _stamp(moment: datetime) -> str:
    """A UTC time as stored: always with microseconds, so stored times compare as strings."""
    return moment.isoformat(timespec="microseconds")


def _token(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["token_id"],
        "name": row["name"],
        "scopes": list(sc.decode(row["scopes"])),
        "created_at": row["created_at"],
        "last_used_at": row["last_used_at"],
    }


def _due(last_used_at: str) -> datetime:
    """When a use after ``last_used_at`` is next to be recorded."""
    return datetime.fromisoformat(last_used_at) + LAST_USED_GRAIN


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _player(row: dict[str, Any]) -> Player:
    return Player(row["player_id"], row["name"], row["kind"], row["created_at"], row.get("webhook_url"))


def new_secret() -> str:
    """A new token: ``dh_`` and 256 random bits. The prefix makes it recognisable (a secret scanner,
    a log) and keeps it from starting with ``-``, which a command line would read as an option
    (``dragonhall bot --token -x...``)."""
    return "dh_" + secrets.token_urlsafe(32)
