"""Webhook signing secrets: one per registered URL, derived from the server's key rather than stored.

A receiver checks that a POST comes from Dragonhall with a secret shared with
it alone. Storing that secret would hand it to anyone who reads the database,
so only a random nonce per registration is stored (``dh_webhook_keys``, a table
of its own, so databases made before it need no ALTER TABLE); the secret is the
HMAC-SHA256 of the server's master key over the player id and that nonce. A new
registration draws a new nonce, which rotates the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_webhook_keys (
        player_id TEXT PRIMARY KEY,
        nonce TEXT NOT NULL
    )""",
]

_DOMAIN = b"dragonhall-webhook-secret\x00"
"""Keeps these HMACs apart from the other uses of the master key (game seeds, disputes)."""


def new_nonce() -> str:
    return secrets.token_hex(16)


def derive(master_key: bytes, player_id: str, nonce: str) -> str:
    """The signing secret of one registration, as 64 hex digits.

    Player ids are server-made UUIDs and nonces are hex, so neither holds the NUL
    that separates them: no other pair gives the same message."""
    message = _DOMAIN + player_id.encode() + b"\x00" + nonce.encode()
    return hmac.new(master_key, message, hashlib.sha256).hexdigest()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Dragonhall-Signature`` value: the timestamp is signed with the body, so an
    old body cannot be replayed under a fresh timestamp."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()
