"""Under a plain WSGI server a stream's status and headers go out at once, even with nothing to say
yet (issue 33): the server sends them with the body's first bytes, so a stream that opened with
nothing waited for its first keep-alive, and a client with httpx's default 5 s read timeout gave up
first. Each stream is read from Werkzeug's threaded server, as a client reads it; the keep-alive
due after a silence is put off by an hour, so a stream that waits for it fails the read at once.
(``tests/e2e/test_stream_headers_at_once.py`` holds the gateway of `dragonhall serve` to the same.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from werkzeug.serving import make_server

from api.app import create_app
from services.common.ports import NullWork
from services.streams import lines as streams
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap

DEFAULT_TIMEOUT = httpx.Timeout(5.0)
"""httpx's own default: the client of the report waited no longer."""


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, ApiClient]]:
    """The API under Werkzeug's threaded WSGI server (no RSGI gateway, no stream hub), with its
    in-process client for the calls that set the scene."""
    monkeypatch.setattr(streams, "KEEPALIVE", 3600.0)
    platform = bootstrap(make_settings("memory"), work=NullWork())
    app = create_app(platform)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", ApiClient(app.test_client(), platform)
    finally:
        server.shutdown()
        platform.close()


def opened(url: str, token: str, accept: str = "application/x-ndjson") -> tuple[int, dict[str, str], bytes]:
    """The status, the headers and the first line of a stream read with httpx's default timeout."""
    headers = {"Authorization": f"Bearer {token}", "Accept": accept}
    with httpx.Client(timeout=DEFAULT_TIMEOUT) as http, http.stream("GET", url, headers=headers) as r:
        first = next(r.iter_raw())
        return r.status_code, dict(r.headers), first


@pytest.mark.parametrize(
    ("accept", "keep_alive"), [("application/x-ndjson", b"\n"), ("text/event-stream", b": keep-alive\n\n")]
)
def test_an_account_stream_with_nothing_pending_answers_at_once_with_a_keep_alive(
    served: tuple[str, ApiClient], accept: str, keep_alive: bytes
) -> None:
    base, api = served
    token = api.player("quiet")["token"]
    status, headers, first = opened(f"{base}/api/v1/stream/events", token, accept)
    assert status == 200 and headers["content-type"].startswith(accept)
    assert headers["cache-control"] == "no-cache"
    assert first == keep_alive


def test_a_game_stream_resumed_at_its_head_answers_at_once_with_a_keep_alive(served: tuple[str, ApiClient]) -> None:
    base, api = served
    ann, bea = api.player("ann"), api.player("bea")
    game: dict[str, Any] = api.new_game(ann["token"])
    for p in (ann, bea):
        assert api.seat(game["id"], p["token"]).status == 201
    version = api.game(game["id"], ann["token"])["version"]
    status, _, first = opened(f"{base}/api/v1/games/{game['id']}/stream?after={version}", ann["token"])
    assert status == 200 and first == b"\n"


def test_a_stream_with_lines_waiting_opens_with_them_not_a_keep_alive(served: tuple[str, ApiClient]) -> None:
    """The keep-alive is only for a stream with nothing to send: a pending invitation comes first."""
    base, api = served
    ann, bea = api.player("ann"), api.player("bea")
    api.new_game(ann["token"], invite=["bea"])
    status, _, first = opened(f"{base}/api/v1/stream/events", bea["token"])
    assert status == 200 and b'"invitation"' in first
