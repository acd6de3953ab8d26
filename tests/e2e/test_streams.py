"""The game and account streams, and long polling, through the HTTP API.

Every event reaches a game stream once and in order, across reconnections with ``after``; each
line is what the REST reads answer the caller at that version (each seat its own share, spectators
the public one); the account stream tells each account what concerns it; Server-Sent Events carry
the same lines; a process refuses streams past its limit.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import services.streams.lines
from api.app import create_app
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap


@pytest.fixture
def quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream with nothing to send says so at once (``ApiClient.stream_until_quiet``)."""
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 0.0)


@pytest.fixture
def api(quiet: None) -> Iterator[ApiClient]:
    platform = bootstrap(make_settings("memory"), work=NullWork())
    yield ApiClient(create_app(platform).test_client(), platform)
    platform.close()


def _table(api: ApiClient, players: int = 2) -> tuple[str, list[dict[str, Any]]]:
    people = [api.player(f"p{i}") for i in range(players)]
    game_id = api.new_game(people[0]["token"], players=players)["id"]
    for p in people:
        assert api.seat(game_id, p["token"]).status == 201
    return game_id, people


def _play(api: ApiClient, game_id: str, people: list[dict[str, Any]], decisions: int) -> None:
    """``decisions`` moves, each the first legal move of the first awaited seat."""
    for _ in range(decisions):
        doc = api.game(game_id)
        if doc["status"] != "active":
            return
        seat = doc["awaiting"][0]
        token = people[seat]["token"]
        move = api.legal(game_id, token)["moves"][0]
        assert api.move(game_id, token, move).status == 201


def _events_of(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for line in lines if line["type"] == "events" for e in line["events"]]


def test_a_game_stream_sends_every_event_once_in_order_across_reconnections(api: ApiClient) -> None:
    game_id, people = _table(api)
    token = people[0]["token"]
    first = api.stream_lines(f"/api/v1/games/{game_id}/stream", token)
    assert first[0]["type"] == "game"
    assert first[0]["game"] == api.game(game_id, token)
    seen = first[0]["version"]
    received: list[dict[str, Any]] = []
    while api.game(game_id)["status"] == "active":
        _play(api, game_id, people, 3)
        lines = api.stream_lines(f"/api/v1/games/{game_id}/stream?after={seen}", token)
        assert lines, "a change since the last version is sent on reconnection"
        assert all(line["type"] == "events" for line in lines)
        received += _events_of(lines)
        seen = lines[-1]["version"]
    versions = [e["version"] for e in received]
    assert versions == list(range(first[0]["version"] + 1, seen + 1))
    history = api.call("GET", f"/api/v1/games/{game_id}/events?after={first[0]['version']}", token=token).body
    assert [(e["version"], e["type"]) for e in received] == [(e["version"], e["type"]) for e in history["events"]]
    assert received[-1] == history["events"][-1], "the last line is sent once the game has ended: all revealed"


def test_a_stream_ends_with_the_game_and_a_resumed_one_ends_at_once(api: ApiClient) -> None:
    game_id, people = _table(api)
    _play(api, game_id, people, 500)
    doc = api.game(game_id)
    assert doc["status"] == "finished"
    status, frames = api.stream_until_quiet(f"/api/v1/games/{game_id}/stream")
    assert status == 200 and [json.loads(f)["type"] for f in frames] == ["game"]
    lines = api.stream_lines(f"/api/v1/games/{game_id}/stream?after={doc['version']}")
    assert [(line["type"], line["events"], line["status"]) for line in lines] == [("events", [], "finished")]


def test_each_seat_and_a_spectator_receive_what_rest_gives_them(api: ApiClient) -> None:
    game_id, people = _table(api, players=3)
    viewers = [p["token"] for p in people] + [None]
    openings = {i: api.stream_lines(f"/api/v1/games/{game_id}/stream", t)[0] for i, t in enumerate(viewers)}
    for i, token in enumerate(viewers):
        doc = api.game(game_id, token)
        assert openings[i]["game"] == doc
        legal = api.legal(game_id, token) if token and set(doc["your_seats"]) & set(doc["awaiting"]) else None
        assert openings[i]["legal_moves"] == legal
    _play(api, game_id, people, 4)
    assert api.game(game_id)["status"] == "active"
    for i, token in enumerate(viewers):
        after = openings[i]["version"]
        (line,) = api.stream_lines(f"/api/v1/games/{game_id}/stream?after={after}", token)
        rest = api.call("GET", f"/api/v1/games/{game_id}/events?after={after}", token=token).body
        doc = api.game(game_id, token)
        assert line["events"] == rest["events"]
        assert (line["version"], line["awaiting"], line["status"], line["clocks"]) == (
            doc["version"],
            doc["awaiting"],
            doc["status"],
            doc["clocks"],
        )
        mine = token is not None and set(doc["your_seats"]) & set(doc["awaiting"])
        assert line["legal_moves"] == (api.legal(game_id, token) if mine else None)
    secrets = [json.dumps(api.stream_lines(f"/api/v1/games/{game_id}/stream?after=0", t)) for t in viewers]
    assert len(set(secrets)) == len(viewers), "each seat sees its own secrets, the spectator none"


