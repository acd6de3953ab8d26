"""The browser harness itself, on static pages (``harness/``) served by a throwaway ``http.server``:
the guard catches each kind of problem and lets a declared one pass, the accessibility check fails on
a serious violation only, the screenshots are written at both widths, and a guarded test fails."""

from __future__ import annotations

import functools
import http.server
import os
import re
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser import screens
from tests.browser.a11y import axe_violations, check_a11y
from tests.browser.conftest import open_page
from tests.browser.guard import PageGuard
from tests.support.processes import free_port

HARNESS = Path(__file__).parent / "harness"
ROOT = Path(__file__).resolve().parents[2]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The base URL of the harness pages, served from 127.0.0.1."""
    handler = functools.partial(QuietHandler, directory=str(HARNESS))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def unguarded(browser: Browser) -> Iterator[tuple[Page, PageGuard]]:
    """A page and its guard, for a test that calls the guard's check itself."""
    guard = PageGuard()
    page = open_page(browser, guard)
    yield page, guard
    page.context.close()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_a_clean_page_passes_the_guard_and_the_accessibility_check(
    page: Page, site: str, shoot: Callable[[Page, str], list[Path]]
) -> None:
    page.goto(f"{site}/clean.html")
    assert page.locator("img").evaluate("img => img.naturalWidth") == 160, "the picture loaded"
    check_a11y(page)
    desktop, phone = shoot(page, "clean")
    assert desktop.name == "test_a_clean_page_passes_the_guard_and_the_accessibility_check--clean--1440x900.png"
    assert png_size(desktop) == (1440, 900)
    assert png_size(phone) == (375, 812), "a page narrower than a phone is shot at the phone's width"
    assert page.viewport_size == {"width": 1440, "height": 900}, "the page gets its viewport back"


def test_a_console_error_fails_the_guard(unguarded: tuple[Page, PageGuard], site: str) -> None:
    page, guard = unguarded
    page.goto(f"{site}/console_error.html")
    with pytest.raises(AssertionError, match=r"console error: boom from the page \(at http://127\.0\.0\.1:"):
        guard.check()


def test_an_uncaught_exception_fails_the_guard(unguarded: tuple[Page, PageGuard], site: str) -> None:
    page, guard = unguarded
    page.goto(f"{site}/throws.html")
    with pytest.raises(AssertionError, match="uncaught exception: Error: the dragon escaped"):
        guard.check()


def test_an_answer_of_404_fails_the_guard_with_its_url(unguarded: tuple[Page, PageGuard], site: str) -> None:
    page, guard = unguarded
    page.goto(f"{site}/missing_image.html")
    page.wait_for_load_state("load")
    with pytest.raises(AssertionError, match=r"HTTP 404: GET http://127\.0\.0\.1:\d+/missing\.png"):
        guard.check()


def test_a_missing_icon_fails_the_guard_though_playwright_reports_no_response_for_it(
    unguarded: tuple[Page, PageGuard], site: str
) -> None:
    """Chromium asks for /favicon.ico by itself; only its console line tells the answer was 404."""
    page, guard = unguarded
    with page.expect_console_message(lambda m: "favicon.ico" in m.location.get("url", "")):
        page.goto(f"{site}/no_icon.html")
    icon = re.escape(f"{site}/favicon.ico")
    with pytest.raises(AssertionError, match=rf"console error: Failed to load .* status of 404 .*\(at {icon}\)"):
        guard.check()


@pytest.mark.expect_http_error(404, "/missing.png")
def test_an_answer_the_test_declares_passes_the_guard(page: Page, site: str, guard: PageGuard) -> None:
    page.goto(f"{site}/missing_image.html")
    page.wait_for_load_state("load")
    assert guard.problems == [], "neither the answer nor Chromium's console line about it is listed"


def test_an_answer_declared_for_another_url_does_not_excuse_this_one(
    unguarded: tuple[Page, PageGuard], site: str
) -> None:
    page, guard = unguarded
    guard.expect_http_error(404, "/elsewhere.png")
    guard.expect_http_error(500, "/missing.png")
    page.goto(f"{site}/missing_image.html")
    page.wait_for_load_state("load")
    with pytest.raises(AssertionError, match="HTTP 404"):
        guard.check()


