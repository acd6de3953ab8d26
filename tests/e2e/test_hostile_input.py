"""Hostile requests: each is answered with a clean 4xx in the documented error shape, and
nothing is stored (no event, no player, no journal row, no inbox row, no vacation day)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from services.common import clock

LONE_SURROGATE = '"x\\ud800y"'
"""A JSON string holding a lone surrogate: valid JSON syntax, but no Unicode text."""


def _stored(platform: Any) -> tuple[int, ...]:
    """How much the server holds: events (games, disputes, sandboxes) and every service table."""
    counts = [platform.store.recorder.max_notification_id() or 0]
    for table in ("dh_players", "dh_journal", "dh_inbox", "dh_vacation_days", "dh_disputes", "dh_webhook_keys"):
        counts.append(platform.db.one(f"SELECT COUNT(*) AS n FROM {table}")["n"])
    webhooks = platform.db.one("SELECT COUNT(*) AS n FROM dh_players WHERE webhook_url IS NOT NULL")["n"]
    return (*counts, webhooks)


def _raw(client: Any, method: str, path: str, text: str | bytes, token: str | None = None) -> Any:
    body = text.encode() if isinstance(text, str) else text
    return client.call(method, path, token=token, raw=body)


def _assert_refused(reply: Any, status: int = 400) -> None:
    assert reply.status == status, reply.body
    assert set(reply.body) == {"error"} and {"code", "message"} <= set(reply.body["error"]), reply.body


def _finished_game(client: Any, a: dict[str, Any], b: dict[str, Any]) -> str:
    """A short Dice Race played to its end (disputes on an ended game are open to all)."""
    gid = client.new_game(a["token"], options={"goal": 5})["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    tokens = {0: a["token"], 1: b["token"]}
    while (doc := client.game(gid))["status"] == "active":
        seat = doc["awaiting"][0]
        move = client.legal(gid, tokens[seat])["moves"][0]
        assert client.move(gid, tokens[seat], move).status == 201
    return gid


@pytest.fixture(autouse=True)
def _unlogged_server_errors(caplog: pytest.LogCaptureFixture) -> None:
    """A regression here is a 500 whose logged traceback holds the lone surrogate sent, which
    pytest-xdist cannot send between processes (an INTERNALERROR that ends the whole run): the
    failing status says enough."""
    caplog.set_level(logging.CRITICAL, logger="dragonhall.api")


@pytest.fixture
def world(client: Any) -> Iterator[dict[str, Any]]:
    """Two players seated in a running game, and a dispute on a game they finished."""
    a, b = client.player("alice"), client.player("bob")
    game = client.new_game(a["token"])
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    over = _finished_game(client, a, b)
    version = client.game(over)["version"]
    dispute = client.call(
        "POST", f"/api/v1/games/{over}/disputes", {"version": version, "claim": "I may bid"}, a["token"]
    )
    assert dispute.status == 201, dispute.body
    yield {"a": a, "b": b, "game": game["id"], "over": over, "over_version": version, "dispute": dispute.body["id"]}


def test_json_nested_a_thousand_levels_deep_is_refused(client: Any, world: dict[str, Any]) -> None:
    """1,000 levels overflowed Python's recursion limit (a 500); the limit is 32 levels."""
    deep = "[" * 1000 + "]" * 1000
    before = _stored(client.platform)
    for path, text in [
        ("/api/v1/players", '{"name": ' + deep + "}"),
        ("/api/v1/games", deep),
        (f"/api/v1/games/{world['game']}/moves", '{"move": {"type": "bid", "x": ' + deep + "}}"),
    ]:
        r = _raw(client, "POST", path, text, world["a"]["token"])
        _assert_refused(r)
        assert "32" in r.body["error"]["message"]
    assert _stored(client.platform) == before