def test_a_stream_pushes_a_move_to_a_waiting_client(api: ApiClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 30.0)
    game_id, people = _table(api)
    start = api.game(game_id)["version"]
    got: list[bytes] = []

    def follow() -> None:
        r = api.http.get(f"/api/v1/games/{game_id}/stream?after={start}", buffered=False)
        try:  # the keep-alive it opens with at once (nothing to say yet), then the move
            got.append(next(frame for frame in r.response if frame != b"\n"))
        finally:
            r.close()

    reader = threading.Thread(target=follow)
    reader.start()
    time.sleep(0.2)
    _play(api, game_id, people, 1)
    reader.join(timeout=20)
    assert not reader.is_alive()
    assert json.loads(got[0])["version"] > start


def test_server_sent_events_carry_the_same_lines_and_resume_from_last_event_id(api: ApiClient) -> None:
    game_id, people = _table(api)
    _play(api, game_id, people, 2)
    sse = "text/event-stream"
    status, frames = api.stream_until_quiet(f"/api/v1/games/{game_id}/stream?after=1", accept=sse)
    assert status == 200
    (frame,) = frames
    head, _, data = frame.decode().rstrip("\n").partition("\ndata: ")
    line = json.loads(data)
    assert head == f"id: {line['version']}\nevent: events"
    assert line == api.stream_lines(f"/api/v1/games/{game_id}/stream?after=1")[0]
    _play(api, game_id, people, 1)
    status, frames = api.stream_until_quiet(
        f"/api/v1/games/{game_id}/stream", accept=sse, **{"Last-Event-ID": str(line["version"])}
    )
    resumed = json.loads(frames[0].decode().partition("\ndata: ")[2])
    assert resumed["events"][0]["version"] == line["version"] + 1


def test_the_account_stream_tells_each_account_what_concerns_it(api: ApiClient) -> None:
    game_id, people = _table(api)
    api.platform.wait_for_projections()
    for seat, p in enumerate(people):
        lines = api.stream_lines("/api/v1/stream/events?after=0", p["token"])
        kinds = [(line["type"], line.get("game_id"), line.get("seat")) for line in lines]
        assert ("game_started", game_id, seat) in kinds
        awaited = seat in api.game(game_id)["awaiting"]
        assert (("awaiting", game_id, seat) in kinds) == awaited
        assert (("your_turn", game_id, seat) in kinds) == awaited
    outsider = api.player("outsider")
    assert not [
        line for line in api.stream_lines("/api/v1/stream/events?after=0", outsider["token"]) if line.get("game_id")
    ]
    _play(api, game_id, people, 500)
    api.platform.wait_for_projections()
    lines = api.stream_lines("/api/v1/stream/events?after=0", people[0]["token"])
    cursors = [line["cursor"] for line in lines if "cursor" in line]
    assert cursors == sorted(set(cursors)), "in cursor order, each once"
    assert lines[-1]["type"] == "game_finished" and lines[-1]["status"] == "finished"
    assert not api.stream_lines(f"/api/v1/stream/events?after={cursors[-1]}", people[0]["token"])


def test_the_account_stream_needs_a_token_and_checks_its_cursor(api: ApiClient) -> None:
    assert api.stream_until_quiet("/api/v1/stream/events")[0] == 401
    token = api.player()["token"]
    assert api.stream_until_quiet("/api/v1/stream/events?after=-1", token)[0] == 400
    assert api.stream_until_quiet("/api/v1/stream/events", token, **{"Last-Event-ID": "x"})[0] == 400


def test_a_game_stream_refuses_what_rest_refuses(api: ApiClient) -> None:
    game_id, _people = _table(api)
    stranger = api.player("stranger")["token"]
    assert api.stream_until_quiet("/api/v1/games/00000000-0000-0000-0000-000000000000/stream")[0] == 404
    assert api.stream_until_quiet(f"/api/v1/games/{game_id}/stream?seat=0", stranger)[0] == 403
    assert api.stream_until_quiet(f"/api/v1/games/{game_id}/stream?after=999")[0] == 400
    assert api.stream_until_quiet(f"/api/v1/games/{game_id}/stream?colour=red")[0] == 400
    assert api.stream_until_quiet(f"/api/v1/games/{game_id}/stream", "not-a-token")[0] == 401


