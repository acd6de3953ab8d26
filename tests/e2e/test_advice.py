"""``GET /games/{id}/advice``: the move a built-in bot would play for the caller's awaited seat.

The bot decides as a seated server bot does, on what the seat may know (that it reveals nothing
more is the no-leak property's, ``test_no_leak_property``); here: who may ask, when, about which
bot, and that the answer is a move the seat may play, repeatable with a seed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.api_client import ApiClient


@pytest.fixture
def table(client: ApiClient) -> tuple[str, list[dict[str, Any]]]:
    """A two-seat Tarasque game under way, seat 0 awaited."""
    people = [client.player(f"p{i}") for i in range(2)]
    game_id = client.new_game(people[0]["token"], game="tarasque", players=2)["id"]
    for p in people:
        assert client.seat(game_id, p["token"]).status == 201
    assert client.game(game_id)["awaiting"] == [0]
    return game_id, people


def advice(client: ApiClient, game_id: str, token: str | None, query: str = "") -> Any:
    return client.call("GET", f"/api/v1/games/{game_id}/advice{query}", token=token)


def test_the_advice_is_a_legal_move_of_the_awaited_seat_by_the_bot_named(
    client: ApiClient, table: tuple[str, list[dict[str, Any]]]
) -> None:
    game_id, people = table
    legal = client.legal(game_id, people[0]["token"])
    reply = advice(client, game_id, people[0]["token"], "?bot=random")
    assert reply.status == 200, reply.body
    assert reply.body["version"] == legal["version"] and reply.body["seat"] == 0 and reply.body["bot"] == "random"
    assert reply.body["move"] in legal["moves"]
    played = client.move(game_id, people[0]["token"], reply.body["move"], expected_version=reply.body["version"])
    assert played.status == 201, played.body


def test_without_a_bot_the_games_default_bot_advises(
    client: ApiClient, table: tuple[str, list[dict[str, Any]]]
) -> None:
    game_id, people = table
    reply = advice(client, game_id, people[0]["token"])
    assert reply.status == 200 and reply.body["bot"] == "greedy"


def test_a_seed_makes_the_advice_repeatable(client: ApiClient, table: tuple[str, list[dict[str, Any]]]) -> None:
    game_id, people = table
    token = people[0]["token"]
    client.move(game_id, token, {"type": "roll"})  # dice showing: many ways to set some aside
    answers = [advice(client, game_id, token, f"?bot=random&seed={seed}").body for seed in (11, 11, 12, 13, 14)]
    assert answers[0] == answers[1]
    assert len({str(a["move"]) for a in answers}) > 1, "seeds draw different moves among many"


def test_a_bot_the_game_lacks_is_refused_naming_its_bots(
    client: ApiClient, table: tuple[str, list[dict[str, Any]]]
) -> None:
    game_id, people = table
    reply = advice(client, game_id, people[0]["token"], "?bot=planner")
    assert reply.status == 400 and reply.body["error"]["code"] == "invalid_request"
    assert "greedy, random" in reply.body["error"]["message"] and "bot" in reply.body["error"]["fields"]


def test_only_the_seat_awaited_of_a_running_game_is_advised(
    client: ApiClient, table: tuple[str, list[dict[str, Any]]]
) -> None:
    game_id, people = table
    stranger = client.player("stranger")
    assert advice(client, game_id, None).status == 401
    assert advice(client, game_id, stranger["token"]).status == 403
    assert advice(client, game_id, people[0]["token"], "?seat=1").status == 403
    waiting = advice(client, game_id, people[1]["token"])
    assert waiting.status == 409 and waiting.body["error"]["code"] == "not_awaited"
    assert advice(client, "no-such-game", people[0]["token"]).status == 404
    assert client.call("POST", f"/api/v1/games/{game_id}/resign", {}, people[1]["token"]).status == 201
    ended = advice(client, game_id, people[0]["token"])
    assert ended.status == 409 and ended.body["error"]["code"] == "not_accepting_moves"


def test_malformed_arguments_are_refused(client: ApiClient, table: tuple[str, list[dict[str, Any]]]) -> None:
    game_id, people = table
    for query in ("?seed=-1", "?seed=x", "?seat=64", "?bot=", "?budget=3"):
        reply = advice(client, game_id, people[0]["token"], query)
        assert reply.status == 400, (query, reply.body)
