"""What a bearer token may do: its scopes, and what each scope grants.

Every route of the API needs one scope (``api.parser.ContractBlueprint.contract``), and a token
may call it when one of the token's scopes grants that scope:

* ``read``: every authenticated read: game documents as a seat, legal moves, events, replays,
  records, audits, journals, disputes, the caller's account, inbox and vacations, and the streams;
* ``play``: every act in games: create games, take seats, start, move, resign, open, fork and
  resolve disputes;
* ``bot``: what a bot program needs, ``read`` and ``play``, and nothing of the account's
  management: a bot's token cannot mint tokens, revoke them or move the account's webhook;
* ``account``: the account's management: its tokens, its webhook, and its vacation days (the
  account's, in all its games, and not to be withdrawn: not for a bot program to declare).

The token an account receives at registration holds every scope. A token mints only tokens whose
scopes grant nothing it is not granted itself.
"""

from __future__ import annotations

from collections.abc import Iterable

READ = "read"
PLAY = "play"
BOT = "bot"
ACCOUNT = "account"

SCOPES: tuple[str, ...] = (READ, PLAY, BOT, ACCOUNT)
"""Every scope a token may hold, in the order the documentation lists them."""

ROUTE_SCOPES: tuple[str, ...] = (READ, PLAY, ACCOUNT)
"""The scopes a route may need (``bot`` is a bundle of two of them, never needed alone)."""

GRANTS: dict[str, frozenset[str]] = {
    READ: frozenset({READ}),
    PLAY: frozenset({PLAY}),
    BOT: frozenset({READ, PLAY}),
    ACCOUNT: frozenset({ACCOUNT}),
}


def granted(scopes: Iterable[str]) -> frozenset[str]:
    """The route scopes that a token holding ``scopes`` may call."""
    out: frozenset[str] = frozenset()
    for scope in scopes:
        out |= GRANTS.get(scope, frozenset())
    return out


def encode(scopes: Iterable[str]) -> str:
    """Scopes as stored: distinct, in ``SCOPES`` order, separated by spaces."""
    held = set(scopes)
    return " ".join(s for s in SCOPES if s in held)


def decode(text: str) -> tuple[str, ...]:
    return tuple(text.split())