def test_long_polling_answers_when_an_event_comes_or_when_the_wait_is_over(api: ApiClient) -> None:
    game_id, people = _table(api)
    head = api.game(game_id)["version"]
    empty = api.call("GET", f"/api/v1/games/{game_id}/events?after={head}&wait=0.2")
    assert (empty.status, empty.body["events"]) == (200, [])
    answer: list[Any] = []
    poll = threading.Thread(
        target=lambda: answer.append(api.call("GET", f"/api/v1/games/{game_id}/events?after={head}&wait=30"))
    )
    poll.start()
    time.sleep(0.2)
    _play(api, game_id, people, 1)
    poll.join(timeout=20)
    assert not poll.is_alive()
    assert answer[0].status == 200 and answer[0].body["events"][0]["version"] == head + 1
    assert api.call("GET", f"/api/v1/games/{game_id}/events?wait=61").status == 400


def test_a_process_refuses_streams_past_its_limit(quiet: None) -> None:
    platform = bootstrap(make_settings("memory", max_streams=1), work=NullWork())
    try:
        api = ApiClient(create_app(platform).test_client(), platform)
        game_id, _people = _table(api)
        held = api.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
        try:
            refused = api.http.get(f"/api/v1/games/{game_id}/stream")
            assert refused.status_code == 503
            assert refused.headers["Retry-After"]
            assert refused.get_json()["error"]["code"] == "too_many_streams"
        finally:
            held.close()
        again = api.http.get(f"/api/v1/games/{game_id}/stream", buffered=False)
        assert again.status_code == 200, "a closed stream gives its slot back"
        again.close()
    finally:
        platform.close()


def test_one_caller_holds_at_most_its_share_of_the_streams_and_the_others_still_get_theirs(quiet: None) -> None:
    platform = bootstrap(make_settings("memory", max_streams=4, max_streams_per_caller=2), work=NullWork())
    try:
        api = ApiClient(create_app(platform).test_client(), platform)
        game_id, people = _table(api)
        path = f"/api/v1/games/{game_id}/stream"
        held = [api.http.get(path, buffered=False) for _ in range(2)]
        try:
            assert all(h.status_code == 200 for h in held)
            for refused in (api.http.get(path), api.http.get(f"/api/v1/games/{game_id}/events?after=0&wait=5")):
                assert refused.status_code == 429, "the address holds its share: a stream or a long poll is refused"
                assert refused.headers["Retry-After"]
                error = refused.get_json()["error"]
                assert error["code"] == "too_many_streams_per_caller"
                assert "DRAGONHALL_MAX_STREAMS_PER_CALLER" in error["message"], "the body names the limit"
            other = api.http.get(path, environ_base={"REMOTE_ADDR": "10.0.0.2"}, buffered=False)
            mine = api.http.get(path, headers={"Authorization": f"Bearer {people[0]['token']}"}, buffered=False)
            assert (other.status_code, mine.status_code) == (200, 200), "other callers still get their streams"
            full = api.http.get(path, environ_base={"REMOTE_ADDR": "10.0.0.3"})
            assert full.status_code == 503 and full.get_json()["error"]["code"] == "too_many_streams"
            other.close()
            mine.close()
        finally:
            held.pop().close()
        again = api.http.get(path, buffered=False)
        assert again.status_code == 200, "a closed stream gives its caller's share back"
        again.close()
        held[0].close()
    finally:
        platform.close()


def test_a_revoked_token_ends_the_streams_it_opened(api: ApiClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 3600.0)
    monkeypatch.setattr(services.streams.lines, "RECHECK", 3600.0)  # only the revocation's wake-up can end them
    game_id, people = _table(api)
    owner = people[0]["token"]
    made = api.call("POST", "/api/v1/me/tokens", {"name": "bot", "scopes": ["bot"]}, owner).body
    ended: list[str] = []

    def hold(path: str) -> threading.Thread:
        def follow() -> None:
            r = api.http.get(path, headers={"Authorization": f"Bearer {made['token']}"}, buffered=False)
            try:
                for _ in r.response:
                    pass
            finally:
                r.close()
            ended.append(path)

        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        return thread

    version = api.game(game_id)["version"]
    held = [hold(f"/api/v1/games/{game_id}/stream?after={version}"), hold("/api/v1/stream/events")]
    time.sleep(0.3)
    assert not ended
    assert api.call("DELETE", f"/api/v1/me/tokens/{made['id']}", token=owner).status == 204
    for thread in held:
        thread.join(timeout=20)
    assert len(ended) == 2, "both streams ended when their token was revoked"
    assert api.stream_until_quiet("/api/v1/stream/events", made["token"])[0] == 401
