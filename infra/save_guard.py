"""A check that the next save of this thread's request makes in its own transaction.

On PostgreSQL a process cannot know, without a round trip, that no other process has revoked a
token it has seen before: its processes may run on several hosts and share no memory. Reading the
token on every move was that round trip: 0.09 of the 0.70 ms of CPU a move cost the HTTP process
(``bench/request_cost.py --store postgres``, issue 39). A move saves its events in one round trip
anyway (``infra.postgres_events``), so the save carries the check: its function calls the
deployment's ``dh_save_guard(text)`` with ``GUARD``'s value before it inserts, and a refusal there
aborts the whole save. The move is then stored only if the token was still live when it was
stored, as when the token was read first.

The accounts set ``GUARD`` (``services.accounts.players``) and create the function; this layer
knows only that a guard is a text the function accepts or refuses with ``REFUSED``.
"""

from __future__ import annotations

from contextvars import ContextVar

FUNCTION = "dh_save_guard"
"""The function of the deployment's schema that a guarded save calls with ``GUARD``'s value."""
REFUSED = "DH401"
"""The SQLSTATE with which ``FUNCTION`` refuses."""

GUARD: ContextVar[str | None] = ContextVar("dragonhall_save_guard", default=None)
"""What the next save checks in its transaction; a save that checked it sets it back to None (what
it confirmed holds for the rest of the request), and None checks nothing."""


class GuardRefused(Exception):
    """A save's guard was refused: nothing of the save was stored."""


def refused(error: BaseException) -> bool:
    """Whether ``error`` (the driver's, or a wrapper of it) is the guard function's refusal."""
    while error is not None:
        if getattr(error, "sqlstate", None) == REFUSED:
            return True
        error = error.__cause__  # type: ignore[assignment]
    return False
