"""The streams as iterators, against fake transports that speak the wire protocol of issue 21's design:
NDJSON and SSE lines, keep-alives, cut connections resumed with ``after``, and polling on a server
without stream endpoints."""

from __future__ import annotations

import httpx
import pytest

from dragonhall import ServerError, Unauthenticated, Unavailable, Unreachable
from dragonhall.streams import ndjson_lines, sse_lines
from tests.client.fakes import Script, client, error, ndjson, sse

STREAM = "GET /api/v1/games/g1/stream"
ACCOUNT = "GET /api/v1/stream/events"
GAME = {"id": "g1", "status": "active", "version": 5, "awaiting": [0], "your_seats": [0], "view": {}}
LEGAL = {"version": 5, "seat": 0, "total": 1, "offset": 0, "moves": [{"type": "roll"}]}


def events_line(version: int, status: str = "active") -> dict:
    event = {"version": version, "type": "DiceRolled", "source": "rules", "data": {}, "at": "2026-01-01T00:00:00"}
    return {"type": "events", "version": version, "events": [event], "awaiting": [1], "status": status}


def test_ndjson_lines_skip_keep_alives() -> None:
    assert list(ndjson_lines(['{"type": "a"}', "", "  ", '{"type": "b"}'])) == [{"type": "a"}, {"type": "b"}]


def test_sse_lines_join_data_lines_skip_comments_and_drop_a_cut_frame() -> None:
    text = ["id: 3", "event: events", "data: {", 'data: "version": 3}', "", ": keep-alive", "", "data: {"]
    assert list(sse_lines(text)) == [{"type": "events", "version": 3}]


def test_a_game_stream_yields_every_line_once_across_a_cut_connection() -> None:
    script = Script(
        {
            STREAM: [
                ndjson(
                    {"type": "game", "version": 5, "game": GAME, "legal_moves": LEGAL}, "", events_line(6), cut=True
                ),
                ndjson(events_line(7), "", events_line(8, "finished")),
            ]
        }
    )
    dh, _ = client(script)
    lines = list(dh.game_stream("g1"))
    assert [(line["type"], line["version"]) for line in lines] == [
        ("game", 5),
        ("events", 6),
        ("events", 7),
        ("events", 8),
    ]
    first, second = script.sent(STREAM)
    assert "after" not in first.url.params and second.url.params["after"] == "6"
    assert first.headers["Accept"] == "application/x-ndjson" and first.headers["Authorization"] == "Bearer secret"


def test_a_game_stream_resumed_with_after_asks_for_the_events_after_it() -> None:
    script = Script({STREAM: [ndjson(events_line(12, "abandoned"))]})
    dh, _ = client(script)
    assert [line["version"] for line in dh.game_stream("g1", after=11)] == [12]
    assert script.requests[0].url.params["after"] == "11"


def test_a_line_cut_in_half_is_read_again_after_reconnecting() -> None:
    half = httpx.Response(200, stream=ndjson(events_line(6)).stream)
    half.stream.chunks.append(b'{"type": "events", "vers')  # the server went away mid-line
    script = Script({STREAM: [half, ndjson(events_line(7, "finished"))]})
    dh, _ = client(script)
    assert [line["version"] for line in dh.game_stream("g1", after=5)] == [6, 7]
    assert script.requests[1].url.params["after"] == "6"


def test_a_game_stream_ends_with_the_game() -> None:
    ended = {**GAME, "status": "finished", "awaiting": []}
    script = Script({STREAM: [ndjson({"type": "game", "version": 9, "game": ended, "legal_moves": None})]})
    dh, _ = client(script)
    assert len(list(dh.game_stream("g1"))) == 1 and len(script.requests) == 1


def test_the_sse_form_resumes_with_last_event_id() -> None:
    first = sse((5, "game", {"type": "game", "version": 5, "game": GAME, "legal_moves": LEGAL}), None, cut=True)
    second = sse((6, "events", {k: v for k, v in events_line(6, "finished").items() if k != "type"}))
    script = Script({STREAM: [first, second]})
    dh, _ = client(script)
    lines = list(dh.game_stream("g1", format="sse"))
    assert [(line["type"], line["version"]) for line in lines] == [("game", 5), ("events", 6)]
    opened, resumed = script.sent(STREAM)
    assert opened.headers["Accept"] == "text/event-stream"
    assert resumed.headers["Last-Event-ID"] == "5" and resumed.url.params["after"] == "5"


