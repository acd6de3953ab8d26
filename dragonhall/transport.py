"""The HTTP plumbing of a ``Client``: one server, one token, and how a request is retried.

A read, or a move with its ``command_id``, is retried with backoff on a lost connection, a 503, a 429
(after its ``Retry-After``) and a proxy's refusal for now (``errors.from_a_gateway``: a fan-out engine
in front of the server refuses part of a burst at once); other writes only when the request cannot
have reached the server.
A refusal raises the ``dragonhall.errors.DragonhallError`` of its status; a server that cannot be
reached, after the retries, ``dragonhall.errors.Unreachable``. Waits longer than ``LONG_WAIT``
seconds are logged on ``dragonhall.client``.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

import httpx

from dragonhall import errors

API = "/api/v1"
RETRIED_STATUSES = frozenset({429, 503})
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
"""Transport errors raised before the request left: retrying them cannot apply anything twice."""
LONG_WAIT = 3.0
"""Waits longer than this many seconds are logged."""
log = logging.getLogger("dragonhall.client")


@dataclass(frozen=True)
class Retry:
    """How often and how long to retry: ``attempts`` tries in all, waiting ``backoff`` seconds doubled on
    each failure (with jitter, at most ``max_delay``), or the server's ``Retry-After`` when it gives one."""

    attempts: int = 6
    backoff: float = 0.25
    max_delay: float = 10.0

    def delay(self, failures: int, retry_after: float | None = None) -> float:
        """Seconds to wait after ``failures`` failures: the server's ``Retry-After`` (at most six times
        ``max_delay``) when it gives one, else the doubling backoff with jitter."""
        if retry_after is not None:
            return min(retry_after, self.max_delay * 6)
        return min(self.max_delay, self.backoff * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)


class Transport:
    """The connection a ``Client`` speaks through: the server's URL, the bearer token, the
    timeout, the retries (``Retry``) and the pause between tries; ``Client`` holds the API's calls."""

    def __init__(
        self,
        server: str = "http://127.0.0.1:8000",
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retry: Retry | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = retry or Retry()
        self.sleep = sleep
        self.http = httpx.Client(base_url=self.server, timeout=timeout, transport=transport)

    def close(self) -> None:
        """Closes the connections (``with Client(...)`` does it on leaving)."""
        self.http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def headers(self, accept: str = "application/json") -> dict[str, str]:
        """The headers of each request: ``Accept`` and the token's ``Authorization``."""
        headers = {"Accept": accept}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: dict[str, Any] | None = None,
        safe: bool = False,
        timeout: float | None = None,
    ) -> Any:
        response = self._send(method, path, body, params=params, safe=safe, timeout=timeout)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    def _send(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: dict[str, Any] | None = None,
        safe: bool = False,
        timeout: float | None = None,
        prefix: str = API,
    ) -> httpx.Response:
        """One request, retried as ``Retry`` says when that cannot apply it twice: reads and ``safe``
        requests (a move with its ``command_id``) on any lost connection, a 503, a 429 or a proxy's
        refusal; other writes only when the request was never sent, or refused with a 429 before it was
        handled."""
        safe = safe or method in ("GET", "HEAD", "PUT", "DELETE")
        failures = 0
        while True:
            try:
                response = self.http.request(
                    method,
                    prefix + path,
                    json=body,
                    params=params,
                    headers=self.headers(),
                    timeout=self.timeout if timeout is None else timeout,
                )
            except httpx.TransportError as error:
                failures += 1
                if failures >= self.retry.attempts or not (safe or isinstance(error, NOT_SENT)):
                    raise errors.Unreachable.after(self.server, failures, error) from error
                self.wait(self.retry.delay(failures), f"{method} {path}: {type(error).__name__}")
                continue
            if response.is_success:
                return response
            failure = errors.from_response(response)
            failures += 1
            retried = response.status_code == 429 or (
                safe and (response.status_code in RETRIED_STATUSES or errors.from_a_gateway(failure))
            )
            if not retried or failures >= self.retry.attempts:
                raise failure
            self.wait(self.retry.delay(failures, failure.retry_after), f"{method} {path}: {failure}")

    def wait(self, seconds: float, why: str) -> None:
        """Sleeps before a retry or a reconnection, saying so in the log (``dragonhall.client``) when
        the wait is longer than ``LONG_WAIT`` seconds, so that a bot never seems to hang."""
        if seconds > LONG_WAIT:
            log.warning("waiting %.0f s before trying again (%s)", seconds, why)
        self.sleep(seconds)
