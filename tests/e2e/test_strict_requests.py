"""Every route reads its request strictly, on both stores: a NUL anywhere (a body's string, a path's
segment, a query's value) is refused before a store is asked, as PostgreSQL refuses it in text; a
call that reads no body refuses one rather than acting on it; and a body's integers and booleans
are JSON's own, never a string or a number taken for them. Each refusal stores nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask_smorest.utils import resolve_schema_instance
from marshmallow import Schema, fields

from api.app import create_app
from api.schema_fields import StrictBoolean
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.e2e.test_web_session import signed_up
from tests.support.api_client import ApiClient
from wiring import bootstrap

NUL = "\\u0000"
"""A NUL as a JSON body writes it."""
FAKE = "00000000-0000-4000-8000-000000000000"
"""A well-formed id of nothing: a refusal that comes before the route never reaches it."""


@pytest.fixture(params=["memory", "postgres"])
def client(request: Any, tmp_path: Path) -> Iterator[ApiClient]:
    if request.param == "memory":
        settings = make_settings("memory")
    else:
        url, schema = request.getfixturevalue("pg_url"), request.getfixturevalue("pg_schema")
        settings = make_settings("postgres", tmp_path, database_url=url, postgres_schema=schema)
    platform = bootstrap(settings, work=NullWork())
    try:
        yield ApiClient(create_app(platform).test_client(), platform)
    finally:
        platform.close()


def _stored(client: ApiClient) -> tuple[int, ...]:
    """Events, and the rows of every service table a refused call could have written."""
    platform = client.platform
    counts = [platform.store.recorder.max_notification_id() or 0]
    for table in ("dh_players", "dh_tokens", "dh_tournaments", "dh_disputes", "dh_recovery_codes"):
        counts.append(platform.db.one(f"SELECT COUNT(*) AS n FROM {table}")["n"])
    webhooks = platform.db.one("SELECT COUNT(*) AS n FROM dh_players WHERE webhook_url IS NOT NULL")["n"]
    return (*counts, webhooks)


def _raw(client: ApiClient, method: str, path: str, text: str, token: str | None) -> Any:
    return client.call(method, path, token=token, raw=text.encode())


def _tournament(**changes: Any) -> dict[str, Any]:
    body = {
        "name": "Winter cup",
        "game": "dice-race",
        "seats": 2,
        "format": "swiss",
        "rounds": 3,
        "capacity": 8,
        "starts_at": (datetime.now(UTC) + timedelta(days=1)).isoformat(),
        "round_seconds": 3600,
    }
    return {**body, **changes}


def test_a_nul_in_any_string_of_a_body_is_refused_before_it_is_stored(client: ApiClient) -> None:
    me = client.player("ann")
    token = me["token"]
    game = client.new_game(token)["id"]
    tournament = _raw(client, "POST", "/api/v1/tournaments", json.dumps(_tournament()), token)
    assert tournament.status == 201, tournament.body
    requests = [
        ("POST", "/api/v1/tournaments", json.dumps(_tournament(name="cup")).replace("cup", "c" + NUL + "up")),
        ("POST", "/api/v1/me/tokens", '{"name": "a' + NUL + 'b", "scopes": ["read"]}'),
        ("PUT", "/api/v1/me/webhook", '{"url": "https://example.com/a' + NUL + 'b"}'),
        ("POST", "/api/v1/games", '{"game": "dice-race", "players": 2, "invite": ["pg' + NUL + 'A"]}'),
        ("POST", f"/api/v1/games/{game}/invitations", '{"players": ["pg' + NUL + 'A"]}'),
        ("POST", f"/api/v1/tournaments/{tournament.body['id']}/registrations", '{"player_id": "a' + NUL + '"}'),
        ("POST", f"/api/v1/games/{game}/moves", '{"move": {"type": "bid", "a' + NUL + '": 1}}'),
    ]
    before = _stored(client)
    for method, path, text in requests:
        r = _raw(client, method, path, text, token)
        assert r.status == 400 and r.body["error"]["code"] == "malformed_json", (path, r.body)
        assert "NUL" in r.body["error"]["message"]
    assert _stored(client) == before


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/players/a%00b",
        "/api/v1/players/a%00b/ratings/tarasque",
        "/api/v1/invitations/a%00b",
        "/api/v1/tournaments/a%00b",
        "/api/v1/games/a%00b",
        "/api/v1/disputes/a%00b",
    ],
)
def test_a_nul_in_a_path_matches_nothing(client: ApiClient, path: str) -> None:
    r = client.call("GET", path)
    assert r.status == 404 and set(r.body) == {"error"}, r.body


def test_a_nul_in_a_path_of_a_write_matches_nothing_and_stores_nothing(client: ApiClient) -> None:
    token = client.player("ann")["token"]
    before = _stored(client)
    for method, path in [
        ("DELETE", "/api/v1/me/tokens/a%00b"),
        ("POST", "/api/v1/games/a%00b/seats"),
        ("POST", "/api/v1/invitations/a%00b/accept"),
        ("DELETE", f"/api/v1/tournaments/{FAKE}/registrations/a%00b"),
    ]:
        r = client.call(method, path, {}, token)
        assert r.status == 404, (path, r.body)
    assert _stored(client) == before


def test_a_nul_in_a_query_is_refused_naming_the_parameter(client: ApiClient) -> None:
    r = client.call("GET", "/api/v1/games?player=a%00b")
    assert r.status == 400 and r.body["error"]["fields"] == {"player": [r.body["error"]["fields"]["player"][0]]}
    assert "NUL" in r.body["error"]["fields"]["player"][0]
    page = client.http.get("/games?player=a%00b", headers={"Accept": "text/html"})
    assert page.status_code == 400 and page.mimetype == "text/html"


def _bodiless(client: ApiClient) -> list[tuple[str, str]]:
    """Every API call that writes and reads no body, from the app's own routes, its ids filled in."""
    app = client.http.application
    out = []
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        params = getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", [])
        if rule.endpoint.startswith("web.") or any(p.get("in") == "json" for p in params):
            continue
        for method in sorted(rule.methods & {"POST", "PUT", "PATCH", "DELETE"}):
            out.append((method, rule.build({name: FAKE for name in rule.arguments}, append_unknown=False)[1]))
    return out


