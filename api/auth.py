"""Bearer tokens: ``Authorization: Bearer <token>``."""

from __future__ import annotations

from flask import request

from api.context import current_platform
from services.accounts import Player
from services.errors import NotAuthenticated


def _token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthenticated("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def optional_player() -> Player | None:
    """The caller, or None when no token was sent. A bad token is still an error."""
    token = _token()
    return None if token is None else current_platform().accounts.authenticate(token)


def caller_id() -> str | None:
    """The caller's player id, or None when no token was sent (a bad token is still an error)."""
    player = optional_player()
    return player.id if player else None


def required_player() -> Player:
    """The caller; ``NotAuthenticated`` without a valid token."""
    player = optional_player()
    if player is None:
        raise NotAuthenticated("this call needs an 'Authorization: Bearer <token>' header")
    return player
