"""POSTing reminders to players' webhooks: at most once per deadline.

A delivery is retried only when the receiver could not have seen it (the
connection was refused or the host not found). Once a request went out, whatever
came back (or a timeout) ends the delivery: a second POST could reach the
player twice.

Each POST says which delivery it is and is signed, so a receiver can tell it
comes from Dragonhall, drop a duplicate and refuse a stale one:

- ``X-Dragonhall-Delivery``: the delivery's id, the same on every try of it;
- ``X-Dragonhall-Timestamp``: Unix seconds when this try was sent;
- ``X-Dragonhall-Signature``: ``sha256=`` and the hex HMAC-SHA256, keyed with the
  secret shown when the URL was set, of ``f"{timestamp}."`` followed by the body
  (``services.accounts.webhook_keys.signature``).

A webhook set before secrets existed has none until its URL is set again; its
POSTs go out as before, without the signature header.

A delivery goes only where ``services.accounts.webhook_targets`` allows: its host is
looked up at each try, and the POST connects to an address that was checked, so a
name that now resolves to a private address (DNS rebinding) reaches nothing; such
a delivery fails at once. Redirects are not followed (a 3xx fails the delivery:
it could lead anywhere), and no HTTP proxy from the environment is used (a proxy
would connect wherever the name then leads).
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
from collections.abc import Callable
from typing import Any

from services.accounts import webhook_keys
from services.accounts.inbox import Inbox
from services.accounts.webhook_targets import RefusedTarget, WebhookTargets
from services.common import clock

log = logging.getLogger("dragonhall.webhooks")
TIMEOUT = 10
ATTEMPTS = 9
"""Tries of one delivery (its first and ``workers.jobs.MAX_RETRIES`` more) before it is ``failed``.
The count is kept on the delivery row, so a task the sweep sends for a delivery still
``pending`` (``Inbox.lost_deliveries``) goes on counting rather than starting over."""
ANSWER_READ = 1 << 16
"""Bytes of a receiver's answer read before the connection is closed: only its status matters."""


def deliver(
    inbox: Inbox, delivery_id: str, secret_of: Callable[[str], str | None], targets: WebhookTargets | None = None
) -> str:
    """POSTs one claimed delivery, signed with ``secret_of(player_id)``, to an address
    ``targets`` allows (public addresses only by default): ``"sent"``, ``"failed"``,
    ``"retry"`` or ``"gone"``."""
    delivery = inbox.delivery(delivery_id)
    if delivery is None or delivery["status"] != "pending":
        return "gone"
    secret = secret_of(delivery["player_id"])  # before taking it: a failed look-up leaves it pending for a retry
    if not inbox.take_delivery(delivery_id):
        return "gone"
    body = json.dumps(delivery["payload"]).encode()
    try:
        status = _post(targets or WebhookTargets(), delivery["url"], body, _headers(delivery_id, body, secret))
    except RefusedTarget as e:
        log.warning("webhook delivery %s refused: %s", delivery_id, e)
        inbox.mark_delivery(delivery_id, "failed", str(e)[:200])
        return "failed"
    except (ConnectionRefusedError, socket.gaierror) as e:  # the receiver cannot have seen it
        if delivery["attempts"] + 1 < ATTEMPTS:
            inbox.mark_delivery(delivery_id, "pending", str(e)[:200])
            return "retry"
        inbox.mark_delivery(delivery_id, "failed", f"gave up after {ATTEMPTS} tries: {e}"[:200])
        return "failed"
    except (OSError, http.client.HTTPException, ValueError) as e:  # ValueError: a URL http.client cannot send
        inbox.mark_delivery(delivery_id, "failed", (str(e) or type(e).__name__)[:200])
        return "failed"
    if not 200 <= status < 300:
        inbox.mark_delivery(delivery_id, "failed", f"HTTP {status}")
        return "failed"
    inbox.mark_delivery(delivery_id, "sent")
    return "sent"


def _post(targets: WebhookTargets, url: str, body: bytes, headers: dict[str, str]) -> int:
    """POSTs ``body`` to ``url`` on a connection to an address ``targets`` allowed; the answer's status."""
    parts, addresses = targets.resolve(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = kind(parts.hostname or "", parts.port, timeout=TIMEOUT)  # the name for Host, TLS and its certificate
    # http.client's own hook for opening the socket, private and so not in its stubs:
    conn._create_connection = lambda _address, timeout, _source=None: _connect(addresses, timeout)  # type: ignore[attr-defined]
    try:
        conn.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
        response = conn.getresponse()
        response.read(ANSWER_READ)
        return int(response.status)
    finally:
        conn.close()


def _connect(addresses: list[tuple[Any, ...]], timeout: float) -> socket.socket:
    """A connection to the first of ``addresses`` that answers, as ``socket.create_connection``
    tries a name's addresses in turn; the last error if none does."""
    error: OSError = ConnectionRefusedError("no address to connect to")
    for family, kind, proto, _name, address in addresses:
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(timeout)
            sock.connect(address)
            return sock
        except OSError as e:
            sock.close()
            error = e
    raise error


def _headers(delivery_id: str, body: bytes, secret: str | None) -> dict[str, str]:
    timestamp = int(clock.now().timestamp())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "dragonhall",
        "X-Dragonhall-Delivery": delivery_id,
        "X-Dragonhall-Timestamp": str(timestamp),
    }
    if secret is not None:
        headers["X-Dragonhall-Signature"] = webhook_keys.signature(secret, timestamp, body)
    return headers
