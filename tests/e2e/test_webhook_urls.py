"""A webhook URL may lead only to a public address, unless the operator allows a network.

The workers POST to whatever URL a player sets: pointed inside the deployment (Redis
on 127.0.0.1, a cloud's metadata service on 169.254.169.254) they would forge requests
for any registered player. ``PUT /me/webhook`` refuses such URLs with 400
(``services.accounts.webhook_targets``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings


def _client(**overrides: Any) -> Iterator[Any]:
    from api.app import create_app
    from services.common.ports import NullWork
    from tests.support.api_client import ApiClient
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory", **overrides), work=NullWork())
    yield ApiClient(create_app(platform).test_client(), platform)
    platform.close()


@pytest.fixture
def strict() -> Iterator[Any]:
    """A server that allows no network besides public addresses (the default)."""
    yield from _client(webhook_allow_networks=())


@pytest.fixture
def intranet() -> Iterator[Any]:
    """A server whose operator allows a receiver on 10.20.0.0/16 (DRAGONHALL_WEBHOOK_ALLOW_NETWORKS)."""
    from services.accounts.webhook_targets import parse_networks

    yield from _client(webhook_allow_networks=parse_networks("10.20.0.0/16"))


def _put(client: Any, player: dict[str, Any], url: str | None) -> Any:
    return client.call("PUT", "/api/v1/me/webhook", {"url": url}, player["token"])


def _stored(client: Any, player: dict[str, Any]) -> Any:
    return client.call("GET", "/api/v1/me", token=player["token"]).body["webhook_url"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379/",  # Redis
        "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
        "http://10.0.0.5/hook",
        "http://192.168.1.1/",
        "http://172.16.0.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0:8000/",
        "http://[::1]:8000/",
        "http://[fd00::1]/",
        "http://[fe80::1%25eth0]/",
        "http://127.1/",
        "http://2130706433/",
        "http://0x7f.0.0.1/",  # 127.0.0.1 as resolvers also read it
        "http://[::ffff:127.0.0.1]/",
        "http://[64:ff9b::a9fe:a9fe]/",  # IPv6 that leads to IPv4
        "http://[::7f00:1]/",  # IPv4-compatible IPv6 of 127.0.0.1
        "http://[::a00:5]/",  # IPv4-compatible 10.0.0.5
        "http://[::127.0.0.1]/",
        "http://[2002:7f00:1::1]/",  # 6to4 of 127.0.0.1
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",  # Teredo, its client 127.0.0.1
        "http://[64:ff9b::7f00:1]/",  # NAT64 of 127.0.0.1
        "http://[64:ff9b:1::a00:5]/",  # local-use NAT64 (RFC 8215)
        "http://localhost:8000/",
        "http://api.localhost/",  # loopback by definition (RFC 6761)
    ],
)
def test_a_webhook_that_leads_inside_the_network_is_refused_and_not_stored(strict: Any, url: str) -> None:
    ann = strict.player("ann")
    r = _put(strict, ann, url)
    assert r.status == 400, r.body
    assert r.body["error"]["code"] == "invalid_request" and "url" in r.body["error"]["fields"]
    assert _stored(strict, ann) is None


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/hook",
        "file:///etc/passwd",
        "gopher://example.com/",
        "http://user:secret@example.com/hook",
        "https://token@example.com/hook",
    ],
)
def test_a_webhook_of_another_scheme_or_with_credentials_is_refused(strict: Any, url: str) -> None:
    ann = strict.player("ann")
    r = _put(strict, ann, url)
    assert r.status == 400, r.body
    assert "url" in r.body["error"]["fields"]
    assert _stored(strict, ann) is None


def test_the_service_refuses_what_the_schema_would_let_through(strict: Any) -> None:
    """The check is the service's: another caller of ``set_webhook`` meets it too."""
    from services.common.errors import InvalidRequest

    ann = strict.player("ann")
    for url in ("ftp://example.com/", "http://u:p@example.com/", "http://127.0.0.1/"):
        with pytest.raises(InvalidRequest):
            strict.platform.accounts.set_webhook(ann["id"], url)
    assert _stored(strict, ann) is None


def test_a_public_webhook_is_accepted_without_looking_its_name_up(strict: Any, monkeypatch: Any) -> None:
    import socket

    def no_lookups(host: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("flags", 0) & socket.AI_NUMERICHOST:
            return real(host, *args, **kwargs)
        raise AssertionError(f"looked {host} up while answering the request")

    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", no_lookups)
    ann = strict.player("ann")
    for url in (
        "https://hooks.example.com/dragonhall?player=ann",
        "http://93.184.215.14:8080/hook",
        "http://[64:ff9b::5db8:d70e]/hook",  # NAT64 of that public address
        "http://[2606:4700::6810:84e5]/hook",
    ):
        r = _put(strict, ann, url)
        assert r.status == 200, r.body
        assert _stored(strict, ann) == url


def test_an_operator_may_allow_a_network_and_only_that_one(intranet: Any) -> None:
    ann = intranet.player("ann")
    assert _put(intranet, ann, "http://10.20.3.4:8080/hook").status == 200
    for refused in ("http://10.21.0.1/hook", "http://169.254.169.254/", "http://127.0.0.1:6379/"):
        assert _put(intranet, ann, refused).status == 400
    assert _stored(intranet, ann) == "http://10.20.3.4:8080/hook"


def test_a_bad_network_in_the_setting_is_refused_at_start_naming_the_setting() -> None:
    from services.common.config import Settings

    with pytest.raises(ValueError, match="DRAGONHALL_WEBHOOK_ALLOW_NETWORKS"):
        Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_WEBHOOK_ALLOW_NETWORKS": "10.0.0.0/8,intranet"})
