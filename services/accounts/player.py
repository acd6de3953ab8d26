"""A player's account as a request's caller sees it: who, and what the caller's token may do."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.accounts import scopes as sc
from services.common.errors import InsufficientScope


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    kind: str
    created_at: str
    webhook_url: str | None = None
    token_id: str | None = field(default=None, compare=False)
    """The token the caller authenticated with (None for an account read by id)."""
    scopes: tuple[str, ...] = field(default=(), compare=False)
    """That token's scopes (``services.accounts.scopes``)."""

    def may(self, scope: str) -> bool:
        """Whether the caller's token grants ``scope`` (a route scope: read, play or account)."""
        return scope in sc.granted(self.scopes)

    def require(self, scope: str) -> None:
        """``InsufficientScope`` unless the caller's token grants ``scope``."""
        if not self.may(scope):
            raise InsufficientScope(f"this call needs a token with the {scope!r} scope", scope=scope)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "created_at": self.created_at,
            "webhook_url": self.webhook_url,
        }
