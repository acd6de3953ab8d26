"""Signed webhooks: the secret shown by ``PUT /me/webhook`` verifies the reminders a real receiver gets."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from typing import Any

from workers import jobs


def verify(secret: str, headers: Any, body: bytes, tolerance: int = 300) -> bool:
    """A receiver's check, as the README gives it."""
    timestamp = headers["X-Dragonhall-Timestamp"]
    expected = "sha256=" + hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - int(timestamp)) <= tolerance
    return fresh and hmac.compare_digest(expected, headers.get("X-Dragonhall-Signature", ""))


def _set_webhook(client: Any, player: dict[str, Any], url: str | None) -> dict[str, Any]:
    r = client.call("PUT", "/api/v1/me/webhook", {"url": url}, player["token"])
    assert r.status == 200, r.body
    return r.body


def _remind(client: Any, player: dict[str, Any]) -> str:
    """A reminder for ``player``, claimed for its webhook and POSTed by the webhook job: the delivery's id."""
    platform = client.platform
    item = platform.inbox.add(player["id"], "reminder", uuid.uuid4().hex, "g1", {"type": "reminder", "seat": 0})
    delivery = platform.inbox.claim_delivery(item, platform.accounts.get(player["id"]).webhook_url)
    assert jobs.webhook(platform, lambda actions: None, delivery) == "sent"
    return delivery


def test_a_reminder_is_signed_with_the_secret_its_put_returned(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    secret = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    delivery = _remind(client, ann)
    ((headers, body),) = webhook_server.requests
    assert verify(secret, headers, body)
    assert headers["X-Dragonhall-Delivery"] == delivery
    assert json.loads(body) == {"type": "reminder", "seat": 0}
    assert not verify(secret, headers, body.replace(b"0", b"1"))  # the body is signed
    assert not verify("0" * 64, headers, body)


def test_a_second_put_rotates_the_secret(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    old = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    new = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    assert new != old
    _remind(client, ann)
    ((headers, body),) = webhook_server.requests
    assert verify(new, headers, body) and not verify(old, headers, body)


def test_clearing_the_webhook_drops_its_secret(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    old = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    cleared = _set_webhook(client, ann, None)
    assert cleared["webhook_url"] is None and "webhook_secret" not in cleared
    assert client.platform.accounts.webhook_secret(ann["id"]) is None
    assert _set_webhook(client, ann, webhook_server.url)["webhook_secret"] != old


def test_a_secret_is_shown_once_and_only_to_its_owner(client: Any, webhook_server: Any) -> None:
    """Each reminder is signed with its own player's secret; no other response shows a secret."""
    ann, bob = client.player("ann"), client.player("bob")
    ann_secret = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    bob_put = _set_webhook(client, bob, webhook_server.url)
    assert ann_secret not in json.dumps(bob_put) and bob_put["webhook_secret"] != ann_secret
    _remind(client, bob)
    ((headers, body),) = webhook_server.requests
    assert verify(bob_put["webhook_secret"], headers, body) and not verify(ann_secret, headers, body)
    for player in (ann, bob):
        for path in ("/api/v1/me", "/api/v1/me/inbox", "/api/v1/me/vacation"):
            text = client.call("GET", path, token=player["token"]).text
            assert ann_secret not in text and bob_put["webhook_secret"] not in text and "webhook_secret" not in text


def test_the_openapi_document_shows_the_secret_only_in_the_put_response(client: Any) -> None:
    spec = client.call("GET", "/api/v1/openapi.json").body
    schemas = spec["components"]["schemas"]
    put = spec["paths"]["/api/v1/me/webhook"]["put"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert put == {"$ref": "#/components/schemas/PlayerWithWebhookSecret"}
    assert "only in this response" in schemas["PlayerWithWebhookSecret"]["properties"]["webhook_secret"]["description"]
    assert "webhook_secret" not in schemas["Player"]["properties"]


def test_a_webhook_set_before_secrets_goes_unsigned_until_it_is_put_again(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    client.platform.db.execute(
        "UPDATE dh_players SET webhook_url = ? WHERE player_id = ?", (webhook_server.url, ann["id"])
    )  # as a database made before this change holds it
    first = _remind(client, ann)
    headers, _ = webhook_server.requests[0]
    assert headers["X-Dragonhall-Delivery"] == first and headers.get("X-Dragonhall-Signature") is None
    secret = _set_webhook(client, ann, webhook_server.url)["webhook_secret"]
    _remind(client, ann)
    headers, body = webhook_server.requests[1]
    assert verify(secret, headers, body)