def test_a_request_to_another_site_fails_the_guard(unguarded: tuple[Page, PageGuard], site: str) -> None:
    """Only localhost resolves in the tests' browser: a page's dependency on the network shows."""
    page, guard = unguarded
    page.goto(f"{site}/other_host.html")
    page.wait_for_load_state("load")
    with pytest.raises(AssertionError, match=r"request failed: GET http://cdn\.example\.org/dragon\.png"):
        guard.check()


def test_a_refused_connection_fails_the_guard(unguarded: tuple[Page, PageGuard], site: str) -> None:
    page, guard = unguarded
    page.goto(f"{site}/plain.html")
    closed = f"http://127.0.0.1:{free_port()}/api/v1/games"
    assert page.evaluate("url => fetch(url).then(() => 'answered', () => 'refused')", closed) == "refused"
    refused = rf"request failed: GET {re.escape(closed)}: net::ERR_CONNECTION_REFUSED"
    with pytest.raises(AssertionError, match=refused):
        guard.check()


def test_a_request_the_page_cancels_is_not_a_failure(unguarded: tuple[Page, PageGuard], site: str) -> None:
    page, guard = unguarded
    page.goto(f"{site}/clean.html")
    cancelled = page.evaluate(
        """url => { const c = new AbortController(); const f = fetch(url, {signal: c.signal}); c.abort();
                    return f.then(() => 'answered', e => e.name); }""",
        f"{site}/dragon.svg",
    )
    assert cancelled == "AbortError"
    guard.check()


def test_an_image_without_alt_is_reported_by_the_accessibility_check(page: Page, site: str) -> None:
    page.goto(f"{site}/no_alt.html")
    with pytest.raises(AssertionError, match=r"image-alt \(critical\): Images must have alternative text \[img\]"):
        check_a11y(page)


def test_a_moderate_violation_alone_does_not_fail_the_accessibility_check(page: Page, site: str) -> None:
    page.goto(f"{site}/moderate.html")
    found = {v["id"]: v["impact"] for v in axe_violations(page)}
    assert found.get("region") == "moderate", found
    check_a11y(page)


def test_the_accessibility_check_runs_under_a_strict_content_security_policy(page: Page, site: str) -> None:
    """clean.html allows only its own scripts; axe is evaluated, not inserted, so it still runs."""
    page.goto(f"{site}/clean.html")
    assert axe_violations(page) == []


GUARDED_TESTS = """
def test_a_clean_page(page):
    page.set_content("<title>quiet</title><p>nothing to say</p>")


def test_a_page_that_logs_an_error(page):
    page.set_content("<title>loud</title><script>console.error('inner boom')</script>")


def test_a_failing_test_whose_page_logged_an_error(page):
    page.set_content("<title>loud</title><script>console.error('the reason why')</script>")
    assert page.title() == "quiet"
"""


def test_a_test_whose_guarded_page_had_a_problem_fails_listing_it(browser: Browser, tmp_path: Path) -> None:
    """Run as pytest runs them, in a session of their own: the guard fails the test after its body,
    and adds the page's problems and a screenshot to a failed test's error. (``browser``: this test skips
    without Chromium, as the tests it runs would.)"""
    inner = ("test_a_clean_page", "test_a_page_that_logs_an_error", "test_a_failing_test_whose_page_logged_an_error")
    shots = {test: screens.SCREENSHOTS / f"{test}--failure.png" for test in inner}
    for shot in shots.values():
        shot.unlink(missing_ok=True)
    (tmp_path / "conftest.py").write_text("from tests.browser.conftest import *  # noqa: F403\n")
    (tmp_path / "test_guarded.py").write_text(GUARDED_TESTS)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", str(tmp_path)]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed, 1 passed" in run.stdout, run.stdout
    assert "FAILED test_guarded.py::test_a_page_that_logs_an_error" in run.stdout
    assert "AssertionError: the page had 1 problem(s):" in run.stdout
    assert "- console error: inner boom (at inline)" in run.stdout
    assert "the reason why" in run.stdout, "a failed test's report names its page's problems"
    assert not shots["test_a_clean_page"].exists(), "a test that passed leaves no failure screenshot"
    for test in ("test_a_page_that_logs_an_error", "test_a_failing_test_whose_page_logged_an_error"):
        assert f"screenshot at the failure: {shots[test]}" in run.stdout
        assert png_size(shots[test]) == (1440, 900)
        shots[test].unlink()  # the inner tests' failures are this test's doing, not the run's