def test_every_call_that_reads_no_body_refuses_one_and_stores_nothing(client: ApiClient) -> None:
    token = client.player("ann")["token"]
    calls = _bodiless(client)
    assert ("POST", f"/api/v1/games/{FAKE}/start") in calls and ("POST", "/api/v1/me/recovery-codes") in calls
    before = _stored(client)
    for method, path in calls:
        for text, code in [('{"a":', "malformed_json"), ('{"a": 1}', "invalid_request"), ("[1]", "invalid_request")]:
            r = _raw(client, method, path, text, token)
            assert r.status == 400 and r.body["error"]["code"] == code, (method, path, text, r.body)
    assert _stored(client) == before


def test_a_call_that_reads_no_body_takes_none_or_an_empty_object(client: ApiClient) -> None:
    token = client.player("ann")["token"]
    codes = client.call("POST", "/api/v1/me/recovery-codes", token=token)
    assert codes.status == 201, codes.body
    assert _raw(client, "POST", "/api/v1/me/recovery-codes", "{}", token).status == 201


def _body_schemas(client: ApiClient) -> Iterator[tuple[str, Schema]]:
    app = client.http.application
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        for param in getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", []):
            if param.get("in") == "json":
                yield rule.rule, resolve_schema_instance(param["schema"])


def _loose_fields(schema: Schema, where: str) -> Iterator[str]:
    for name, field in schema.load_fields.items():
        yield from _loose(field, f"{where}.{name}")


def _loose(field: fields.Field, where: str) -> Iterator[str]:
    if isinstance(field, fields.Integer) and not field.strict:
        yield where
    if isinstance(field, fields.Boolean) and not isinstance(field, StrictBoolean):
        yield where
    if isinstance(field, fields.Nested) and isinstance(field.schema, Schema):
        yield from _loose_fields(field.schema, where)
    if isinstance(field, fields.List):
        yield from _loose(field.inner, f"{where}[]")


def test_every_integer_and_boolean_of_a_body_is_strict(client: ApiClient) -> None:
    schemas = list(_body_schemas(client))
    assert len(schemas) >= 20
    loose = [name for rule, schema in schemas for name in _loose_fields(schema, rule)]
    assert loose == []


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/tournaments", _tournament(seats="2")),
        ("/api/v1/tournaments", _tournament(rounds=3.0)),
        ("/api/v1/games", {"game": "dice-race", "players": 2, "rated": "no"}),
        ("/api/v1/games", {"game": "dice-race", "players": 2, "rated": 0}),
    ],
)
def test_a_string_or_a_number_is_not_taken_for_an_integer_or_a_boolean(
    client: ApiClient, path: str, body: dict[str, Any]
) -> None:
    token = client.player("ann")["token"]
    before = _stored(client)
    r = client.call("POST", path, body, token)
    assert r.status == 400 and r.body["error"]["code"] == "invalid_request", r.body
    assert _stored(client) == before


