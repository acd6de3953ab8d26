"""Names for test players: account names are unique (``services.accounts.names``), so a helper that
registers players each time it is called gives each a fresh one."""

from __future__ import annotations

import uuid


def fresh(prefix: str) -> str:
    """``prefix`` and a short random tail: a name no other test player holds."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"
