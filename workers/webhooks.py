"""POSTing reminders to players' webhooks: at most once per deadline.

A delivery is retried only when the receiver could not have seen it (the
connection was refused or the host not found). Once a request went out, whatever
came back (or a timeout) ends the delivery: a second POST could reach the
player twice.
"""

from __future__ import annotations

import json
import logging
import socket
import urllib.error
import urllib.request
from typing import Any

log = logging.getLogger("dragonhall.webhooks")
TIMEOUT = 10
ATTEMPTS = 9
"""Tries of one delivery (its first and ``workers.jobs.MAX_RETRIES`` more) before it is ``failed``.
The count is kept on the delivery row, so a task the sweep sends for a delivery still
``pending`` (``Inbox.lost_deliveries``) goes on counting rather than starting over."""


def deliver(inbox: Any, delivery_id: str) -> str:
    """POSTs one claimed delivery: ``"sent"``, ``"failed"``, ``"retry"`` or ``"gone"``."""
    delivery = inbox.delivery(delivery_id)
    if delivery is None or delivery["status"] != "pending" or not inbox.take_delivery(delivery_id):
        return "gone"
    body = json.dumps(delivery["payload"]).encode()
    req = urllib.request.Request(delivery["url"], data=body, method="POST",
                                 headers={"Content-Type": "application/json", "User-Agent": "dragonhall"})
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
