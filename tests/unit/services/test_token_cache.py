"""Tokens' answers kept by each process (``services.accounts.token_cache``): a kept answer spares
the store's read, and yet a token revoked, or a webhook set, through any process is seen by every
other at its next request, over SQLite's shared generation (two maps of one file, and a process of
its own)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from infra.shared_generation import SharedGeneration
from services.accounts import players as accounts_module
from services.accounts.players import SESSIONS_KEPT, Accounts
from services.accounts.token_cache import TokenCache
from services.common.errors import NotAuthenticated
from services.common.sqlstore import SQLiteStore

KEY = b"\x11" * 32


def _process(tmp_path: Path) -> Accounts:
    """The accounts of one server process over the shared service store and generation."""
    return Accounts(SQLiteStore(tmp_path / "service.db"), KEY, tokens=TokenCache(SharedGeneration(tmp_path / "gen")))


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Accounts, Accounts]]:
    yield _process(tmp_path), _process(tmp_path)


def _reads(accounts: Accounts) -> list[Any]:
    """Records each read of one row from ``accounts``' store."""
    reads: list[Any] = []
    read_one = accounts.db.read_one

    def counted(*args: Any) -> Any:
        reads.append(args)
        return read_one(*args)

    accounts.db.read_one = counted  # type: ignore[method-assign]
    return reads


def test_a_kept_answer_spares_the_store_and_is_the_same_answer(two: tuple[Accounts, Accounts]) -> None:
    one, _ = two
    _, token = one.register("ann", "human")
    reads = _reads(one)
    first = one.authenticate(token)
    again = one.authenticate(token)
    assert len(reads) == 1, "the second request read no token from the store"
    assert again == first and again.token_id == first.token_id and again.scopes == first.scopes


def test_a_token_revoked_through_one_process_is_refused_by_the_other_at_once(two: tuple[Accounts, Accounts]) -> None:
    one, other = two
    _, token = one.register("ann", "human")
    caller = one.authenticate(token)
    record, secret = one.create_token(caller, "bot", ["bot"])
    assert other.authenticate(secret).token_id == record["id"]  # kept by the other
    one.revoke_token(caller.id, record["id"])
    with pytest.raises(NotAuthenticated):
        other.authenticate(secret)
    assert other.authenticate(token).id == caller.id, "the account's other token still holds"


def test_sessions_revoked_by_a_sign_in_are_refused_everywhere(two: tuple[Accounts, Accounts]) -> None:
    one, other = two
    player, _ = one.register("ann", "human")
    oldest = one.open_session(player.id)
    assert other.authenticate(oldest).id == player.id
    for _ in range(SESSIONS_KEPT):
        one.open_session(player.id)  # the last one revokes the oldest
    with pytest.raises(NotAuthenticated):
        other.authenticate(oldest)


def test_a_webhook_set_through_one_process_is_seen_by_the_other(two: tuple[Accounts, Accounts]) -> None:
    one, other = two
    player, token = one.register("ann", "human")
    assert other.authenticate(token).webhook_url is None
    one.webhook_targets.check = lambda url: None  # type: ignore[method-assign]  # any URL, for the test
    one.set_webhook(player.id, "https://bots.example/hook")
    assert other.authenticate(token).webhook_url == "https://bots.example/hook"


def test_last_used_is_still_written_once_a_minute_from_a_kept_answer(
    two: tuple[Accounts, Accounts], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, _ = two
    player, token = one.register("ann", "human")
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    monkeypatch.setattr(accounts_module, "_utcnow", lambda: now[0])
    one.authenticate(token)
    first = one.tokens(player.id)[0]["last_used_at"]
    now[0] += timedelta(seconds=30)
    one.authenticate(token)
    assert one.tokens(player.id)[0]["last_used_at"] == first
    now[0] += timedelta(minutes=2)
    one.authenticate(token)
    assert one.tokens(player.id)[0]["last_used_at"] > first


def _revoke_in_a_process_of_its_own(directory: str, player_id: str, token_id: str) -> None:
    _process(Path(directory)).revoke_token(player_id, token_id)


def test_a_revocation_in_another_process_is_seen_at_the_next_request(tmp_path: Path) -> None:
    here = _process(tmp_path)
    _, token = here.register("ann", "human")
    caller = here.authenticate(token)
    record, secret = here.create_token(caller, "bot", ["bot"])
    assert here.authenticate(secret).token_id == record["id"]
    child = multiprocessing.get_context("spawn").Process(
        target=_revoke_in_a_process_of_its_own, args=(str(tmp_path), caller.id, record["id"])
    )
    child.start()
    child.join(60)
    assert child.exitcode == 0
    with pytest.raises(NotAuthenticated):
        here.authenticate(secret)


def test_the_shared_generation_moves_for_every_map_of_its_file(tmp_path: Path) -> None:
    a, b = SharedGeneration(tmp_path / "gen"), SharedGeneration(tmp_path / "gen")
    before = b.read()
    a.move()
    assert b.read() != before and b.read() == a.read()
