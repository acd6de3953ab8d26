"""Accounts' tokens, below the API: the caller a token stands for, revocation seen by every
instance over one store, ``last_used_at`` written at most once a minute, and the registration
tokens of accounts made before ``dh_tokens`` existed brought into it, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from services.accounts import players as accounts_module
from services.accounts.players import Accounts
from services.common.errors import InsufficientScope, NotAuthenticated, TokenNotFound
from services.common.sqlstore import PostgresStore, SQLiteStore, SqlStore

KEY = b"\x11" * 32


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStore]:
    if request.param == "sqlite":
        yield SQLiteStore(tmp_path / "service.db")
        return
    pg_url = request.getfixturevalue("pg_url")
    schema = request.getfixturevalue("pg_schema")
    db = PostgresStore(pg_url, schema=schema, max_size=2)
    yield db
    db.close()


def test_authenticate_gives_the_caller_with_its_tokens_id_and_scopes(store: SqlStore) -> None:
    accounts = Accounts(store, KEY)
    player, token = accounts.register("ann", "human")
    caller = accounts.authenticate(token)
    assert caller.id == player.id and caller.token_id is not None
    assert caller.scopes == ("read", "play", "bot", "account")
    record, secret = accounts.create_token(caller, "bot", ["bot"])
    bot = accounts.authenticate(secret)
    assert bot.id == player.id and bot.token_id == record["id"] != caller.token_id
    assert bot.scopes == ("bot",)
    assert bot.may("read") and bot.may("play") and not bot.may("account")
    with pytest.raises(InsufficientScope) as refused:
        accounts.create_token(bot, "wider", ["account"])
    assert refused.value.details == {"scope": "account"}


def test_a_revoked_token_is_refused_by_another_instance_over_the_same_store(store: SqlStore) -> None:
    one, other = Accounts(store, KEY), Accounts(store, KEY)
    _, token = one.register("ann", "human")
    caller = one.authenticate(token)
    record, secret = one.create_token(caller, "bot", ["bot"])
    assert other.authenticate(secret).token_id == record["id"]
    assert other.still_valid(record["id"])
    one.revoke_token(caller.id, record["id"])
    assert not other.still_valid(record["id"])
    with pytest.raises(NotAuthenticated):
        other.authenticate(secret)
    assert other.authenticate(token).id == caller.id
    assert not other.still_valid("no-such-token")
    with pytest.raises(TokenNotFound):
        other.revoke_token(caller.id, record["id"])


def test_last_used_is_written_at_first_use_and_then_at_most_once_a_minute(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = Accounts(store, KEY)
    player, token = accounts.register("ann", "human")
    start = datetime(2030, 1, 1, tzinfo=UTC)
    monkeypatch.setattr(accounts_module, "_utcnow", lambda: start)

    def last_used() -> Any:
        return accounts.tokens(player.id)[0]["last_used_at"]

    assert last_used() is None
    accounts.authenticate(token)
    assert last_used() == start.isoformat(timespec="microseconds")
    later = start + timedelta(seconds=59)
    monkeypatch.setattr(accounts_module, "_utcnow", lambda: later)
    accounts.authenticate(token)
    assert last_used() == start.isoformat(timespec="microseconds")
    later = start + timedelta(seconds=61)
    accounts.authenticate(token)
    assert last_used() == later.isoformat(timespec="microseconds")


def test_accounts_made_before_tokens_existed_keep_their_token_with_every_scope(store: SqlStore) -> None:
    Accounts(store, KEY)  # the tables
    store.execute(
        "INSERT INTO dh_players (player_id, name, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
        ("old", "old", "human", hashlib.sha256(b"old-token").hexdigest(), "2020-01-01T00:00:00+00:00"),
    )
    store.execute("DELETE FROM dh_tokens")  # as the store stood before dh_tokens
    accounts = Accounts(store, KEY)
    caller = accounts.authenticate("old-token")
    assert caller.id == "old" and caller.scopes == ("read", "play", "bot", "account")
    Accounts(store, KEY)  # a second start copies nothing twice
    assert [t["name"] for t in accounts.tokens("old")] == ["registration"]
    accounts.revoke_token("old", str(caller.token_id))
    Accounts(store, KEY)  # nor brings back a revoked one
    with pytest.raises(NotAuthenticated):
        accounts.authenticate("old-token")
