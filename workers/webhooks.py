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
  (``services.webhook_keys.signature``).

A webhook set before secrets existed has none until its URL is set again; its
POSTs go out as before, without the signature header.
"""

from __future__ import annotations

import json
import logging
import socket
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from services import clock, webhook_keys

log = logging.getLogger("dragonhall.webhooks")
TIMEOUT = 10
ATTEMPTS = 9
"""Tries of one delivery (its first and ``workers.jobs.MAX_RETRIES`` more) before it is ``failed``.
The count is kept on the delivery row, so a task the sweep sends for a delivery still
``pending`` (``Inbox.lost_deliveries``) goes on counting rather than starting over."""


def deliver(inbox: Any, delivery_id: str, secret_of: Callable[[str], str | None]) -> str:
    """POSTs one claimed delivery, signed with ``secret_of(player_id)``: ``"sent"``,
    ``"failed"``, ``"retry"`` or ``"gone"``."""
    delivery = inbox.delivery(delivery_id)
    if delivery is None or delivery["status"] != "pending":
        return "gone"
    secret = secret_of(delivery["player_id"])  # before taking it: a failed look-up leaves it pending for a retry
    if not inbox.take_delivery(delivery_id):
        return "gone"
    body = json.dumps(delivery["payload"]).encode()
    headers = _headers(delivery_id, body, secret)
    req = urllib.request.Request(delivery["url"], data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            r.read()
    except urllib.error.HTTPError as e:
        inbox.mark_delivery(delivery_id, "failed", f"HTTP {e.code}")
        return "failed"
    except urllib.error.URLError as e:
        if isinstance(e.reason, (ConnectionRefusedError, socket.gaierror)):
            if delivery["attempts"] + 1 < ATTEMPTS:
                inbox.mark_delivery(delivery_id, "pending", str(e.reason)[:200])
                return "retry"
            inbox.mark_delivery(delivery_id, "failed", f"gave up after {ATTEMPTS} tries: {e.reason}"[:200])
            return "failed"
        inbox.mark_delivery(delivery_id, "failed", str(e.reason)[:200])
        return "failed"
    except OSError as e:
        inbox.mark_delivery(delivery_id, "failed", str(e)[:200])
        return "failed"
    inbox.mark_delivery(delivery_id, "sent")
    return "sent"


def _headers(delivery_id: str, body: bytes, secret: str | None) -> dict[str, str]:
    timestamp = int(clock.now().timestamp())
    headers = {"Content-Type": "application/json", "User-Agent": "dragonhall",
               "X-Dragonhall-Delivery": delivery_id, "X-Dragonhall-Timestamp": str(timestamp)}
    if secret is not None:
        headers["X-Dragonhall-Signature"] = webhook_keys.signature(secret, timestamp, body)
    return headers
