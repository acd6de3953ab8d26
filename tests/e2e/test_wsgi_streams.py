"""Under a plain WSGI server (here Flask's test client) a stream is followed by the same
``StreamHub`` as under ``dragonhall serve``, on a loop of the app's own (``api.wsgi_streams``):
its slot comes back as soon as its client closes it, a client that stops reading cannot make the
server queue without end, and closing the platform ends the streams that wait."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import api.stream_feeds
import services.streams.lines
from api.app import create_app
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.e2e.test_streams import _play, _table
from tests.support.api_client import ApiClient
from wiring import bootstrap


@pytest.fixture
def one_slot(monkeypatch: pytest.MonkeyPatch) -> Iterator[ApiClient]:
    """A process that holds one stream at most, whose streams send a keep-alive after each change."""
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 0.0)
    platform = bootstrap(make_settings("memory", max_streams=1), work=NullWork())
    yield ApiClient(create_app(platform).test_client(), platform)
    platform.close()


def _body(response: Any) -> Iterator[bytes]:
    return iter(response.response)


def test_a_stream_read_then_closed_gives_its_slot_back_at_once(one_slot: ApiClient) -> None:
    api = one_slot
    game_id, people = _table(api)
    held = api.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
    body = _body(held)
    assert json.loads(next(body))["type"] == "game"
    assert next(body) == b"\n", "the hub follows on: a keep-alive once it has caught up"
    _play(api, game_id, people, 1)
    assert json.loads(next(body))["type"] == "events", "a move reaches the stream through the hub"
    held.close()
    again = api.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
    assert again.status_code == 200, "the closed stream's slot is free when close returns"
    again.close()


def test_a_client_that_stops_reading_has_its_stream_ended_not_queued_without_end(
    one_slot: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api.stream_feeds, "BACKLOG", 4)
    api_ = one_slot
    game_id, people = _table(api_)
    held = api_.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
    body = _body(held)
    next(body)
    next(body)  # the hub holds it now, and waits for this thread to take each frame
    _play(api_, game_id, people, 20)  # each change queues a line and a keep-alive: far past the backlog
    rest: list[bytes] = []
    reader = threading.Thread(target=lambda: rest.extend(body), daemon=True)  # what was queued, then the end
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "the stream ended when its backlog was full"
    assert b"".join(rest).count(b"\n") <= 2 * 4, "the backlog, and the frames handed over before it filled"
    held.close()
    assert api_.http.get(f"/api/v1/games/{game_id}/stream", buffered=False).status_code == 200


def test_closing_the_platform_ends_the_streams_that_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 3600.0)
    platform = bootstrap(make_settings("memory"), work=NullWork())
    api = ApiClient(create_app(platform).test_client(), platform)
    game_id, _people = _table(api)
    ended: list[bool] = []

    def follow() -> None:
        r: Any = api.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
        for _ in r.response:
            pass
        r.close()
        ended.append(True)

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    reader.join(timeout=0.5)
    assert reader.is_alive(), "the stream waits for the game to change"
    platform.close()
    reader.join(timeout=10)
    assert ended == [True]
