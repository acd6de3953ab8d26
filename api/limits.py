"""Rate limits, with Flask-Limiter: each request falls in at most one bucket, counted per caller.

* ``register``: registration (``POST /players``, whose contract says ``rate_limit="register"``),
  per client address;
* ``streams``: opening a stream (a path ending in ``/stream`` or under ``/api/v1/stream``), per
  account (per address without a token);
* ``reads``: every other GET of a route that reads a token, per token (per address without one);
* ``moves``: every other request of a route that reads a token (moves, seats, new games, disputes,
  tokens...), per token.

The catalogue, the keys, the documentation and the health check are not limited. A stream's
limit counts the streams opened, not those open at once. Each bucket's limit is a Flask-Limiter
string (``"600/minute"``, ``"10/second;500/hour"``) from the settings (``DRAGONHALL_RATE_LIMIT_*``),
counted in fixed windows, in Redis when a Redis broker is configured (shared by every process),
else in the memory of each process. If Redis cannot be reached the request goes through
unlimited (and the error is logged): a limit is a guard, not a reason to stop the service.

A request over its limit is refused before its route runs, so it writes nothing: 429, the API's
error body (code ``rate_limited``) and ``Retry-After`` (whole seconds until its window ends).
A token's requests are counted after it is authenticated, so a request refused as 401 or 403
counts for nothing.
"""

from __future__ import annotations

import math
import time

from flask import Flask, current_app, g, jsonify, request
from flask.typing import ResponseReturnValue
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import MemoryStorage

from api.errors import error_body
from api.parser import contract_of
from services.accounts import Player
from services.config import Settings

EXTENSION = "dragonhall_limiter"
"""The key of the app's ``Limiter`` in ``app.extensions``."""
BUCKETS = ("register", "moves", "reads", "streams")
VARIABLES = {
    "register": "DRAGONHALL_RATE_LIMIT_REGISTER",
    "moves": "DRAGONHALL_RATE_LIMIT_MOVES",
    "reads": "DRAGONHALL_RATE_LIMIT_READS",
    "streams": "DRAGONHALL_RATE_LIMIT_STREAMS",
}
_BUCKET = "dh_rate_bucket"
"""The attribute of ``flask.g`` that holds the request's bucket and key, worked out once."""


class SweptMemoryStorage(MemoryStorage):
    """limits' memory storage without its timer thread per request.

    ``MemoryStorage`` starts a ``threading.Timer`` on any count made after the last one has run
    (10 ms): under steady traffic, a new thread every few requests, which measured at several times
    the cost of the rest of the limit's check. Expiry does not need it: a fixed window's count is
    dropped when read past its end. Here the sweep that frees the memory of ended windows runs in
    the request instead, at most every ``SWEEP_SECONDS``."""

    STORAGE_SCHEME = ["dragonhall-memory"]
    SWEEP_SECONDS = 10.0

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._next_sweep = time.monotonic() + self.SWEEP_SECONDS

    def _MemoryStorage__schedule_expiry(self) -> None:  # replaces the base's timer (a private name)
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_SECONDS
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


def limits_of(settings: Settings) -> dict[str, str]:
    """Each bucket's limit, checked: a ``ValueError`` naming the variable of one Flask-Limiter
    cannot read (it would otherwise log an error and apply no limit at all)."""
    values = {
        "register": settings.rate_limit_register,
        "moves": settings.rate_limit_moves,
        "reads": settings.rate_limit_reads,
        "streams": settings.rate_limit_streams,
    }
    for bucket, value in values.items():
        try:
            parse_many(value)
        except ValueError as e:
            raise ValueError(f"{VARIABLES[bucket]}={value!r} is not a rate limit like '60/minute': {e}") from None
    return values


def install(app: Flask, settings: Settings) -> Limiter | None:
    """Puts the limits on ``app`` (after ``api.auth.authenticate_request``, whose caller the keys
    use); nothing when ``settings.rate_limits`` is off."""
    if not settings.rate_limits:
        return None
    values = limits_of(settings)
    limiter = Limiter(
        _key,
        app=app,
        application_limits=[ApplicationLimit(lambda: _limit(values), scope="dragonhall")],
        storage_uri=_storage_uri(settings),
        strategy="fixed-window",
        key_prefix="dragonhall",
        swallow_errors=True,
        headers_enabled=False,
    )
    app.extensions[EXTENSION] = limiter
    app.register_error_handler(RateLimitExceeded, _refused)
    return limiter


def _storage_uri(settings: Settings) -> str:
    uri = settings.rate_limit_storage
    return "dragonhall-memory://" if uri == "memory://" else uri


def _bucket() -> tuple[str, str] | None:
    """The bucket of this request and whom it counts for, or None when no limit applies."""
    if hasattr(g, _BUCKET):
        found: tuple[str, str] | None = getattr(g, _BUCKET)
        return found
    found = _find_bucket()
    setattr(g, _BUCKET, found)
    return found


def _find_bucket() -> tuple[str, str] | None:
    endpoint = request.endpoint
    if endpoint is None:
        return None
    contract = contract_of(current_app.view_functions[endpoint])
    if contract is None:
        return None
    if contract.rate_limit is not None:
        return contract.rate_limit, f"address:{get_remote_address()}"
    if contract.auth == "none":
        return None
    caller: Player | None = g.get("dh_caller")
    rule = request.url_rule.rule if request.url_rule is not None else ""
    if rule.endswith("/stream") or rule.startswith("/api/v1/stream"):
        return "streams", f"account:{caller.id}" if caller else f"address:{get_remote_address()}"
    bucket = "reads" if request.method in ("GET", "HEAD") else "moves"
    if caller is None or caller.token_id is None:
        return bucket, f"address:{get_remote_address()}"
    return bucket, f"token:{caller.token_id}"


def _limit(values: dict[str, str]) -> str:
    """The limit of this request's bucket; none (an empty string) outside every bucket."""
    found = _bucket()
    return values[found[0]] if found else ""


def _key() -> str:
    found = _bucket()
    return f"{found[0]}:{found[1]}" if found else ""


def _refused(exc: RateLimitExceeded) -> ResponseReturnValue:
    """429 with the error body and ``Retry-After``: the whole seconds until the window ends."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    current = limiter.current_limit
    wait = max(1, math.ceil(current.window.reset_time - time.time())) if current is not None else 1
    found = _bucket()
    what = f"the {found[0]} limit of {exc.description}" if found else f"the limit of {exc.description}"
    body = error_body("rate_limited", f"too many requests: over {what}; try again in {wait} seconds")
    return jsonify(body), 429, {"Retry-After": str(wait)}
