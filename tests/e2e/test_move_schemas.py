"""Typed moves over HTTP: the catalogue's ``move_schema`` per game, the OpenAPI document's ``Move``
components, and the server refusing what the schema refuses, writing nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from domain.kernel import find_game

REAL_GAMES = ["drachenreiter", "mekong", "seven-dragons", "tarasque"]


def _catalog(client: Any) -> dict[str, dict[str, Any]]:
    r = client.call("GET", "/api/v1/catalog")
    assert r.status == 200
    return {g["game"]: g for g in r.body["games"]}


def test_the_catalogue_gives_each_game_its_move_schema_from_the_domain(client: Any) -> None:
    games = _catalog(client)
    assert set(REAL_GAMES) <= set(games)
    for slug, entry in games.items():
        schema = entry["move_schema"]
        Draft202012Validator.check_schema(schema)
        assert schema == json.loads(json.dumps(find_game(slug).move_schema()))
        assert set(schema["$defs"]) == set(entry["moves"]) == set(schema["discriminator"]["mapping"])


def test_no_python_type_name_is_served(client: Any) -> None:
    for path in ("/api/v1/openapi.json", "/api/v1/catalog"):
        text = json.dumps(client.call("GET", path).body)
        assert "domain." not in text and "typing." not in text and "<class" not in text, path


def test_the_openapi_document_has_every_games_moves_and_refers_to_them_where_a_move_goes(client: Any) -> None:
    spec = client.call("GET", "/api/v1/openapi.json").body
    components = spec["components"]["schemas"]
    for slug, entry in _catalog(client).items():
        game = components[f"Move.{slug}"]
        assert game["discriminator"]["propertyName"] == "type"
        for name, one in entry["move_schema"]["$defs"].items():
            documented = components[f"Move.{slug}.{name}"]
            assert game["discriminator"]["mapping"][name] == f"#/components/schemas/Move.{slug}.{name}"
            assert documented["properties"]["type"] == {"type": "string", "enum": [name]}
            assert documented["required"] == one["required"]
            assert set(documented["properties"]) == set(one["properties"])
            assert documented["additionalProperties"] is False
        assert {"$ref": f"#/components/schemas/Move.{slug}"} in components["Move"]["anyOf"]
    move = {"$ref": "#/components/schemas/Move"}
    assert components["MoveRequest"]["properties"]["move"]["allOf"] == [move]
    assert components["LegalMoves"]["properties"]["moves"]["items"] == move


def _running(client: Any, slug: str) -> tuple[str, dict[int, str]]:
    """A fresh game of ``slug`` with every seat held by a player of its own: game id, seat to token."""
    variant = find_game(slug).variants[0]
    players = [client.player(f"p{i}") for i in range(variant.min_seats)]
    gid = client.new_game(players[0]["token"], game=slug, players=variant.min_seats)["id"]
    for p in players:
        assert client.seat(gid, p["token"]).status in (200, 201)
    doc = client.game(gid)
    assert doc["status"] == "active"
    return gid, {s["seat"]: p["token"] for s, p in zip(doc["seats"], players, strict=True)}


def _spoilt(legal: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = [("unknown type", {**legal, "type": "no_such_move"}), ("extra field", {**legal, "surplus": 0})]
    for name, value in legal.items():
        if name != "type":
            out.append((f"{name} missing", {k: v for k, v in legal.items() if k != name}))
            out.append((f"{name} of the wrong type", {**legal, name: [value]}))
    return out


@pytest.mark.parametrize("slug", REAL_GAMES)
def test_a_move_the_schema_refuses_the_server_refuses_with_400_writing_nothing(client: Any, slug: str) -> None:
    validator = Draft202012Validator(_catalog(client)[slug]["move_schema"])
    gid, tokens = _running(client, slug)
    doc = client.game(gid)
    token = tokens[doc["awaiting"][0]]
    page = client.legal(gid, token)
    legal = page["moves"][0]
    assert validator.is_valid(legal)
    events = client.call("GET", f"/api/v1/games/{gid}/events", token=token).body
    refused = 0
    for what, bad in _spoilt(legal):
        if validator.is_valid(bad):
            continue  # a field with a default may be left out
        r = client.move(gid, token, bad, expected_version=page["version"])
        assert (r.status, r.body["error"]["code"]) == (400, "malformed_move"), (what, bad, r.body)
        refused += 1
    assert refused >= 3
    assert client.call("GET", f"/api/v1/games/{gid}/events", token=token).body == events
    assert client.move(gid, token, legal, expected_version=page["version"]).status == 201
