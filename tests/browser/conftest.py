"""Browser tests: Debian's Chromium driven by Playwright, against a real ``dragonhall serve``.

One server per session (per xdist worker: the browser tests spread over the workers like the
others) and one browser per module; each test gets a fresh browser context and page, guarded
(``guard.py``): a console error, an uncaught exception, a failed request or an undeclared answer of
status 400 or more fails the test that caused it. ``shoot`` saves the page at a desktop and a phone
width (``screens.py``); ``check_a11y`` runs the vendored axe-core (``a11y.py``). docs/web-tests.md says
how to run them and how to add a page's test.

Chromium is the system's (``/usr/bin/chromium``, installed by ``tests/ensure_packages.sh``): Playwright never
downloads a browser here. Without it the tests skip, naming it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser import screens
from tests.browser.a11y import check_a11y as run_a11y_check
from tests.browser.guard import PageGuard
from tests.support.processes import Server

CHROMIUM = Path("/usr/bin/chromium")
LOOPBACK_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"
"""No host but localhost and 127.0.0.1 resolves: a page that reaches for another site (a CDN, a font host)
fails its request, and the guard reports it, instead of the test depending on the network."""
DEFAULT_TIMEOUT_MS = 15_000
"""How long an action or a wait may take before it fails: a bound on a failure, never a pace."""
GUARDED = pytest.StashKey[tuple[Page, PageGuard]]()
STARTED = pytest.StashKey[float]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expect_http_error(status, path): the page's test expects an answer of that status to a URL containing path",
    )
    config.addinivalue_line("markers", "xdist_group(name): pytest-xdist's; declared too for a run without it")
    config.stash[STARTED] = time.time()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Fails a test whose guarded page had problems, once the test's body has run. A failed test's
    error carries the page's problems (a console error often explains the failure) and the path of a
    screenshot of the page as the failure left it."""
    __tracebackhide__ = True
    try:
        result = yield
    except Exception as error:
        explain(item, error, with_problems=True)
        raise
    guarded = item.stash.get(GUARDED, None)
    if guarded is not None:
        try:
            guarded[1].check()
        except AssertionError as error:
            explain(item, error, with_problems=False)
            raise
    return result


def explain(item: pytest.Item, error: Exception, with_problems: bool) -> None:
    """Adds the page's problems, a screenshot's path and the end of the server's log to the error of
    a test that used ``page``; none for an expected failure (``xfail``), which would only leave a
    screenshot behind each run."""
    guarded = item.stash.get(GUARDED, None)
    if guarded is None or item.get_closest_marker("xfail") is not None:
        return
    server = getattr(item, "funcargs", {}).get("web_server")
    if isinstance(server, Server):
        error.add_note("the end of the server's log:\n" + server.tail(4000))
    page, guard = guarded
    if with_problems and guard.problems:
        error.add_note(guard.report())
    shot = screens.shoot_failure(page, item.name)
    if shot is not None:
        error.add_note(f"screenshot at the failure: {shot}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Says where this run's screenshots are (counted by their time: xdist's workers took them)."""
    started = config.stash.get(STARTED, time.time())
    shots = screens.SCREENSHOTS.glob("*.png") if screens.SCREENSHOTS.is_dir() else []
    written = [p for p in shots if p.stat().st_mtime >= started]
    if written:
        terminalreporter.write_line(f"browser screenshots: {len(written)} in {screens.SCREENSHOTS}")


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``dragonhall serve`` on a free port with the embedded default: SQLite in a directory of its own,
    and the bots, timers and read models on the server's own threads (no broker)."""
    tmp = tmp_path_factory.mktemp("web")
    env = {"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": str(tmp / "var"), "DRAGONHALL_BROKER_URL": ""}
    served = Server(env, tmp)
    yield served
    served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, the system's, for one test module: Playwright's synchronous API holds an
    event loop in this thread while it runs, which later tests on the same worker (``asyncio.run``)
    could not start theirs beside."""
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}: run tests/ensure_packages.sh (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=[LOOPBACK_ONLY])
        yield chromium
        chromium.close()


def open_page(browser: Browser, guard: PageGuard) -> Page:
    """A page in a browser context of its own (no cookies or storage shared with another test),
    watched by ``guard``; closing its context is the caller's."""
    width, height = screens.SIZES[0]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    guard.watch(page)
    return page


@pytest.fixture
def guard() -> PageGuard:
    """The guard of the test's ``page``: ``guard.expect_http_error(404, "/api/v1/games/")``."""
    return PageGuard()


@pytest.fixture
def page(browser: Browser, guard: PageGuard, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page, guarded: its test fails listing each problem the page had."""
    for marker in request.node.iter_markers("expect_http_error"):
        guard.expect_http_error(*marker.args)
    fresh = open_page(browser, guard)
    request.node.stash[GUARDED] = (fresh, guard)
    yield fresh
    fresh.context.close()


@pytest.fixture
def shoot(request: pytest.FixtureRequest) -> Callable[[Page, str], list[Path]]:
    """``shoot(page, name)``: the page at 1440x900 and 375x812, saved under artifacts/screenshots/."""

    def take(page: Page, name: str) -> list[Path]:
        paths = screens.shoot(page, request.node.name, name)
        print(*(f"screenshot: {p}" for p in paths), sep="\n")
        return paths

    return take


@pytest.fixture
def check_a11y() -> Callable[[Page], None]:
    """``check_a11y(page)``: fails on a serious or critical axe-core violation."""
    return run_a11y_check
