"""Each webhook delivery looks its host up again and connects only to an address it checked.

A URL that passed ``PUT /me/webhook`` may name a host whose address changes later (DNS
rebinding), and URLs stored before the check existed were never checked at all. The
receiver here listens on 127.0.0.1, where the platform does not allow webhooks to go.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings


@pytest.fixture
def strict() -> Iterator[Any]:
    """A platform that allows webhooks to public addresses only (the default)."""
    from services.common.ports import NullWork
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory", webhook_allow_networks=()), work=NullWork())
    yield platform
    platform.close()


def _delivery(platform: Any, url: str) -> str:
    pid = platform.accounts.register("w", "human")[0].id
    return str(platform.inbox.claim_delivery(platform.inbox.add(pid, "reminder", url, "g", {"x": 1}), url))


def _deliver(platform: Any, delivery_id: str) -> str:
    from workers import jobs

    try:
        return str(jobs.webhook(platform, lambda actions: None, delivery_id))
    except jobs.RetryLater:
        return "retry"


def _resolving(monkeypatch: pytest.MonkeyPatch, name: str, *answers: str) -> list[str]:
    """Makes ``name`` resolve to each of ``answers`` in turn (the last one ever after), as a
    name server with a zero TTL would; returns the log of look-ups of it."""
    real = socket.getaddrinfo
    looked_up: list[str] = []

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != name:
            return real(host, port, *args, **kwargs)
        address = answers[min(len(looked_up), len(answers) - 1)]
        looked_up.append(address)
        return real(address, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return looked_up


def test_a_stored_url_of_a_loopback_address_is_not_posted_to(strict: Any, webhook_server: Any) -> None:
    """A URL set before the check existed: the delivery refuses it without connecting."""
    delivery = _delivery(strict, webhook_server.url)
    assert _deliver(strict, delivery) == "failed"
    row = strict.inbox.delivery(delivery)
    assert row["status"] == "failed" and "loopback" in row["last_error"]
    assert webhook_server.received == []


def test_a_public_name_that_now_resolves_to_loopback_is_not_posted_to(
    strict: Any, webhook_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = webhook_server.url.split(":")[2].split("/")[0]
    url = f"http://hooks.example.com:{port}/hook"
    player = strict.accounts.register("ann", "human")[0]
    strict.accounts.set_webhook(player.id, url)  # a name: accepted when set
    _resolving(monkeypatch, "hooks.example.com", "127.0.0.1")
    assert _deliver(strict, _delivery(strict, url)) == "failed"
    assert webhook_server.received == []


def test_the_post_goes_to_the_address_that_was_checked_not_to_a_second_answer(
    webhook_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name first resolves to an allowed address where nothing listens, then to the
    receiver's, which is not allowed: a client that looked the name up again to connect would
    reach the receiver. The delivery connects to the first, is refused, and tries again later."""
    from services.accounts.webhook_targets import parse_networks
    from services.common.ports import NullWork
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory", webhook_allow_networks=parse_networks("127.0.0.2")), work=NullWork())
    try:
        port = webhook_server.url.split(":")[2].split("/")[0]
        looked_up = _resolving(monkeypatch, "rebind.example.com", "127.0.0.2", "127.0.0.1")
        delivery = _delivery(platform, f"http://rebind.example.com:{port}/hook")
        assert _deliver(platform, delivery) == "retry"  # 127.0.0.2 refused the connection
        assert looked_up == ["127.0.0.2"]
        assert _deliver(platform, delivery) == "failed"  # the next try finds 127.0.0.1: not allowed
        assert webhook_server.received == []
    finally:
        platform.close()


def test_a_receiver_on_an_allowed_network_gets_its_post(platform: Any, webhook_server: Any) -> None:
    """The test platforms allow 127.0.0.1, as an operator would with DRAGONHALL_WEBHOOK_ALLOW_NETWORKS."""
    assert _deliver(platform, _delivery(platform, webhook_server.url + "?a=1")) == "sent"
    assert webhook_server.received == [{"x": 1}]
