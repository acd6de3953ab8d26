"""``schema_fields.Selected`` dumps events and legal moves exactly as ``Nested`` would, for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from marshmallow import Schema, fields

from api import game_schemas
from domain.kernel.registry import all_games


class NestedMoveResult(Schema):
    """``game_schemas.MoveResult`` as plain marshmallow dumps it, field by field."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(game_schemas.EventOut), required=True)
    replayed = fields.Boolean()
    legal_moves = fields.Nested(game_schemas.LegalMoves, allow_none=True)


def _play(client: Any, platform: Any, slug: str, rng: random.Random, moves: int) -> list[tuple[Any, Any]]:
    """Random legal moves by two players; the service's raw events and legal moves along the way."""
    players = [client.player(f"p{k}") for k in range(2)]
    game = client.new_game(players[0]["token"], game=slug, players=2)
    for p in players:
        assert client.seat(game["id"], p["token"]).status in (200, 201)
    seen = []
    for _ in range(moves):
        doc = client.game(game["id"])
        if not doc["awaiting"]:
            break
        seat = doc["awaiting"][0]
        player = next(p for p in players if any(s["seat"] == seat and s["player_id"] == p["id"] for s in doc["seats"]))
        legal = platform.queries.legal_moves(game["id"], player["id"], seat)
        events = platform.queries.events(game["id"], player["id"], 0, 10_000)["events"]
        seen.append((events, legal))
        reply = client.move(
            game["id"], player["token"], rng.choice(legal["moves"]), seat=seat, expected_version=legal["version"]
        )
        assert reply.status == 201, reply.body
    seen.append((platform.queries.events(game["id"], None, 0, 10_000)["events"], None))
    return seen


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_a_move_answer_dumps_as_nested_would(client: Any, platform: Any, slug: str) -> None:
    selected, nested = game_schemas.MoveResult(), NestedMoveResult()
    for events, legal in _play(client, platform, slug, random.Random(slug), moves=60):
        result = {"version": events[-1]["version"], "events": events, "legal_moves": legal}
        expected = nested.dump(result)
        assert selected.dump(result) == expected
        assert game_schemas.EventList().dump(result) == {"version": result["version"], "events": expected["events"]}


def test_fields_outside_the_schema_are_left_out() -> None:
    event = {"version": 3, "type": "Rolled", "data": {"dice": [1]}, "at": "t", "secret": "hand"}
    legal = {"version": 3, "seat": 0, "moves": [{"die": 1}], "internal": True}
    dumped = game_schemas.MoveResult().dump({"version": 3, "events": [event], "legal_moves": legal})
    assert dumped == {
        "version": 3,
        "events": [{"version": 3, "type": "Rolled", "data": {"dice": [1]}, "at": "t"}],
        "legal_moves": {"version": 3, "seat": 0, "moves": [{"die": 1}]},
    }
    assert game_schemas.MoveResult().dump({"version": 3, "events": [], "legal_moves": None})["legal_moves"] is None
