"""The page guard: everything a page did wrong while a test drove it.

A page in a browser test must work without complaint: no console error, no uncaught exception, no
request that failed to reach its server, and no answer of status 400 or more, unless the test declares
that answer (``expect_http_error``, or the ``expect_http_error`` marker), as a test of a "not found"
page does. The ``page`` fixture fails its test with the list (``conftest.py``).

A request the page itself cancelled (``net::ERR_ABORTED``: a navigation away from an open stream, an
``AbortController``) is not a failure of the server, so it is not listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import ConsoleMessage, Error, Page, Request, Response

CANCELLED = "net::ERR_ABORTED"
STATUS_LINE = re.compile(r"Failed to load resource: the server responded with a status of (\d+)")
"""How Chromium logs an answer of status 400 or more: a console error beside the response itself, and
the only sign of one to a request Playwright does not report, such as the page's ``/favicon.ico``."""


@dataclass(frozen=True)
class ExpectedHttpError:
    """An answer a test expects: its status, for a URL that contains ``path``."""

    status: int
    path: str

    def matches(self, status: int, url: str) -> bool:
        return status == self.status and self.path in url


class PageGuard:
    """Records a page's console errors, page errors, failed requests and error answers."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.expected: list[ExpectedHttpError] = []

    def watch(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", self._page_error)
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)

    def expect_http_error(self, status: int, path: str) -> None:
        """Declares that an answer of ``status`` to a URL containing ``path`` is part of the test."""
        self.expected.append(ExpectedHttpError(status, path))

    def check(self) -> None:
        """Raises AssertionError listing every problem recorded so far."""
        __tracebackhide__ = True
        if self.problems:
            raise AssertionError(self.report())

    def report(self) -> str:
        listed = "\n".join(f"  - {p}" for p in self.problems)
        return f"the page had {len(self.problems)} problem(s):\n{listed}"

    def _is_expected(self, status: int, url: str) -> bool:
        return any(e.matches(status, url) for e in self.expected)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        url = message.location.get("url", "")
        status = STATUS_LINE.match(message.text)
        if status and self._is_expected(int(status.group(1)), url):
            return
        self.problems.append(f"console error: {message.text} (at {url or 'inline'})")

    def _page_error(self, error: Error) -> None:
        self.problems.append(f"uncaught exception: {error.name}: {error.message}")

    def _request_failed(self, request: Request) -> None:
        failure = request.failure or "unknown failure"
        if failure != CANCELLED:
            self.problems.append(f"request failed: {request.method} {request.url}: {failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400 and not self._is_expected(response.status, response.url):
            method = response.request.method
            self.problems.append(f"HTTP {response.status}: {method} {response.url}")
