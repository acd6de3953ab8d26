"""Webhook signing secrets: derived from the master key, one per registration, never stored."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from services.accounts import webhook_keys
from services.accounts.players import Accounts

KEY = bytes(range(32))


def test_the_same_key_player_and_nonce_give_the_same_secret() -> None:
    assert webhook_keys.derive(KEY, "p1", "n1") == webhook_keys.derive(KEY, "p1", "n1")
    assert len(webhook_keys.derive(KEY, "p1", "n1")) == 64


def test_another_player_nonce_or_master_key_gives_another_secret() -> None:
    derived = {
        webhook_keys.derive(KEY, "p1", "n1"),
        webhook_keys.derive(KEY, "p2", "n1"),
        webhook_keys.derive(KEY, "p1", "n2"),
        webhook_keys.derive(b"other" * 8, "p1", "n1"),
        webhook_keys.derive(KEY, "p1n", "1"),
        webhook_keys.derive(KEY, "p", "1n1"),
    }
    assert len(derived) == 6


def test_a_domain_prefix_sets_the_secret_apart_from_other_hmacs_of_the_key() -> None:
    """Game seeds are HMACs of the same master key: the domain prefix keeps them apart."""
    plain = hmac.new(KEY, b"p1\x00n1", hashlib.sha256).hexdigest()
    assert webhook_keys.derive(KEY, "p1", "n1") != plain


def test_the_signature_binds_the_timestamp_and_the_body() -> None:
    sig = webhook_keys.signature("s3cret", 1_700_000_000, b'{"a": 1}')
    expected = hmac.new(b"s3cret", b'1700000000.{"a": 1}', hashlib.sha256).hexdigest()
    assert sig == "sha256=" + expected
    assert webhook_keys.signature("s3cret", 1_700_000_001, b'{"a": 1}') != sig
    assert webhook_keys.signature("s3cret", 1_700_000_000, b'{"a": 2}') != sig


def test_a_database_dump_holds_no_secret(platform: Any) -> None:
    """Only the nonce is stored: the secret also needs the master key, which is not in the database."""
    pid = platform.accounts.register("w", "human")[0].id
    _, secret = platform.accounts.set_webhook(pid, "http://127.0.0.1:9/hook")
    rows = platform.db.query("SELECT * FROM dh_players") + platform.db.query("SELECT * FROM dh_webhook_keys")
    assert secret and not any(secret in str(v) for row in rows for v in row.values())
    assert platform.accounts.webhook_secret(pid) == secret
    assert Accounts(platform.db, b"another master key").webhook_secret(pid) != secret


def test_clearing_the_webhook_forgets_its_secret(platform: Any) -> None:
    pid = platform.accounts.register("w", "human")[0].id
    platform.accounts.set_webhook(pid, "http://127.0.0.1:9/hook")
    player, secret = platform.accounts.set_webhook(pid, None)
    assert player.webhook_url is None and secret is None
    assert platform.accounts.webhook_secret(pid) is None
    assert platform.db.query("SELECT * FROM dh_webhook_keys WHERE player_id = ?", (pid,)) == []
