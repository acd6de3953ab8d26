"""The errors of the client: one class per HTTP status the API answers, each carrying the server's
``{"error": {"code", "message", "rule"?, "fields"?, "current_version"?}}``."""

from __future__ import annotations

import email.utils
import time
from typing import Any

import httpx


class DragonhallError(Exception):
    """An error answer of the server. ``code`` is stable and meant for programs (``stale_version``,
    ``illegal_move``...); ``rule`` cites the rulebook passage a refused move breaks; ``fields`` maps each
    field at fault to its messages; ``retry_after`` is the seconds the server asked to wait (429, 503)."""

    status: int = 0

    def __init__(
        self, status: int, code: str, message: str, body: dict[str, Any] | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body or {}
        self.retry_after = retry_after

    @property
    def rule(self) -> dict[str, Any] | None:
        return self.body.get("rule")

    @property
    def fields(self) -> dict[str, list[str]]:
        return self.body.get("fields") or {}

    @property
    def current_version(self) -> int | None:
        return self.body.get("current_version")


class BadRequest(DragonhallError):
    """400: malformed JSON, a body or query that does not match its schema, a move of no command's shape."""


class Unauthenticated(DragonhallError):
    """401: a missing, invalid or revoked token."""


class Forbidden(DragonhallError):
    """403: no seat in the game, not its creator, not an arbiter, not invited, or a token without the scope."""


class NotFound(DragonhallError):
    """404: no such game, player, dispute, picture; or no such route (``code`` ``not_found``: an older server)."""


class Conflict(DragonhallError):
    """409: the game's state does not allow it now (``stale_version``, ``not_accepting_moves``,
    ``seat_unavailable``, ``command_id_reused``)."""


class RuleViolation(DragonhallError):
    """422: the rules refuse the move (``illegal_move``, ``not_your_turn``, ``game_over``); ``rule`` cites them."""


class RateLimited(DragonhallError):
    """429: too many requests; ``retry_after`` says how long to wait."""


class Unavailable(DragonhallError):
    """503: the store cannot be reached for now; a retry after ``retry_after`` is safe for a move with the
    same ``command_id``."""


class Unreachable(DragonhallError, ConnectionError):
    """The server could not be reached, after the client's retries: ``code`` ``unreachable`` when no
    connection could be made (refused, timed out), ``connection_lost`` when the connection broke after
    the request was sent (a write without a ``command_id`` is then not sent again: it may have been
    applied). ``status`` is 0; ``__cause__`` is the transport's own error. It is also a
    ``ConnectionError``."""

    @classmethod
    def after(cls, server: str, attempts: int, error: Exception) -> Unreachable:
        """The error of ``attempts`` tries at ``server`` that ended with the transport's ``error``."""
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        sent = not isinstance(error, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)
        code = "connection_lost" if sent else "unreachable"
        return cls(0, code, f"cannot reach {server} after {attempts} attempts ({reason})")


class ServerError(DragonhallError):
    """Any other status: the server failed."""


_BY_STATUS: dict[int, type[DragonhallError]] = {
    400: BadRequest,
    401: Unauthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: BadRequest,
    422: RuleViolation,
    429: RateLimited,
    503: Unavailable,
}


NOT_THE_API = "http_error"
"""The ``code`` of a refusal whose body is not the API's JSON error (a proxy's page, say)."""


def from_response(response: httpx.Response) -> DragonhallError:
    """The typed error of an answer whose status is not 2xx."""
    try:
        payload = response.json()
    except ValueError:
        payload = None
    body = payload.get("error") if isinstance(payload, dict) else None
    if not isinstance(body, dict):
        body = {"code": NOT_THE_API, "message": response.text[:500] or response.reason_phrase}
    cls = _BY_STATUS.get(response.status_code, ServerError)
    code, message = str(body.get("code", "error")), str(body.get("message", ""))
    return cls(response.status_code, code, message, body, retry_after(response))


GATEWAY_REFUSALS = frozenset({502, 504})
"""Statuses a proxy in front of the server answers when it cannot pass a request on for now: a fan-out
engine refuses at once the requests past what its internal queues hold (Pushpin, in a burst of a few
hundred stream openings at the same instant)."""


def from_a_gateway(failure: DragonhallError) -> bool:
    """Whether a refusal came from a proxy in front of the server, not from the server: a 502 or a 504,
    or any 5xx whose body is not the API's JSON error (Pushpin's "Accept service unavailable.")."""
    return failure.status in GATEWAY_REFUSALS or (failure.status >= 500 and failure.code == NOT_THE_API)


def retry_after(response: httpx.Response) -> float | None:
    """The ``Retry-After`` header in seconds (RFC 9110: delay-seconds or an HTTP date), or None."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