def test_json_nested_beyond_the_limit_is_refused_and_at_the_limit_is_read(client: Any, world: dict[str, Any]) -> None:
    """The limit counts containers: the body itself is level 1."""

    def nested(levels: int) -> str:
        return '{"move": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"

    path = f"/api/v1/games/{world['game']}/moves"
    over = _raw(client, "POST", path, nested(33), world["a"]["token"])
    _assert_refused(over)
    assert over.body["error"]["code"] == "malformed_json"
    within = _raw(client, "POST", path, nested(32), world["a"]["token"])
    assert within.status == 400 and within.body["error"]["code"] == "invalid_request"  # a list is not a move


@pytest.mark.parametrize("where", ["name", "invite", "webhook", "claim", "note", "command_id", "move", "key"])
def test_a_lone_surrogate_in_any_string_is_refused_before_anything_is_stored(
    client: Any, world: dict[str, Any], where: str
) -> None:
    a, game, dispute = world["a"]["token"], world["game"], world["dispute"]
    requests = {
        "name": ("POST", "/api/v1/players", '{"name": ' + LONE_SURROGATE + "}"),
        "invite": ("POST", "/api/v1/games", '{"game": "dice-race", "players": 2, "invite": [' + LONE_SURROGATE + "]}"),
        "webhook": ("PUT", "/api/v1/me/webhook", '{"url": "http://example.com/\\udfff"}'),
        "claim": (
            "POST",
            f"/api/v1/games/{world['over']}/disputes",
            f'{{"version": {world["over_version"]}, "claim": {LONE_SURROGATE}}}',
        ),
        "note": ("POST", f"/api/v1/disputes/{dispute}/resolve", f'{{"verdict": "upheld", "note": {LONE_SURROGATE}}}'),
        "command_id": (
            "POST",
            f"/api/v1/games/{game}/moves",
            '{"move": {"type": "bid", "amount": 1}, "command_id": ' + LONE_SURROGATE + "}",
        ),
        "move": ("POST", f"/api/v1/games/{game}/moves", '{"move": {"type": ' + LONE_SURROGATE + "}}"),
        "key": ("POST", f"/api/v1/games/{game}/moves", '{"move": {' + LONE_SURROGATE + ': 1, "type": "bid"}}'),
    }
    method, path, text = requests[where]
    before = _stored(client.platform)
    r = _raw(client, method, path, text, a)
    _assert_refused(r)
    assert r.body["error"]["code"] == "malformed_json" and "surrogate" in r.body["error"]["message"]
    assert _stored(client.platform) == before


def test_a_properly_paired_surrogate_escape_is_text(client: Any) -> None:
    r = _raw(client, "POST", "/api/v1/players", '{"name": "dragon \\ud83d\\udc09"}')
    assert r.status == 201 and r.body["name"] == "dragon \U0001f409"


@pytest.mark.parametrize("digits", [4301, 100_000])
def test_an_integer_of_more_than_4300_digits_is_refused(client: Any, world: dict[str, Any], digits: int) -> None:
    before = _stored(client.platform)
    for path, text in [
        ("/api/v1/games", '{"game": "dice-race", "players": 1' + "0" * digits + "}"),
        (f"/api/v1/games/{world['game']}/moves", '{"move": {"type": "bid", "amount": 9' + "9" * digits + "}}"),
    ]:
        _assert_refused(_raw(client, "POST", path, text, world["a"]["token"]))
    assert _stored(client.platform) == before


def test_an_integer_beyond_64_bits_is_refused_wherever_it_is(client: Any, world: dict[str, Any]) -> None:
    """The stores and the event encoder hold 64-bit integers: a larger one inside a move (which
    the schema does not type) is refused when the body is read, naming where it is."""
    before = _stored(client.platform)
    r = client.move(world["game"], world["a"]["token"], {"type": "bid", "amount": 2**64})
    _assert_refused(r)
    assert r.body["error"]["fields"] == {"move.amount": [r.body["error"]["message"]]}
    assert _stored(client.platform) == before
    assert client.move(world["game"], world["a"]["token"], {"type": "bid", "amount": 2**63 - 1}).status == 422