def test_the_account_stream_resumes_after_the_last_cursor_and_sends_the_awaited_games_again() -> None:
    awaiting = {"type": "awaiting", "game_id": "g1", "game": "tarasque", "seat": 0, "version": 5, "deadline": None}
    turn = {"type": "your_turn", "cursor": 41, "at": "2026-01-01T00:00:00", "game_id": "g2", "seat": 1, "version": 3}
    done = {"type": "game_finished", "cursor": 42, "at": "2026-01-01T00:00:01", "game_id": "g1", "outcome": {}}
    script = Script({ACCOUNT: [ndjson(awaiting, turn, cut=True), ndjson(awaiting, "", done)]})
    dh, _ = client(script)
    stream = dh.account_stream()
    lines = [next(stream) for _ in range(4)]
    assert [line["type"] for line in lines] == ["awaiting", "your_turn", "awaiting", "game_finished"]
    first, second = script.sent(ACCOUNT)
    assert "after" not in first.url.params and second.url.params["after"] == "41"


def test_a_stream_refused_for_its_token_raises() -> None:
    """A revoked token: the server closes the stream, and the reconnection is refused."""
    script = Script({ACCOUNT: [ndjson({"type": "awaiting", "game_id": "g1"}), error(401, "unauthenticated")]})
    dh, _ = client(script)
    stream = dh.account_stream()
    assert next(stream)["game_id"] == "g1"
    with pytest.raises(Unauthenticated):
        next(stream)


def test_a_busy_server_is_asked_again_after_its_retry_after() -> None:
    busy = error(503, "store_unavailable", headers={"Retry-After": "4"})
    script = Script({STREAM: [busy, ndjson(events_line(3, "finished"))]})
    dh, waits = client(script)
    assert [line["version"] for line in dh.game_stream("g1", after=2)] == [3]
    assert waits == [4.0]


def test_an_opening_a_proxy_refused_for_now_is_tried_again() -> None:
    """A fan-out engine in front of the server refuses at once the openings past what its queues hold
    (Pushpin in a burst: 502 "Error while proxying to origin.", 500 "Accept service unavailable."):
    the stream opens again after a backoff, as after a 503."""
    refusals = [
        httpx.Response(502, text="Error while proxying to origin.\n"),
        httpx.Response(500, text="Accept service unavailable.\n"),
        httpx.Response(504, text="Gateway Timeout\n"),
    ]
    script = Script({STREAM: [*refusals, ndjson(events_line(3, "finished"))]})
    dh, waits = client(script)
    assert [line["version"] for line in dh.game_stream("g1", after=2)] == [3]
    assert len(waits) == 3 and all(w > 0 for w in waits)


def test_the_servers_own_error_is_raised_not_tried_again() -> None:
    """A 500 with the API's JSON error is the server's fault, not a passing refusal: it is raised."""
    script = Script({STREAM: [error(500, "internal_error", "something broke"), ndjson(events_line(3, "finished"))]})
    dh, _ = client(script)
    with pytest.raises(ServerError):
        list(dh.game_stream("g1", after=2))


def test_the_idle_hook_runs_on_keep_alives_and_can_stop_a_stream() -> None:
    class Stop(Exception):
        pass

    def idle() -> None:
        raise Stop

    script = Script({STREAM: [ndjson(events_line(6), "", events_line(7))]})
    dh, _ = client(script)
    stream = dh.game_stream("g1", after=5, idle=idle)
    assert next(stream)["version"] == 6
    with pytest.raises(Stop):
        next(stream)


