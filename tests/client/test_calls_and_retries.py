"""The client's calls: typed errors from the server's error body, and retries that never apply a move twice."""

from __future__ import annotations

import httpx
import pytest

from dragonhall import (
    BadRequest,
    Conflict,
    NotFound,
    RateLimited,
    RuleViolation,
    ServerError,
    Unavailable,
    Unreachable,
)
from tests.client.fakes import Script, body, client, error

MOVES = "POST /api/v1/games/g1/moves"
PLAYED = httpx.Response(201, json={"version": 8, "events": []})
REPLAYED = httpx.Response(200, json={"version": 8, "events": [], "replayed": True})


def test_a_move_whose_answer_is_lost_is_sent_again_with_the_same_command_id() -> None:
    script = Script({MOVES: [httpx.ReadError("connection reset"), REPLAYED]})
    dh, waits = client(script)
    result = dh.move("g1", {"type": "roll"}, expected_version=7)
    sent = [body(r) for r in script.sent(MOVES)]
    assert len(sent) == 2 and sent[0] == sent[1]
    assert sent[0]["command_id"] and sent[0]["expected_version"] == 7
    assert result["replayed"] is True and len(waits) == 1


def test_a_move_keeps_the_command_id_it_was_given_across_retries() -> None:
    script = Script({MOVES: [error(503, "store_unavailable"), httpx.ConnectError("refused"), PLAYED]})
    dh, _ = client(script)
    dh.move("g1", {"type": "stop"}, command_id="ann-7")
    assert [body(r)["command_id"] for r in script.sent(MOVES)] == ["ann-7"] * 3


def test_two_moves_get_two_command_ids() -> None:
    script = Script({MOVES: [PLAYED]})
    dh, _ = client(script)
    dh.move("g1", {"type": "roll"})
    dh.move("g1", {"type": "roll"})
    first, second = (body(r)["command_id"] for r in script.sent(MOVES))
    assert first != second


def test_a_retry_waits_as_long_as_retry_after_says() -> None:
    script = Script({MOVES: [error(429, "rate_limited", headers={"Retry-After": "3"}), PLAYED]})
    dh, waits = client(script)
    dh.move("g1", {"type": "roll"})
    assert waits == [3.0]


def test_a_rate_limit_that_lasts_raises_with_its_retry_after() -> None:
    script = Script({"GET /api/v1/games/g1": [error(429, "rate_limited", headers={"Retry-After": "2"})]})
    dh, waits = client(script, attempts=3)
    with pytest.raises(RateLimited) as raised:
        dh.game("g1")
    assert raised.value.status == 429 and raised.value.retry_after == 2.0
    assert len(script.requests) == 3 and waits == [2.0, 2.0]


def test_a_write_without_a_command_id_is_not_sent_again_once_it_may_have_arrived() -> None:
    """A game created twice would be two games: only a request that never left is retried."""
    script = Script({"POST /api/v1/games": [httpx.ReadError("connection reset")]})
    dh, _ = client(script)
    with pytest.raises(Unreachable) as lost:
        dh.create_game("tarasque")
    assert lost.value.code == "connection_lost" and isinstance(lost.value.__cause__, httpx.ReadError)
    assert len(script.requests) == 1
    script = Script({"POST /api/v1/games": [error(503, "store_unavailable")]})
    dh, _ = client(script)
    with pytest.raises(Unavailable):
        dh.create_game("tarasque")
    assert len(script.requests) == 1


def test_a_proxys_refusal_for_now_is_tried_again_for_a_read_and_a_move() -> None:
    """Behind a fan-out engine, a burst gets part of its requests refused at once by the proxy (Pushpin:
    502 before the API, or 500 "Accept service unavailable."): a read and a move with its ``command_id``
    are sent again after a backoff; the API's own 500 is raised."""
    proxied = [httpx.Response(502, text="Error while proxying to origin.\n"), httpx.Response(504, text="timeout")]
    game = httpx.Response(200, json={"id": "g1", "status": "active", "version": 8})
    script = Script({"GET /api/v1/games/g1": [*proxied, game], MOVES: [httpx.Response(500, text="busy\n"), PLAYED]})
    dh, waits = client(script)
    assert dh.game("g1")["version"] == 8
    assert dh.move("g1", {"type": "roll"}, command_id="ann-8")["version"] == 8
    assert len(waits) == 3 and [body(r)["command_id"] for r in script.sent(MOVES)] == ["ann-8"] * 2
    script = Script({"GET /api/v1/games/g1": [error(500, "internal_error"), game]})
    dh, _ = client(script)
    with pytest.raises(ServerError):
        dh.game("g1")


