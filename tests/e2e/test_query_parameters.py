"""Query parameters: an endpoint answers 400 to one it does not take, and board.svg takes ``at``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.kernel import Viewer, find_game
from services.reads.board_names import name_seats
from services.reads.seat_names import names_of


def _operations(client: Any) -> list[tuple[str, str]]:
    spec = client.call("GET", "/api/v1/openapi.json").body
    return [
        (method.upper(), path)
        for path, ops in spec["paths"].items()
        for method in ops
        if method in ("get", "post", "put", "delete", "patch")
    ]


def test_every_documented_operation_refuses_a_query_parameter_it_does_not_take(client: Any) -> None:
    """Before the route runs: no token, no body and no game are needed to be told."""
    me = client.player("p")
    operations = _operations(client)
    assert len(operations) > 20
    for method, path in operations:
        url = re.sub(r"{[^}]+}", "00000000-0000-0000-0000-000000000000", path) + "?colour=red"
        before = client.platform.store.recorder.max_notification_id()
        r = client.call(method, url, {}, me["token"])
        assert r.status == 400, (method, path, r.body)
        assert r.body["error"]["code"] == "invalid_request" and list(r.body["error"]["fields"]) == ["colour"]
        assert client.platform.store.recorder.max_notification_id() == before


@pytest.mark.parametrize("path", ["/healthz", "/api/v1/docs", "/api/v1/openapi.json"])
def test_the_routes_outside_the_document_take_no_query_parameter_either(client: Any, path: str) -> None:
    r = client.call("GET", f"{path}?x=1")
    assert r.status == 400 and list(r.body["error"]["fields"]) == ["x"]
    assert client.call("GET", path).status == 200


def test_the_refusal_names_the_parameters_an_endpoint_takes(client: Any) -> None:
    r = client.call("GET", "/api/v1/games?stauts=open")
    assert r.status == 400
    assert r.body["error"]["fields"] == {
        "stauts": ["unknown query parameter; this endpoint takes game, limit, offset, player, status"]
    }
    assert client.call("GET", "/api/v1/games?status=open&limit=5").status == 200


def test_a_parameter_given_twice_is_refused_rather_than_one_of_them_dropped(client: Any) -> None:
    r = client.call("GET", "/api/v1/games?limit=5&limit=6")
    assert r.status == 400 and r.body["error"]["fields"] == {"limit": ["given more than once"]}


def test_moves_take_no_query_parameter(client: Any) -> None:
    a, b = client.player("a"), client.player("b")
    game = client.new_game(a["token"])
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    version = client.game(game["id"])["version"]
    r = client.call(
        "POST",
        f"/api/v1/games/{game['id']}/moves?expected_version=1",
        {"move": {"type": "bid", "amount": 1}},
        a["token"],
    )
    assert r.status == 400 and "expected_version" in r.body["error"]["fields"]
    assert client.game(game["id"])["version"] == version


# ------------------------------------------------------------------ board.svg?at=N


def _svg(client: Any, gid: str, query: str = "", token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.http.get(f"/api/v1/games/{gid}/board.svg{query}", headers=headers)


def _named(client: Any, gid: str, picture: str, who: dict[str, Any] | None) -> str:
    """``picture`` with its seats named as ``who`` names them, as the server draws every board."""
    token, player_id = (who["token"], who["id"]) if who else (None, None)
    doc = client.call("GET", f"/api/v1/games/{gid}", token=token).body
    return name_seats(picture, names_of(doc, player_id))


def _seven_dragons(client: Any) -> tuple[str, dict[int, dict[str, Any]], int]:
    """A 2-seat Seven Dragons game after two cards placed; returns its id, its players by seat,
    and the version before the first card."""
    a, b = client.player("a"), client.player("b")
    gid = client.new_game(a["token"], game="seven-dragons", players=2)["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    players = {0: a, 1: b}
    start = client.game(gid)["version"]
    placed = 0
    for _ in range(20):  # a hand dealt only action cards has no dragon to place: it plays one then
        if placed == 2:
            break
        seat = client.game(gid)["awaiting"][0]
        moves = client.legal(gid, players[seat]["token"])["moves"]
        place = next((m for m in moves if m["type"] == "place_dragon"), None)
        assert client.move(gid, players[seat]["token"], place or moves[0]).status == 201
        placed += place is not None
    assert placed == 2
    return gid, players, start


def test_board_svg_at_a_version_draws_the_board_the_caller_saw_then(client: Any) -> None:
    gid, players, start = _seven_dragons(client)
    ruleset = find_game("seven-dragons")
    for who in (players[0], players[1], None):
        token = who["token"] if who else None
        past = _svg(client, gid, f"?at={start}", token)
        assert past.status_code == 200 and past.mimetype == "image/svg+xml"
        replay = client.call("GET", f"/api/v1/games/{gid}/replay?at={start}", token=token).body
        assert past.get_data(as_text=True) == _named(client, gid, str(ruleset.render_svg(replay["view"])), who)
        assert past.get_data() != _svg(client, gid, "", token).get_data()  # two cards were placed since
    assert _svg(client, gid, f"?at={start}&seat=1", players[1]["token"]).status_code == 200


def test_board_svg_at_a_version_of_an_ended_game_shows_everything(client: Any) -> None:
    gid, players, start = _seven_dragons(client)
    assert client.call("POST", f"/api/v1/games/{gid}/resign", {}, players[1]["token"]).status == 201
    assert client.game(gid)["status"] == "finished"
    past = client.platform.games.load_at(gid, start)
    everything = past.ruleset.render_svg(past.ruleset.view(past.state, Viewer.everyone()))
    for who in (players[0], None):
        drawn = _svg(client, gid, f"?at={start}", who["token"] if who else None).get_data(as_text=True)
        assert drawn == _named(client, gid, everything, who)


def test_board_svg_at_a_version_the_game_never_had_is_400_naming_at(client: Any) -> None:
    gid, _players, _start = _seven_dragons(client)
    version = client.game(gid)["version"]
    for at in (0, version + 1, "x"):
        r = client.call("GET", f"/api/v1/games/{gid}/board.svg?at={at}")
        assert r.status == 400 and "at" in r.body["error"]["fields"], (at, r.body)