def test_a_move_asking_its_legal_moves_with_yes_is_refused(client: ApiClient) -> None:
    a, b = client.player("ann"), client.player("bob")
    game = client.new_game(a["token"])["id"]
    client.seat(game, a["token"])
    client.seat(game, b["token"])
    seat_token = {0: a["token"], 1: b["token"]}[client.game(game)["awaiting"][0]]
    move = client.legal(game, seat_token)["moves"][0]
    before = client.game(game)["version"]
    r = client.call("POST", f"/api/v1/games/{game}/moves", {"move": move, "include_legal_moves": "yes"}, seat_token)
    assert r.status == 400 and "include_legal_moves" in r.body["error"]["fields"], r.body
    assert client.game(game)["version"] == before


def test_a_second_verdict_on_a_dispute_conflicts_with_the_first(client: ApiClient) -> None:
    a, b = client.player("ann"), client.player("bob")
    game = client.new_game(a["token"])["id"]
    client.seat(game, a["token"])
    client.seat(game, b["token"])
    version = client.game(game)["version"]
    opened = client.call("POST", f"/api/v1/games/{game}/disputes", {"version": version, "claim": "unfair"}, b["token"])
    assert opened.status == 201, opened.body
    path = f"/api/v1/disputes/{opened.body['id']}/resolve"
    assert client.call("POST", path, {"verdict": "withdrawn"}, b["token"]).status == 200
    again = client.call("POST", path, {"verdict": "withdrawn"}, b["token"])
    assert again.status == 409 and again.body["error"]["code"] == "dispute_resolved", again.body
    assert "withdrawn" in again.body["error"]["message"]


def test_registering_for_a_cancelled_tournament_says_it_was_cancelled(client: ApiClient) -> None:
    token = client.player("ann")["token"]
    tid = client.call("POST", "/api/v1/tournaments", _tournament(), token).body["id"]
    assert client.call("POST", f"/api/v1/tournaments/{tid}/cancel", token=token).status == 200
    for method, path in [
        ("POST", f"/api/v1/tournaments/{tid}/registrations"),
        ("DELETE", f"/api/v1/tournaments/{tid}/registrations/{FAKE}"),
    ]:
        r = client.call(method, path, {} if method == "POST" else None, token)
        assert r.status in (404, 409), r.body
    r = client.call("POST", f"/api/v1/tournaments/{tid}/registrations", {}, token)
    assert r.status == 409 and "cancelled" in r.body["error"]["message"] and "started" not in r.body["error"]["message"]


def test_withdrawing_no_such_player_is_a_404_not_a_refusal(client: ApiClient) -> None:
    token = client.player("ann")["token"]
    tid = client.call("POST", "/api/v1/tournaments", _tournament(), token).body["id"]
    for who in ("not-a-uuid", FAKE):
        r = client.call("DELETE", f"/api/v1/tournaments/{tid}/registrations/{who}", token=token)
        assert r.status == 404 and r.body["error"]["code"] == "player_not_found", r.body


def test_an_error_quotes_at_most_a_few_hundred_characters_of_the_request(client: ApiClient) -> None:
    a, b = client.player("ann"), client.player("bob")
    game = client.new_game(a["token"])["id"]
    client.seat(game, a["token"])
    client.seat(game, b["token"])
    huge = "x" * 100_000
    for body in ({"move": {"type": huge}}, {"move": {"type": "bid"}, huge: 1}):
        r = client.call("POST", f"/api/v1/games/{game}/moves", body, a["token"])
        assert r.status == 400, r.body
        assert len(json.dumps(r.body)) < 2_000, len(json.dumps(r.body))


def test_a_nul_in_a_forms_field_is_refused_as_a_page_and_stores_nothing(client: ApiClient) -> None:
    """The web client's forms are held to what the API's bodies are: a NUL in a field is a 400 page
    (it had been stored on SQLite, and a 500 on PostgreSQL)."""
    browser = client.http
    csrf = signed_up(browser)
    starts = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"csrf": csrf, "name": "winter\x00cup", "variant": "tarasque/dragon-dice", "seats": "2",
            "format": "swiss", "rounds": "2", "capacity": "8", "starts_at": starts, "round_seconds": "3600",
            "clock": "per_move", "seconds": "600", "timeout_policy": "auto"}  # fmt: skip
    before = _stored(client)
    answer = browser.post("/tournaments", data=form)
    assert answer.status_code == 400 and "text/html" in answer.content_type, answer.status_code
    assert "NUL" in answer.get_data(as_text=True)
    assert _stored(client) == before
    assert browser.post("/tournaments", data={**form, "name": "winter cup"}).status_code == 303