def test_a_vacation_that_would_end_after_the_last_representable_day_is_refused(client: Any) -> None:
    me = client.player("traveller")
    before = _stored(client.platform)
    r = client.call("POST", "/api/v1/me/vacation", {"start": "9999-12-25", "days": 30}, me["token"])
    _assert_refused(r)
    assert "start" in r.body["error"]["fields"]
    assert _stored(client.platform) == before


def test_an_unknown_fill_bot_is_refused_at_creation_naming_the_field(client: Any) -> None:
    """A scheduled game whose fill bot does not exist would start with seats that never play."""
    me = client.player("host")
    later = (clock.now() + timedelta(days=300)).isoformat()  # within the dates' range (``date_rules``)
    before = _stored(client.platform)
    r = client.call(
        "POST",
        "/api/v1/games",
        {"game": "dice-race", "players": 2, "fill_bot": "nope", "starts_at": later},
        me["token"],
    )
    _assert_refused(r)
    assert "fill_bot" in r.body["error"]["fields"] and "random" in r.body["error"]["fields"]["fill_bot"][0]
    assert _stored(client.platform) == before
    ok = client.call(
        "POST",
        "/api/v1/games",
        {"game": "dice-race", "players": 2, "fill_bot": "random", "starts_at": later},
        me["token"],
    )
    assert ok.status == 201, ok.body


def test_a_request_body_over_the_limit_is_413_and_is_not_parsed(client: Any, world: dict[str, Any]) -> None:
    """The default limit is 1 MiB (DRAGONHALL_MAX_BODY_BYTES)."""
    before = _stored(client.platform)
    big = json.dumps({"move": {"type": "bid", "pad": "x" * (1 << 20)}})
    r = _raw(client, "POST", f"/api/v1/games/{world['game']}/moves", big, world["a"]["token"])
    _assert_refused(r, 413)
    assert r.body["error"]["code"] == "body_too_large" and "1048576" in r.body["error"]["message"]
    assert _stored(client.platform) == before


def test_the_body_limit_is_a_setting(platform_with_small_body_limit: Any) -> None:
    from api.app import create_app

    http = create_app(platform_with_small_body_limit).test_client()
    assert http.post("/api/v1/players", json={"name": "n" * 40}).status_code == 201
    r = http.post("/api/v1/players", json={"name": "n" * 80})
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "body_too_large"


@pytest.fixture
def platform_with_small_body_limit() -> Iterator[Any]:
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from wiring import bootstrap

    p = bootstrap(make_settings("memory", max_body_bytes=64), work=NullWork())
    yield p
    p.close()


def test_invite_lists_are_bounded_in_number_and_length(client: Any) -> None:
    me = client.player("host")
    before = _stored(client.platform)
    for invite in (["x" * 10] * 101, ["x" * 65], [""]):
        r = client.call("POST", "/api/v1/games", {"game": "dice-race", "players": 2, "invite": invite}, me["token"])
        _assert_refused(r)
        assert "invite" in r.body["error"]["fields"]
    assert _stored(client.platform) == before
    guest = client.player("guest")
    invite = [guest["id"], guest["name"].upper()] * 50  # 100 entries, by id and by name: one invitation
    ok = client.call("POST", "/api/v1/games", {"game": "dice-race", "players": 2, "invite": invite}, me["token"])
    assert ok.status == 201, ok.body
    nobody = client.call(
        "POST", "/api/v1/games", {"game": "dice-race", "players": 2, "invite": ["x" * 64]}, me["token"]
    )
    _assert_refused(nobody)
    assert "nobody is called" in nobody.body["error"]["message"]


def test_a_legal_moves_page_holds_at_most_1000_moves(client: Any, world: dict[str, Any]) -> None:
    base = f"/api/v1/games/{world['game']}/legal-moves"
    r = client.call("GET", f"{base}?limit=1001", token=world["a"]["token"])
    _assert_refused(r)
    assert "limit" in r.body["error"]["fields"]
    assert client.call("GET", f"{base}?limit=1000", token=world["a"]["token"]).status == 200