def test_without_a_stream_endpoint_the_game_is_followed_by_long_polling() -> None:
    page = {"version": 6, "events": events_line(6)["events"]}
    after = {**GAME, "version": 6, "awaiting": [1]}
    ended = {**GAME, "version": 7, "status": "finished", "awaiting": []}
    last = {"version": 7, "events": events_line(7)["events"]}
    script = Script(
        {
            "GET /api/v1/games/g1": [
                httpx.Response(200, json=GAME),
                httpx.Response(200, json=after),
                httpx.Response(200, json=ended),
            ],
            "GET /api/v1/games/g1/legal-moves": [httpx.Response(200, json=LEGAL)],
            "GET /api/v1/games/g1/events": [
                httpx.Response(200, json={"version": 5, "events": []}),
                httpx.Response(200, json=page),
                httpx.Response(200, json=last),
            ],
        }
    )
    dh, _ = client(script)
    lines = list(dh.game_stream("g1", wait=20))
    assert [(line["type"], line["version"]) for line in lines] == [("game", 5), ("events", 6), ("events", 7)]
    assert lines[0]["legal_moves"] == LEGAL and lines[1]["legal_moves"] is None
    assert lines[1]["awaiting"] == [1] and lines[2]["status"] == "finished"
    polls = script.sent("GET /api/v1/games/g1/events")
    assert [dict(r.url.params) for r in polls] == [
        {"after": "5", "wait": "20"},
        {"after": "5", "wait": "20"},
        {"after": "6", "wait": "20"},
    ]


def test_a_server_that_does_not_take_wait_is_polled_plainly() -> None:
    refused = error(400, "invalid_request", fields={"wait": ["Unknown field."]})
    ended = {**GAME, "version": 6, "status": "finished", "awaiting": []}
    script = Script(
        {
            "GET /api/v1/games/g1": [httpx.Response(200, json=ended)],
            "GET /api/v1/games/g1/events": [
                refused,
                httpx.Response(200, json={"version": 5, "events": []}),
                httpx.Response(200, json={"version": 6, "events": events_line(6)["events"]}),
            ],
        }
    )
    dh, waits = client(script)
    lines = list(dh.game_stream("g1", after=5, poll_interval=0.5))
    assert [line["version"] for line in lines] == [6]
    assert [dict(r.url.params) for r in script.sent("GET /api/v1/games/g1/events")] == [
        {"after": "5", "wait": "30"},
        {"after": "5"},
        {"after": "5"},
    ]
    assert waits == [0.5]


def test_without_an_account_stream_the_inbox_is_polled_and_each_item_shown_once() -> None:
    first = {
        "awaiting": [{"game_id": "g1", "game": "tarasque", "seat": 0, "version": 5}],
        "reminders": [],
        "invitations": [],
    }
    second = {
        "awaiting": [{"game_id": "g1", "game": "tarasque", "seat": 0, "version": 5}],
        "reminders": [{"id": "r1", "game_id": "g1", "seat": 0}],
        "invitations": [],
    }
    third = {
        "awaiting": [{"game_id": "g1", "game": "tarasque", "seat": 0, "version": 9}],
        "reminders": second["reminders"],
        "invitations": [],
    }
    script = Script({"GET /api/v1/me/inbox": [httpx.Response(200, json=b) for b in (first, second, third)]})
    dh, _ = client(script)
    stream = dh.account_stream(poll_interval=0.1)
    lines = [next(stream) for _ in range(3)]
    assert [(line["type"], line.get("version")) for line in lines] == [
        ("awaiting", 5),
        ("reminder", None),
        ("awaiting", 9),
    ]


def test_a_stream_whose_connections_keep_breaking_raises_unreachable() -> None:
    """A server that accepts each opening and drops it before a line is a server that cannot be
    reached, as for any call (docs/bots.md): ``Unreachable``, ``connection_lost``, a ConnectionError."""
    for cut in (True, False):
        dh, _ = client(Script({STREAM: [lambda request, cut=cut: ndjson(cut=cut)]}))
        with pytest.raises(Unreachable) as lost:
            list(dh.game_stream("g1", after=2))
        assert lost.value.code == "connection_lost" and isinstance(lost.value, ConnectionError)
    dh, _ = client(Script({STREAM: [httpx.ConnectError("connection refused")]}))
    with pytest.raises(Unreachable) as refused:
        list(dh.game_stream("g1", after=2))
    assert refused.value.code == "unreachable"


def test_a_stream_refused_at_every_opening_raises_unavailable() -> None:
    dh, _ = client(Script({STREAM: [lambda request: error(503, "store_unavailable")]}))
    with pytest.raises(Unavailable) as busy:
        list(dh.game_stream("g1", after=2))
    assert busy.value.code == "stream_lost"
