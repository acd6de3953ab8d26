"""Rate limits, counted by ``limits`` (the library under Flask-Limiter): each request falls in at most
one bucket, counted per caller.

* ``register``: registration (``POST /players``, whose contract says ``rate_limit="register"``),
  per client address;
* ``streams``: opening a stream (a path ending in ``/stream`` or under ``/api/v1/stream``), per
  account (per address without a token);
* ``reads``: every other GET of a route that reads a token, per token (per address without one);
* ``moves``: every other request of a route that reads a token (moves, seats, new games, disputes,
  tokens...), per token.

The web client's pages and forms fall in the same buckets, from the contracts they declare
(``api.parser.page_contract``): sign-up, sign-in and recovery per address as ``register``, pages
as ``reads`` and forms as ``moves``, per session token (per address signed out).

The catalogue, the keys, the documentation and the health check are not limited. A stream's
limit counts the streams opened; those a caller holds at once are capped by ``api.streams.Slots``
(``DRAGONHALL_MAX_STREAMS_PER_CALLER``). Each bucket's limit is a ``limits``
string (``"600/minute"``, ``"10/second;500/hour"``, as Flask-Limiter writes them) from the settings
(``DRAGONHALL_RATE_LIMIT_*``),
counted in fixed windows, in Redis when a Redis broker is configured (shared by every process),
else in the memory of each process. If Redis cannot be reached the request goes through
unlimited (and the error is logged): a limit is a guard, not a reason to stop the service.

A request over its limit is refused before its route runs, so it writes nothing: 429, the API's
error body (code ``rate_limited``) and ``Retry-After`` (whole seconds until its window ends).
Every answer to a limited request says where its caller stands: ``X-RateLimit-Limit`` (the
requests its window allows), ``X-RateLimit-Remaining`` and ``X-RateLimit-Reset`` (whole seconds
until the window ends), for the limit of its bucket with the fewest requests left.
A token's requests are counted after it is authenticated, so a request refused as 401 or 403
counts for nothing.

The check is a ``before_request`` hook of a few lines over ``limits``' fixed-window limiter rather
than Flask-Limiter's extension: measured with ``bench/request_cost.py --instructions``, the
extension's own per-request work (it parses its limit strings again on every request, among other
things) cost about 0.95 M instructions per move, a third of a move; the hook costs a small part of it.
In a process's own memory the windows are counted by ``infra.rate_windows`` rather than ``limits``'
memory storage, under the tuple the check already holds; a route's bucket is worked out once.
"""

from __future__ import annotations

import logging
import math
import time

from flask import Flask, Response, current_app, g, request
from flask.typing import ResponseReturnValue
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from api.errors import answer, error_body
from api.parser import contract_of
from infra.rate_windows import Windows
from services.accounts.player import Player
from services.common.config import Settings

EXTENSION = "dragonhall_limits"
"""The key of the app's ``RateLimits`` in ``app.extensions``."""
log = logging.getLogger("dragonhall.limits")
BUCKETS = ("register", "moves", "reads", "streams")
VARIABLES = {
    "register": "DRAGONHALL_RATE_LIMIT_REGISTER",
    "moves": "DRAGONHALL_RATE_LIMIT_MOVES",
    "reads": "DRAGONHALL_RATE_LIMIT_READS",
    "streams": "DRAGONHALL_RATE_LIMIT_STREAMS",
}
_BUCKET = "dh_rate_bucket"
"""The attribute of ``flask.g`` that holds the request's bucket and key, worked out once."""


def limits_of(settings: Settings) -> dict[str, str]:
    """Each bucket's limit, checked: a ``ValueError`` naming the variable of one `limits`
    cannot read."""
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


