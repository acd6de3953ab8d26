"""Webhook subscriptions by event type: each feed entry a subscription wants gets one delivery."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from services.common.errors import InvalidRequest
from services.common.ports import NullWork
from tests.conftest import make_settings
from wiring import bootstrap

URL = "http://127.0.0.1:9/hook"


def _hooked(platform: Any, name: str, events: list[str]) -> str:
    pid = str(platform.accounts.register(name, "human")[0].id)
    platform.accounts.set_webhook(pid, URL)
    platform.webhooks.subscribe(pid, events)
    return pid


def _invite(platform: Any, pid: str, key: str) -> None:
    platform.inbox.add(pid, "invitation", key, "g", {"type": "invitation"})


def test_a_type_the_feed_does_not_have_is_refused(platform: Any) -> None:
    pid = _hooked(platform, "ann", ["reminder"])
    with pytest.raises(InvalidRequest, match="teatime"):
        platform.webhooks.subscribe(pid, ["your_turn", "teatime"])
    assert platform.webhooks.events_of(pid) == ["reminder"]


def test_types_are_kept_in_the_feeds_order_once(platform: Any) -> None:
    pid = _hooked(platform, "ann", ["reminder", "your_turn", "reminder"])
    assert platform.webhooks.events_of(pid) == ["your_turn", "reminder"]


def test_a_changed_subscription_keeps_the_entries_not_yet_looked_at(platform: Any) -> None:
    pid = _hooked(platform, "ann", ["reminder"])
    _invite(platform, pid, "i1")
    platform.webhooks.subscribe(pid, ["invitation"])
    assert len(platform.webhooks.due()) == 1


def test_entries_of_a_webhook_whose_url_was_cleared_are_passed_over(platform: Any) -> None:
    pid = _hooked(platform, "ann", ["invitation"])
    platform.accounts.set_webhook(pid, None)
    _invite(platform, pid, "i1")
    assert platform.webhooks.due() == []
    platform.accounts.set_webhook(pid, URL)
    assert platform.webhooks.due() == []  # looked at once already: not sent late
    _invite(platform, pid, "i2")
    assert len(platform.webhooks.due([pid])) == 1


def test_two_processes_looking_at_once_claim_each_entry_once(tmp_path: Path) -> None:
    claim_at_once_in_two_processes(make_settings("sqlite", tmp_path))


def claim_at_once_in_two_processes(settings: Any) -> None:
    """Two platforms on one store call ``due`` together, again and again: 40 entries, 40 claims."""
    platforms = [bootstrap(settings, work=NullWork()) for _ in range(2)]
    try:
        pid = _hooked(platforms[0], "ann", ["invitation"])
        for i in range(40):
            _invite(platforms[0], pid, f"i{i}")
        claimed: list[list[str]] = [[], []]
        start = threading.Barrier(2)

        def look(n: int) -> None:
            start.wait()
            for _ in range(5):
                claimed[n] += platforms[n].webhooks.due()

        threads = [threading.Thread(target=look, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(claimed[0] + claimed[1]) == len(set(claimed[0] + claimed[1])) == 40
    finally:
        for p in platforms:
            p.close()


def test_a_webhook_set_before_subscriptions_existed_keeps_its_reminders(tmp_path: Path) -> None:
    first = bootstrap(make_settings("sqlite", tmp_path), work=NullWork())
    pid = str(first.accounts.register("ann", "human")[0].id)
    _invite(first, pid, "old")
    first.db.execute("DELETE FROM dh_webhook_subscriptions")
    first.db.execute("UPDATE dh_players SET webhook_url = ? WHERE player_id = ?", (URL, pid))  # as before
    first.close()
    again = bootstrap(make_settings("sqlite", tmp_path), work=NullWork())
    try:
        assert again.webhooks.events_of(pid) == ["reminder"]
        again.inbox.add(pid, "reminder", "r1", "g", {"type": "reminder"})
        _invite(again, pid, "new")
        (delivery,) = again.webhooks.due()
        assert again.inbox.delivery(delivery)["payload"]["type"] == "reminder"
    finally:
        again.close()


def test_where_a_worker_runs_an_entry_is_claimed_as_it_is_appended() -> None:
    """No sweep runs here (no embedded worker): the feed's listener claimed the delivery."""
    platform = bootstrap(make_settings("memory"), worker=False)
    try:
        pid = _hooked(platform, "ann", ["invitation"])
        _invite(platform, pid, "i1")
        (row,) = platform.db.query("SELECT * FROM dh_webhook_deliveries")
        assert row["item_id"] == "inbox:i1" and row["status"] == "pending"
        assert platform.webhooks.due() == []
    finally:
        platform.close()
