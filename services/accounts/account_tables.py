"""The tables of player accounts and their tokens (``services.accounts.players``)."""

from __future__ import annotations

from infra import save_guard
from services.accounts import webhook_keys

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_players (
        player_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        webhook_url TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS dh_tokens (
        token_id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES dh_players (player_id),
        name TEXT NOT NULL,
        scopes TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS dh_tokens_player ON dh_tokens (player_id)",
    """CREATE TABLE IF NOT EXISTS dh_bot_owners (
        bot_id TEXT PRIMARY KEY REFERENCES dh_players (player_id),
        owner_id TEXT NOT NULL REFERENCES dh_players (player_id)
    )""",
    *webhook_keys.TABLES,
]

POSTGRES_FUNCTIONS = [
    f"""CREATE OR REPLACE FUNCTION {save_guard.FUNCTION}(live_token_hash TEXT) RETURNS void
    LANGUAGE plpgsql STABLE SET search_path FROM CURRENT AS $BODY$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM dh_tokens WHERE token_hash = live_token_hash AND revoked_at IS NULL) THEN
            RAISE EXCEPTION 'the bearer token is not valid' USING ERRCODE = '{save_guard.REFUSED}';
        END IF;
    END $BODY$"""
]
"""The guard a move's save calls (``infra.save_guard``): it refuses a token that is no longer live.
``SET search_path FROM CURRENT``: the save's connection need not have the deployment's schema on
its path."""

MIGRATE_REGISTRATION_TOKENS = """
    INSERT INTO dh_tokens (token_id, player_id, name, scopes, token_hash, created_at)
    SELECT 'registration-' || p.player_id, p.player_id, 'registration', ?, p.token_hash, p.created_at
    FROM dh_players p
    WHERE NOT EXISTS (SELECT 1 FROM dh_tokens t WHERE t.token_hash = p.token_hash)
    ON CONFLICT DO NOTHING"""
"""Copies into ``dh_tokens`` the registration token of every player made before it existed."""