class RateLimits:
    """The limits of every bucket, and their counts: in this process's memory (``infra.rate_windows``),
    or in a shared storage (Redis) through ``limits``' fixed-window limiter."""

    def __init__(self, values: dict[str, str], storage: Storage | None = None) -> None:
        self.items: dict[str, list[RateLimitItem]] = {bucket: parse_many(v) for bucket, v in values.items()}
        self._periods = {b: [(item, item.amount, item.get_expiry()) for item in its] for b, its in self.items.items()}
        self.limiter = None if storage is None else FixedWindowRateLimiter(storage)
        self.memory = Windows() if storage is None else None
        self._buckets: dict[tuple[str, str], str | None] = {}
        """(endpoint, method) -> the bucket its requests fall in (``_bucket_of``), worked out once."""

    def check(self) -> ResponseReturnValue | None:
        """Before each route: None to go on, or the 429 of a request over its bucket's limit."""
        found = self.bucket()
        if found is None:
            return None
        bucket, who = found
        tightest: tuple[int, float, float] | None = None
        """The limit with the fewest requests left: (its amount, the requests left, its window's end)."""
        if self.memory is not None:
            for item, amount, seconds in self._periods[bucket]:
                end, hits = self.memory.count((bucket, who, seconds), seconds)
                if hits > amount:
                    return _refused(bucket, item, end)
                if tightest is None or amount - hits < tightest[1]:
                    tightest = (amount, amount - hits, end)
            g.dh_rate_state = tightest
            return None
        assert self.limiter is not None
        for item in self.items[bucket]:
            try:
                allowed = self.limiter.hit(item, "dragonhall", bucket, who)
                stats = self.limiter.get_window_stats(item, "dragonhall", bucket, who)
            except Exception as e:  # a Redis that cannot be reached: a guard, not a reason to stop
                log.warning("rate limits not counted: %s", e)
                return None
            if not allowed:
                return _refused(bucket, item, stats.reset_time)
            if tightest is None or stats.remaining < tightest[1]:
                tightest = (item.amount, stats.remaining, stats.reset_time)
        g.dh_rate_state = tightest
        return None

    def bucket(self) -> tuple[str, str] | None:
        """The bucket of this request and whom it counts for, or None when no limit applies."""
        if hasattr(g, _BUCKET):
            found: tuple[str, str] | None = getattr(g, _BUCKET)
            return found
        endpoint = request.endpoint
        found = None
        if endpoint is not None:
            route = (endpoint, request.method)
            if route not in self._buckets:
                self._buckets[route] = _bucket_of(endpoint)
            bucket = self._buckets[route]
            if bucket is not None:
                found = bucket, _who(bucket)
        setattr(g, _BUCKET, found)
        return found


def install(app: Flask, settings: Settings) -> RateLimits | None:
    """Puts the limits on ``app`` (after ``api.auth.authenticate_request``, whose caller the keys
    use); nothing when ``settings.rate_limits`` is off."""
    if not settings.rate_limits:
        return None
    limits = RateLimits(limits_of(settings), _storage(settings))
    app.extensions[EXTENSION] = limits
    app.before_request(limits.check)
    app.after_request(_headers)
    return limits


def _headers(response: Response) -> Response:
    """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (seconds until the window ends) on every
    answer to a limited request: the limit of its bucket with the fewest requests left."""
    state: tuple[int, float, float] | None = g.get("dh_rate_state")
    if state is not None:
        amount, left, end = state
        response.headers["X-RateLimit-Limit"] = str(amount)
        response.headers["X-RateLimit-Remaining"] = str(max(0, int(left)))
        response.headers["X-RateLimit-Reset"] = str(max(0, math.ceil(end - time.time())))
    return response


def _storage(settings: Settings) -> Storage | None:
    """The storage the counts are shared in; None to count in this process's memory."""
    uri = settings.rate_limit_storage
    if uri == "memory://":
        return None
    storage = storage_from_string(uri)
    if not isinstance(storage, Storage):
        raise ValueError(f"{uri} is not a storage rate limits can count in")
    return storage


def _address() -> str:
    return request.remote_addr or "127.0.0.1"


def _bucket_of(endpoint: str) -> str | None:
    """The bucket of the requests of ``endpoint`` with this request's method, or None when no limit
    applies: the same for every such request, so worked out once (``RateLimits.bucket``)."""
    contract = contract_of(current_app.view_functions[endpoint])
    if contract is None:
        return None
    if contract.rate_limit is not None:
        return contract.rate_limit
    if contract.auth == "none":
        return None
    rule = request.url_rule.rule if request.url_rule is not None else ""
    if rule.endswith("/stream") or rule.startswith("/api/v1/stream"):
        return "streams"
    return "reads" if request.method in ("GET", "HEAD") else "moves"


def _who(bucket: str) -> str:
    """Whom a request of ``bucket`` counts for: its address (registrations, and a call without a
    token), its account (streams), else its token."""
    if bucket not in ("reads", "moves", "streams"):
        return f"address:{_address()}"
    caller: Player | None = g.get("dh_caller")
    if bucket == "streams":
        return f"account:{caller.id}" if caller else f"address:{_address()}"
    if caller is None or caller.token_id is None:
        return f"address:{_address()}"
    return f"token:{caller.token_id}"


def _refused(bucket: str, item: RateLimitItem, reset: float) -> ResponseReturnValue:
    """429 with the error body and ``Retry-After``: the whole seconds until the window ends."""
    wait = max(1, math.ceil(reset - time.time()))
    body = error_body(
        "rate_limited", f"too many requests: over the {bucket} limit of {item}; try again in {wait} seconds"
    )
    headers = {"Retry-After": str(wait), "X-RateLimit-Limit": str(item.amount), "X-RateLimit-Remaining": "0"}
    return answer(body, 429, {**headers, "X-RateLimit-Reset": str(wait)})
