"""Scoped tokens over HTTP: made, listed without their secret, revoked at once (in every process),
refused where their scopes do not reach, and only ever read from the Authorization header."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.parser import contract_of
from services.accounts.scopes import ROUTE_SCOPES
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap


def make_token(client: Any, token: str, *scopes: str, name: str = "t") -> Any:
    return client.call("POST", "/api/v1/me/tokens", {"name": name, "scopes": list(scopes)}, token)


def started_game(client: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    a, b = client.player("a"), client.player("b")
    game_id = client.new_game(a["token"])["id"]
    assert client.seat(game_id, a["token"]).status == 201
    assert client.seat(game_id, b["token"]).status == 201
    return game_id, a, b


def awaited_token(client: Any, game_id: str, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return a if client.game(game_id)["awaiting"] == [0] else b


# ------------------------------------------------------------------ make, list, revoke


def test_registration_gives_the_account_its_first_token_holding_every_scope(client: Any) -> None:
    a = client.player("a")
    listed = client.call("GET", "/api/v1/me/tokens", token=a["token"])
    assert listed.status == 200
    [first] = listed.body["tokens"]
    assert first["name"] == "registration"
    assert first["scopes"] == ["read", "play", "bot", "account"]


def test_a_token_is_made_with_its_secret_once_and_listed_without_it(client: Any) -> None:
    a = client.player("a")
    made = make_token(client, a["token"], "bot", name="my bot")
    assert made.status == 201
    assert set(made.body) == {"id", "name", "scopes", "created_at", "last_used_at", "token"}
    assert made.body["name"] == "my bot" and made.body["scopes"] == ["bot"]
    assert made.body["last_used_at"] is None
    listed = client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"]
    assert [t["id"] for t in listed][-1] == made.body["id"]
    assert all("token" not in t for t in listed)
    assert made.body["token"] not in listed.__repr__() and a["token"] not in listed.__repr__()
    me = client.call("GET", "/api/v1/me", token=made.body["token"])
    assert me.status == 200 and me.body["id"] == a["id"]


def test_a_revoked_token_is_refused_at_its_next_request_and_no_longer_listed(client: Any) -> None:
    a = client.player("a")
    made = make_token(client, a["token"], "read").body
    assert client.call("GET", "/api/v1/me", token=made["token"]).status == 200
    assert client.call("DELETE", f"/api/v1/me/tokens/{made['id']}", token=a["token"]).status == 204
    refused = client.call("GET", "/api/v1/me", token=made["token"])
    assert refused.status == 401 and refused.body["error"]["code"] == "unauthenticated"
    listed = client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"]
    assert made["id"] not in [t["id"] for t in listed]
    assert client.call("DELETE", f"/api/v1/me/tokens/{made['id']}", token=a["token"]).status == 404


def test_a_token_may_revoke_itself(client: Any) -> None:
    a = client.player("a")
    me = client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"][0]
    assert client.call("DELETE", f"/api/v1/me/tokens/{me['id']}", token=a["token"]).status == 204
    assert client.call("GET", "/api/v1/me", token=a["token"]).status == 401


def test_another_accounts_token_or_an_unknown_id_is_not_found_and_stays_valid(client: Any) -> None:
    a, b = client.player("a"), client.player("b")
    theirs = make_token(client, b["token"], "read").body
    for token_id in (theirs["id"], "no-such-token"):
        refused = client.call("DELETE", f"/api/v1/me/tokens/{token_id}", token=a["token"])
        assert refused.status == 404 and refused.body["error"]["code"] == "token_not_found"
    assert client.call("GET", "/api/v1/me", token=theirs["token"]).status == 200
    mine = client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"]
    assert theirs["id"] not in [t["id"] for t in mine]


@pytest.mark.parametrize(
    "body",
    [
        {"name": "t", "scopes": []},
        {"name": "t", "scopes": ["admin"]},
        {"name": "", "scopes": ["read"]},
        {"scopes": ["read"]},
        {"name": "t"},
    ],
)
def test_a_malformed_token_request_is_a_400_and_makes_no_token(client: Any, body: dict[str, Any]) -> None:
    a = client.player("a")
    refused = client.call("POST", "/api/v1/me/tokens", body, a["token"])
    assert refused.status == 400 and refused.body["error"]["code"] == "invalid_request"
    assert len(client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"]) == 1


# ------------------------------------------------------------------ scopes


def test_a_token_cannot_make_a_token_with_wider_scopes(client: Any) -> None:
    a = client.player("a")
    reader = make_token(client, a["token"], "read", "account").body["token"]
    for wider, needed in ((["play"], "play"), (["bot"], "play"), (["read", "play"], "play")):
        refused = make_token(client, reader, *wider)
        assert refused.status == 403, wider
        assert refused.body["error"] == {
            "code": "insufficient_scope",
            "message": refused.body["error"]["message"],
            "scope": needed,
        }
    assert make_token(client, reader, "read").status == 201
    assert make_token(client, reader, "account").status == 201
    assert len(client.call("GET", "/api/v1/me/tokens", token=a["token"]).body["tokens"]) == 4


def test_a_bot_token_plays_and_reads_but_cannot_manage_the_account(client: Any) -> None:
    game_id, a, b = started_game(client)
    mover = awaited_token(client, game_id, a, b)
    bot = make_token(client, mover["token"], "bot").body["token"]
    legal = client.legal(game_id, bot)["moves"]
    assert client.move(game_id, bot, legal[0]).status == 201
    for method, path, body in (
        ("GET", "/api/v1/me/tokens", None),
        ("POST", "/api/v1/me/tokens", {"name": "x", "scopes": ["read"]}),
        ("PUT", "/api/v1/me/webhook", {"url": None}),
        ("POST", "/api/v1/me/vacation", {"start": "2099-01-01", "days": 1}),
    ):
        refused = client.call(method, path, body, bot)
        assert refused.status == 403, path
        assert refused.body["error"]["code"] == "insufficient_scope"
        assert refused.body["error"]["scope"] == "account"


def test_a_read_token_is_refused_every_act_and_the_refusal_writes_nothing(client: Any) -> None:
    game_id, a, b = started_game(client)
    mover = awaited_token(client, game_id, a, b)
    reader = make_token(client, mover["token"], "read").body["token"]
    move = client.legal(game_id, reader)["moves"][0]
    version = client.game(game_id)["version"]
    for method, path, body in (
        ("POST", f"/api/v1/games/{game_id}/moves", {"move": move}),
        ("POST", f"/api/v1/games/{game_id}/resign", {}),
        ("POST", "/api/v1/games", {"game": "dice-race", "players": 2}),
        ("POST", "/api/v1/me/vacation", {"start": "2099-01-01", "days": 1}),
    ):
        refused = client.call(method, path, body, reader)
        assert refused.status == 403, path
        assert refused.body["error"]["code"] == "insufficient_scope"
        assert refused.body["error"]["scope"] == ("account" if path.endswith("vacation") else "play")
    assert client.game(game_id)["version"] == version
    assert client.call("GET", "/api/v1/me/vacation", token=reader).body["days"] == []


def test_a_play_token_cannot_read_even_where_a_token_is_optional(client: Any) -> None:
    game_id, a, _ = started_game(client)
    player = make_token(client, a["token"], "play").body["token"]
    for path in (f"/api/v1/games/{game_id}/legal-moves", f"/api/v1/games/{game_id}", "/api/v1/me/inbox"):
        refused = client.call("GET", path, token=player)
        assert refused.status == 403, path
        assert refused.body["error"]["scope"] == "read"
    assert client.call("GET", f"/api/v1/games/{game_id}").status == 200  # without a token: a spectator


def test_an_account_token_manages_tokens_and_the_webhook_but_cannot_play(client: Any) -> None:
    game_id, a, b = started_game(client)
    mover = awaited_token(client, game_id, a, b)
    manager = make_token(client, mover["token"], "account").body["token"]
    assert client.call("GET", "/api/v1/me/tokens", token=manager).status == 200
    assert client.call("PUT", "/api/v1/me/webhook", {"url": None}, manager).status == 200
    move = client.legal(game_id, mover["token"])["moves"][0]
    refused = client.move(game_id, manager, move)
    assert refused.status == 403 and refused.body["error"]["scope"] == "play"


def test_every_route_declares_its_scope_and_the_openapi_document_names_it(client: Any) -> None:
    """Every route of the API declares who may call it, and so does every page and form of the web
    client (``page_contract``: checked by the same hooks, not documented in OpenAPI)."""
    app = client.http.application
    spec = client.http.get("/api/v1/openapi.json").get_json()
    outside = set()
    checked = 0
    for rule in app.url_map.iter_rules():
        contract = contract_of(app.view_functions[rule.endpoint])
        if contract is None:
            if rule.endpoint not in ("web.static", "favicon"):
                outside.add(rule.rule)
            continue
        if contract.page:
            assert rule.endpoint.startswith("web."), rule.rule
            assert contract.scope in (*ROUTE_SCOPES, None), rule.rule
            continue
        if contract.auth == "none":
            assert contract.scope is None, rule.rule
        else:
            assert contract.scope in ROUTE_SCOPES, rule.rule
        path = rule.rule.replace("<", "{").replace(">", "}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            operation = spec["paths"][path][method.lower()]
            assert operation.get("x-scope") == contract.scope, (method, path)
            if contract.scope:
                assert f"`{contract.scope}`" in operation["description"], (method, path)
                assert "403" in operation["responses"] and "429" in operation["responses"], (method, path)
            checked += 1
    assert checked > 30
    assert outside == {
        "/static/<path:filename>",
        "/healthz",
        "/readyz",
        "/metrics",
        "/api/v1/docs",
        "/api/v1/openapi.json",
    }


def test_a_route_with_a_token_declares_a_scope() -> None:
    from api.parser import blueprint

    blp = blueprint("probe", "a route declared wrong")
    with pytest.raises(ValueError, match="scope"):
        blp.contract(auth="required", scope=None)
    with pytest.raises(ValueError, match="scope"):
        blp.contract(auth="none", scope="read")


# ------------------------------------------------------------------ only in the header


@pytest.mark.parametrize("path", ["/api/v1/me", "/api/v1/games/{game}", "/api/v1/games/{game}/legal-moves"])
def test_a_token_in_the_query_string_is_refused_as_an_undeclared_parameter(client: Any, path: str) -> None:
    game_id, a, _ = started_game(client)
    refused = client.call("GET", path.format(game=game_id) + f"?token={a['token']}")
    assert refused.status == 400
    assert refused.body["error"]["code"] == "invalid_request"
    assert "token" in refused.body["error"]["fields"]
    assert a["token"] not in refused.text


# ------------------------------------------------------------------ another process


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[ApiClient, ApiClient]]:
    """Two platforms, each with its own Flask app, over one SQLite store: two HTTP processes."""
    first = bootstrap(make_settings("sqlite", tmp_path, http_workers=2), work=NullWork())
    second = bootstrap(make_settings("sqlite", tmp_path, http_workers=2), work=NullWork(), projections=False)
    try:
        yield (
            ApiClient(create_app(first).test_client(), first),
            ApiClient(create_app(second).test_client(), second),
        )
    finally:
        second.close()
        first.close()


def test_a_token_revoked_through_one_process_is_refused_by_another_at_its_next_request(
    two_processes: tuple[ApiClient, ApiClient],
) -> None:
    one, other = two_processes
    a = one.player("a")
    made = make_token(one, a["token"], "bot").body
    assert other.call("GET", "/api/v1/me", token=made["token"]).status == 200  # the other process has seen it
    assert other.platform.accounts.still_valid(made["id"])
    assert one.call("DELETE", f"/api/v1/me/tokens/{made['id']}", token=a["token"]).status == 204
    refused = other.call("GET", "/api/v1/me", token=made["token"])
    assert refused.status == 401
    assert not other.platform.accounts.still_valid(made["id"])
    assert other.call("GET", "/api/v1/me", token=a["token"]).status == 200


def test_a_token_is_recognisable_and_never_read_as_a_command_line_option(client: Any) -> None:
    a = client.player("a")
    made = client.call("POST", "/api/v1/me/tokens", {"name": "t", "scopes": ["bot"]}, a["token"]).body["token"]
    for token in (a["token"], made):
        assert token.startswith("dh_") and len(token) > 40
