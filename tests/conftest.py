"""Shared fixtures: platforms on each store, real services, and a live HTTP server.

A test that needs PostgreSQL or Redis uses the real one. When the service is
down, the test is skipped on a developer's machine (with a message naming the
service) and fails in CI (``CI=true``), where ``.ci/run`` starts both.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.toygame import DICE_RACE
from wiring import register_games

register_games()  # the four games, as every process's composition root registers them
register_games([DICE_RACE])  # and the toy game the platform's tests play

PG_URL = os.environ.get("DRAGONHALL_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("DRAGONHALL_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def pytest_addoption(parser: Any) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        help="also run the tests marked thorough, and run every property with its larger counts "
        "(more random games, examples and replay steps: tests.support.runs)",
    )


def pytest_configure(config: Any) -> None:
    """Counts chosen by ``tests.support.runs.count`` follow ``--thorough``: set before the test
    modules, whose decorators read them, are imported."""
    from tests.support.runs import set_thorough

    set_thorough(bool(config.getoption("--thorough")))


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Tests marked ``thorough`` run only with ``--thorough``: ``make test`` runs their fixed sample.

    Tests on PostgreSQL run on one xdist worker (``--dist loadgroup``), one at a time: a test's
    platforms open several connection pools each, and two such tests side by side have passed the
    server's 100 connections ("too many clients")."""
    for item in items:
        if "pg_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("postgres"))
    if config.getoption("--thorough"):
        return
    skip = pytest.mark.skip(reason="a long property run: pass --thorough to run it")
    for item in items:
        if "thorough" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _keeps_the_umask() -> Iterator[None]:
    """A test that runs a server command in this process (``api.cli``) sets its umask to 077, as
    the command does for itself: put it back, so that later tests make files as they expect."""
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


def _reachable(url: str, default_port: int) -> bool:
    from urllib.parse import urlparse

    u = urlparse(url)
    try:
        with socket.create_connection((u.hostname or "127.0.0.1", u.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def need_service(name: str, url: str, port: int) -> None:
    if _reachable(url, port):
        return
    message = f"{name} is not reachable at {url}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{message} (CI needs it: .ci/run starts it)")
    pytest.skip(f"{message}; start {name} to run this test")


@pytest.fixture
def pg_url() -> str:
    need_service("PostgreSQL", PG_URL, 5432)
    return PG_URL


@pytest.fixture
def redis_url() -> str:
    need_service("Redis", REDIS_URL, 6379)
    return REDIS_URL


@pytest.fixture
def pg_schema(pg_url: str) -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped after the test."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    yield schema
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def make_settings(store: str, tmp: Path | None = None, **overrides: Any) -> Any:
    """Settings of a test platform. Webhooks may reach 127.0.0.1, where the ``webhook_server``
    fixture listens (an operator allows it the same way); a test of the refusal overrides it."""
    from services.common.config import Settings

    env = {
        "DRAGONHALL_STORE": store,
        "DRAGONHALL_SECRET_KEY": "11" * 32,
        "DRAGONHALL_WEBHOOK_ALLOW_NETWORKS": "127.0.0.1/32",
    }
    if tmp is not None:
        env["DRAGONHALL_DATA_DIR"] = str(tmp)
    return Settings.from_env(env, **overrides)


@pytest.fixture
def platform() -> Iterator[Any]:
    """In-memory store, read models in-process, no background work."""
    from services.common.ports import NullWork
    from wiring import bootstrap

    p = bootstrap(make_settings("memory"), work=NullWork())
    yield p
    p.close()


@pytest.fixture
def live_platform() -> Iterator[Any]:
    """In-memory store with the embedded Celery worker: bots play by themselves."""
    from wiring import bootstrap

    p = bootstrap(make_settings("memory"))
    yield p
    p.close()


@pytest.fixture
def sqlite_platform(tmp_path: Path) -> Iterator[Any]:
    from wiring import bootstrap

    p = bootstrap(make_settings("sqlite", tmp_path))
    yield p
    p.close()


@pytest.fixture
def client(platform: Any) -> Any:
    from api.app import create_app
    from tests.support.api_client import ApiClient

    return ApiClient(create_app(platform).test_client(), platform)


@pytest.fixture
def live_client(live_platform: Any) -> Any:
    from api.app import create_app
    from tests.support.api_client import ApiClient

    return ApiClient(create_app(live_platform).test_client(), live_platform)


class _Hooks:
    def __init__(self) -> None:
        import http.server
        import json as _json
        import threading
        from urllib.parse import parse_qs, urlparse

        self.received: list[Any] = []
        self.requests: list[tuple[Any, bytes]] = []
        """Each POST's headers (read case-insensitively with ``.get``) and its raw body: a
        signature is checked over the bytes sent."""
        hooks = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                hooks.requests.append((self.headers, body))
                hooks.received.append(_json.loads(body or b"null"))
                status = int(parse_qs(urlparse(self.path).query).get("status", ["200"])[0])
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def webhook_server() -> Iterator[Any]:
    """A local HTTP endpoint that records the webhooks it receives, their bodies in ``received``
    and their headers and raw bodies in ``requests`` (``?status=N`` answers N)."""
    hooks = _Hooks()
    yield hooks
    hooks.close()