def test_a_write_without_a_command_id_is_not_sent_again_after_a_proxys_502() -> None:
    """A proxy's 502 may come after the server applied the request: a game created twice would be two."""
    script = Script({"POST /api/v1/games": [httpx.Response(502, text="Bad Gateway"), httpx.Response(201, json={})]})
    dh, _ = client(script)
    with pytest.raises(ServerError):
        dh.create_game("tarasque")
    assert len(script.requests) == 1


def test_a_write_that_could_not_connect_is_sent_again() -> None:
    created = httpx.Response(201, json={"id": "g2", "status": "open"})
    script = Script({"POST /api/v1/games": [httpx.ConnectError("refused"), created]})
    dh, _ = client(script)
    assert dh.create_game("tarasque", 3)["id"] == "g2"
    assert [body(r) for r in script.requests] == [{"game": "tarasque", "players": 3}] * 2


def test_a_refused_move_raises_its_rule() -> None:
    rule = {"id": "tarasque.take", "book": "tarasque", "section": "deux dés", "text": "a pair takes a middle tile"}
    script = Script({MOVES: [error(422, "illegal_move", "you need a pair", rule=rule)]})
    dh, _ = client(script)
    with pytest.raises(RuleViolation) as raised:
        dh.move("g1", {"type": "take_tile", "tile": "red-sea", "dice": 1})
    assert raised.value.code == "illegal_move" and raised.value.rule == rule and len(script.requests) == 1


def test_a_stale_move_raises_a_conflict_naming_the_current_version() -> None:
    script = Script({MOVES: [error(409, "stale_version", current_version=12)]})
    dh, _ = client(script)
    with pytest.raises(Conflict) as raised:
        dh.move("g1", {"type": "roll"}, expected_version=11)
    assert raised.value.current_version == 12


def test_errors_are_typed_by_status_with_the_fields_at_fault() -> None:
    bad = error(400, "invalid_request", fields={"players": ["must be at least 1"]})
    script = Script({"POST /api/v1/games": [bad], "GET /api/v1/games/nope": [error(404, "game_not_found")]})
    dh, _ = client(script)
    with pytest.raises(BadRequest) as raised:
        dh.create_game("tarasque", 0)
    assert raised.value.fields == {"players": ["must be at least 1"]}
    with pytest.raises(NotFound) as missing:
        dh.game("nope")
    assert missing.value.code == "game_not_found"


def test_only_the_parameters_given_are_sent() -> None:
    """The server refuses a query parameter it does not take: absent ones are left out."""
    page = httpx.Response(200, json={"version": 3, "seat": 0, "total": 0, "offset": 0, "moves": []})
    script = Script({"GET /api/v1/games/g1/legal-moves": [page]})
    dh, _ = client(script)
    dh.legal_moves("g1")
    dh.legal_moves("g1", seat=1, offset=5)
    assert [dict(r.url.params) for r in script.requests] == [{}, {"seat": "1", "offset": "5"}]


def test_the_token_goes_in_the_authorization_header_only() -> None:
    script = Script({"GET /api/v1/me": [httpx.Response(200, json={"id": "p1"})]})
    dh, _ = client(script, token="t0k3n")
    dh.me()
    request = script.requests[0]
    assert request.headers["Authorization"] == "Bearer t0k3n" and "t0k3n" not in str(request.url)


def test_all_legal_moves_pages_through_one_version() -> None:
    def page(request: httpx.Request) -> httpx.Response:
        offset = int(request.url.params.get("offset", 0))
        limit = int(request.url.params.get("limit", 2))
        moves = [{"type": "pick", "n": n} for n in range(offset, min(5, offset + limit))]
        return httpx.Response(200, json={"version": 9, "seat": 1, "total": 5, "offset": offset, "moves": moves})

    script = Script({"GET /api/v1/games/g1/legal-moves": [page]})
    dh, _ = client(script)
    everything = dh.all_legal_moves("g1", first=page(httpx.Request("GET", "http://x/?limit=2")).json())
    assert [m["n"] for m in everything["moves"]] == [0, 1, 2, 3, 4] and everything["version"] == 9


def test_a_server_that_cannot_be_reached_is_one_library_error_after_the_retries() -> None:
    script = Script({"GET /api/v1/games/g1": [httpx.ConnectError("connection refused")]})
    dh, waits = client(script, attempts=3)
    with pytest.raises(Unreachable) as failed:
        dh.game("g1")
    assert failed.value.code == "unreachable" and isinstance(failed.value, ConnectionError)
    assert "dragonhall.test" in str(failed.value) and len(script.requests) == 3 and len(waits) == 2


def test_a_long_wait_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    limited = error(429, "rate_limited", headers={"Retry-After": "30"})
    script = Script({"GET /api/v1/games/g1": [limited, httpx.Response(200, json={"id": "g1"})]})
    dh, waits = client(script)
    with caplog.at_level("WARNING", logger="dragonhall.client"):
        dh.game("g1")
    assert waits == [30.0] and "waiting 30 s" in caplog.text and "rate_limited" in caplog.text
