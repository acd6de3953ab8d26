"""The HTTP contract of issue 2, call by call (Dice Race stands in for a game)."""

from __future__ import annotations

from typing import Any

import pytest


def _two_seat_game(client: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    a, b = client.player("alice"), client.player("bob")
    game = client.new_game(a["token"])
    assert client.seat(game["id"], a["token"]).status == 201
    assert client.seat(game["id"], b["token"]).status == 201
    return game, a, b


def _versions(client: Any, gid: str) -> list[int]:
    return [e["version"] for e in client.call("GET", f"/api/v1/games/{gid}/events").body["events"]]


def test_registering_a_player_shows_the_token_once(client: Any) -> None:
    r = client.call("POST", "/api/v1/players", {"name": "ann", "kind": "bot"})
    assert r.status == 201 and r.body["kind"] == "bot" and len(r.body["token"]) > 30
    me = client.call("GET", "/api/v1/me", token=r.body["token"])
    assert me.status == 200 and "token" not in me.body and me.body["id"] == r.body["id"]


def test_a_game_is_created_seated_started_and_summarised(client: Any) -> None:
    game, a, b = _two_seat_game(client)
    assert game["status"] == "open" and game["creator"] == a["id"] and len(game["seed_commitment"]) == 64
    doc = client.game(game["id"], a["token"])
    assert doc["status"] == "active"
    assert [s["player_id"] for s in doc["seats"]] == [a["id"], b["id"]]
    assert doc["awaiting"] == [0, 1] and doc["your_seats"] == [0]
    assert client.call("GET", f"/api/v1/games/{game['id']}?seat=0", token=a["token"]).status == 200
    assert doc["view"]["secrets"][0] is not None and doc["view"]["secrets"][1] is None


def test_legal_moves_can_be_submitted_as_listed(client: Any) -> None:
    game, a, _b = _two_seat_game(client)
    listing = client.legal(game["id"], a["token"])
    assert listing["seat"] == 0 and len(listing["moves"]) == 3 and listing["total"] == 3
    page = client.call("GET", f"/api/v1/games/{game['id']}/legal-moves?offset=1&limit=1", token=a["token"]).body
    assert page["moves"] == listing["moves"][1:2] and page["total"] == 3
    r = client.move(game["id"], a["token"], listing["moves"][0], expected_version=listing["version"])
    assert r.status == 201
    assert r.body["version"] == listing["version"] + 2
    assert [e["type"] for e in r.body["events"]] == ["MoveMade", "BidPlaced"]
    assert client.game(game["id"])["version"] == r.body["version"]
    b_token = client.call("POST", "/api/v1/players", {"name": "x"}).body["token"]  # not seated: 403 before a move
    assert client.call("GET", f"/api/v1/games/{game['id']}/legal-moves", token=b_token).status == 403


def test_a_move_can_answer_with_the_next_legal_moves(client: Any) -> None:
    game, a, _b = _two_seat_game(client)
    r = client.move(game["id"], a["token"], {"type": "bid", "amount": 0}, include_legal_moves=True)
    assert r.status == 201 and r.body["legal_moves"] == client.legal(game["id"], a["token"])
    assert r.body["legal_moves"]["moves"] == []  # alice has bid; bob is awaited


def test_the_game_list_filters_by_status_game_and_player(client: Any) -> None:
    game, a, _b = _two_seat_game(client)
    c = client.player("carol")
    open_game = client.new_game(c["token"])
    client.platform.wait_for_projections()

    def ids(query: str) -> list[str]:
        r = client.call("GET", f"/api/v1/games?{query}")
        assert r.status == 200, r.body
        return [g["id"] for g in r.body["games"]]

    assert ids("status=active") == [game["id"]]
    assert ids("status=open") == [open_game["id"]]
    assert ids(f"player={a['id']}") == [game["id"]]
    assert set(ids("game=dice-race")) == {game["id"], open_game["id"]}
    assert ids("game=tarasque") == []
    assert len(ids("limit=1")) == 1 and ids("limit=1&offset=5") == []
    r = client.call("GET", "/api/v1/games?limit=0")
    assert r.status == 400 and "limit" in r.body["error"]["fields"]


@pytest.mark.parametrize(
    ("method", "path", "body", "raw", "auth", "status", "code"),
    [
        ("POST", "/api/v1/games", None, b"{not json", True, 400, "malformed_json"),
        (
            "POST",
            "/api/v1/games",
            {"game": "dice-race", "players": 2, "colour": "red"},
            None,
            True,
            400,
            "invalid_request",
        ),
        ("POST", "/api/v1/games", {"game": "dice-race", "players": "two"}, None, True, 400, "invalid_request"),
        ("POST", "/api/v1/games", {"game": "nope", "players": 2}, None, True, 400, "invalid_request"),
        ("POST", "/api/v1/games", {"game": "dice-race", "players": 9}, None, True, 400, "invalid_request"),
        ("POST", "/api/v1/games", {"game": "dice-race", "players": 2}, None, False, 401, "unauthenticated"),
        ("GET", "/api/v1/games/00000000-0000-0000-0000-000000000000", None, None, False, 404, "game_not_found"),
        ("GET", "/api/v1/games/not-a-uuid", None, None, False, 404, "game_not_found"),
        ("GET", "/api/v1/nowhere", None, None, False, 404, "not_found"),
    ],
)
def test_bad_requests_get_their_own_status_and_an_error_object(
    client: Any, method: str, path: str, body: Any, raw: bytes | None, auth: bool, status: int, code: str
) -> None:
    token = client.player()["token"] if auth else None
    r = client.call(method, path, body, token, raw=raw)
    assert r.status == status, r.body
    assert r.body["error"]["code"] == code and r.body["error"]["message"]


def test_a_wrong_token_is_401_even_where_a_token_is_optional(client: Any) -> None:
    game, _a, _b = _two_seat_game(client)
    r = client.call("GET", f"/api/v1/games/{game['id']}", token="wrong")
    assert r.status == 401
    r = client.call("GET", f"/api/v1/games/{game['id']}", token=None)
    assert r.status == 200


def test_move_errors_map_to_403_409_422_and_write_nothing(client: Any) -> None:
    game, a, _b = _two_seat_game(client)
    gid = game["id"]
    before = _versions(client, gid)
    stranger = client.player("eve")
    cases = [
        (stranger["token"], {"move": {"type": "bid", "amount": 0}}, 403, "not_a_player"),
        (a["token"], {"move": {"type": "bid", "amount": 0}, "expected_version": 1}, 409, "stale_version"),
        (a["token"], {"move": {"type": "roll"}}, 422, "illegal_move"),
        (a["token"], {"move": {"type": "bid", "amount": 5}}, 422, "illegal_move"),
        (a["token"], {"move": {"type": "fly"}}, 400, "malformed_move"),
        (a["token"], {"move": {"type": "bid", "amount": 1, "extra": 1}}, 400, "malformed_move"),
        (a["token"], {"move": {"type": "bid", "amount": 0}, "bogus": True}, 400, "invalid_request"),
        (None, {"move": {"type": "bid", "amount": 0}}, 401, "unauthenticated"),
    ]
    for token, body, status, code in cases:
        r = client.call("POST", f"/api/v1/games/{gid}/moves", body, token)
        assert (r.status, r.body["error"]["code"]) == (status, code), (body, r.body)
    r = client.call("POST", f"/api/v1/games/{gid}/moves", {"move": {"type": "roll"}}, a["token"])
    assert r.body["error"]["rule"]["id"] == "dice-race.roll" and r.body["error"]["rule"]["text"]
    assert _versions(client, gid) == before


def test_not_your_turn_is_422_with_its_rule(client: Any) -> None:
    game, a, _b = _two_seat_game(client)
    assert client.move(game["id"], a["token"], {"type": "bid", "amount": 0}).status == 201
    r = client.move(game["id"], a["token"], {"type": "bid", "amount": 0})
    assert r.status == 422 and r.body["error"]["code"] == "not_your_turn" and r.body["error"]["rule"]


def test_a_finished_game_refuses_moves_with_409(client: Any) -> None:
    game, a, b = _two_seat_game(client)
    assert client.call("POST", f"/api/v1/games/{game['id']}/resign", {}, b["token"]).status == 201
    r = client.move(game["id"], a["token"], {"type": "bid", "amount": 0})
    assert r.status == 409 and r.body["error"]["code"] == "not_accepting_moves"
    doc = client.game(game["id"])
    assert doc["status"] == "finished" and doc["outcome"]["winners"] == [0]


def test_only_the_creator_adds_server_bots_or_starts_early(client: Any) -> None:
    a, b = client.player("a"), client.player("b")
    game = client.new_game(a["token"], players=3)
    assert client.seat(game["id"], b["token"], bot="random").status == 403
    assert client.call("POST", f"/api/v1/games/{game['id']}/start", None, b["token"]).status == 403
    assert client.seat(game["id"], a["token"], bot="random").status == 201
    assert client.seat(game["id"], b["token"]).status == 201
    r = client.call("POST", f"/api/v1/games/{game['id']}/start", None, a["token"])
    assert r.status == 200 and r.body["status"] == "active" and len(r.body["seats"]) == 2


def test_events_and_replays_agree_with_the_game(client: Any) -> None:
    game, a, b = _two_seat_game(client)
    gid = game["id"]
    client.move(gid, a["token"], {"type": "bid", "amount": 1})
    client.move(gid, b["token"], {"type": "bid", "amount": 2})
    events = client.call("GET", f"/api/v1/games/{gid}/events").body["events"]
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(events) + 1))
    doc = client.game(gid, a["token"])
    replay = client.call("GET", f"/api/v1/games/{gid}/replay?at={doc['version']}", token=a["token"]).body
    assert replay["view"] == doc["view"] and replay["version"] == doc["version"]
    early = client.call("GET", f"/api/v1/games/{gid}/replay?at=1").body
    assert early["version"] == 1 and early["status"] == "open" and early["view"] is None
    after = client.call("GET", f"/api/v1/games/{gid}/events?after={versions[-3]}").body["events"]
    assert [e["version"] for e in after] == versions[-2:]
    r = client.call("GET", f"/api/v1/games/{gid}/replay?at={doc['version'] + 1}")
    assert r.status == 400 and r.body["error"]["fields"]["at"]


def test_the_openapi_document_and_the_docs_page_are_served(client: Any) -> None:
    spec = client.call("GET", "/api/v1/openapi.json").body
    assert spec["openapi"].startswith("3.")
    assert "/api/v1/games/{game_id}/moves" in spec["paths"]
    page = client.http.get("/api/v1/docs")
    assert page.status_code == 200 and b"/api/v1/games/{game_id}/moves" in page.data
    assert client.call("GET", "/healthz").body["status"] == "ok"


def test_the_openapi_document_describes_the_error_body_and_refuses_unknown_request_fields(client: Any) -> None:
    """Clients generated from the document must read the errors this API writes, and know that
    a request body with an unknown field is refused."""
    spec = client.call("GET", "/api/v1/openapi.json").body
    schemas = spec["components"]["schemas"]
    bad = spec["components"]["responses"]["BAD_REQUEST"]["content"]["application/json"]["schema"]
    assert bad == {"$ref": "#/components/schemas/Error"}
    assert schemas["Error"]["required"] == ["error"]
    detail = schemas["ErrorDetail"]
    assert set(detail["required"]) == {"code", "message"} and {"rule", "fields"} <= set(detail["properties"])
    wrong = client.call("GET", "/api/v1/games/nope")
    assert wrong.status == 404 and set(wrong.body) == {"error"}
    assert set(wrong.body["error"]) <= set(detail["properties"])
    for request in ("GameCreate", "MoveRequest", "SeatRequest", "TimeControl", "PlayerCreate"):
        assert schemas[request]["additionalProperties"] is False, request
    svg = spec["paths"]["/api/v1/games/{game_id}/board.svg"]["get"]["responses"]["200"]
    assert list(svg["content"]) == ["image/svg+xml"]


def test_integers_beyond_the_stores_range_are_400_not_500(client: Any) -> None:
    """Found by schemathesis: an offset of 2**64 reached SQLite and failed there."""
    me = client.player("big")
    game = client.new_game(me["token"])
    for path in (
        "/api/v1/games?offset=17111366277575153664",
        f"/api/v1/games/{game['id']}/events?after=2147483648",
        f"/api/v1/games/{game['id']}/replay?at=99999999999999999999",
    ):
        r = client.call("GET", path, token=me["token"])
        assert r.status == 400 and r.body["error"]["code"] == "invalid_request", (path, r.body)


def test_a_method_not_allowed_names_the_allowed_ones(client: Any) -> None:
    r = client.http.open("/api/v1/players", method="DELETE")
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "method_not_allowed"
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"POST"}


def test_the_catalog_describes_games_variants_bots_and_moves(client: Any) -> None:
    games = {g["game"]: g for g in client.call("GET", "/api/v1/catalog").body["games"]}
    race = games["dice-race"]
    assert race["variants"][0]["min_seats"] == 2 and race["variants"][0]["options"][0]["name"] == "goal"
    assert race["moves"]["bid"] == {"amount": "int"}
    assert "random" in race["bots"]


def test_a_newcomer_joins_a_running_game_where_its_rules_allow(client: Any) -> None:
    """Seven Dragons lets a newcomer join a running game of fewer than 5 players; Dice Race does not.
    Only a player the creator invited may join a running game: a stranger who joined could read its
    journal and open disputes."""
    a, b, c = client.player("a"), client.player("b"), client.player("c")
    stranger = client.player("stranger")
    game = client.new_game(a["token"], game="seven-dragons", players=2, invite=[b["id"], c["id"]])
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    refused = client.seat(game["id"], stranger["token"])
    assert refused.status == 403 and refused.body["error"]["code"] == "not_invited"
    r = client.seat(game["id"], c["token"])
    assert r.status == 201, r.body
    assert [s["player_id"] for s in r.body["seats"]] == [a["id"], b["id"], c["id"]]
    assert r.body["your_seats"] == [2]
    events = client.call("GET", f"/api/v1/games/{game['id']}/events", token=c["token"]).body["events"]
    joined = [e for e in events if e["type"] == "Joined"]
    assert joined and joined[0]["data"]["seat"] == 2
    assert client.seat(game["id"], c["token"]).status == 409  # already seated
    race = client.new_game(a["token"])
    client.seat(race["id"], a["token"])
    client.seat(race["id"], b["token"])
    assert client.seat(race["id"], c["token"]).status == 409


@pytest.mark.parametrize("error", ["OperationalError", "InterfaceError"])
def test_a_store_that_cannot_be_reached_is_503_with_retry_after(client: Any, monkeypatch: Any, error: str) -> None:
    """A database restarting: the client may retry (with its command_id), and learns nothing of the database."""
    from eventsourcing import persistence

    game, a, _b = _two_seat_game(client)
    listing = client.legal(game["id"], a["token"])

    def unreachable(*_: Any, **__: Any) -> None:
        raise getattr(persistence, error)("terminating connection due to administrator command (host db-7)")

    monkeypatch.setattr(client.platform.games, "submit_move", unreachable)
    r = client.http.open(
        f"/api/v1/games/{game['id']}/moves",
        method="POST",
        json={"move": listing["moves"][0], "command_id": "c1"},
        headers={"Authorization": f"Bearer {a['token']}"},
    )
    assert r.status_code == 503
    assert r.headers["Retry-After"] == "1"
    assert r.get_json()["error"]["code"] == "store_unavailable"
    assert "db-7" not in r.get_data(as_text=True)
    monkeypatch.undo()
    assert client.move(game["id"], a["token"], listing["moves"][0], command_id="c1").status == 201


def test_a_dispute_id_is_no_game_and_a_game_id_no_dispute(client: Any) -> None:
    """Games and disputes are aggregates of one store: each id is looked up as its own kind (a 500
    before, when the repository handed a dispute to code that expected a game)."""
    a, b = client.player("a"), client.player("b")
    game = client.new_game(a["token"])
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    version = client.game(game["id"])["version"]
    dispute = client.call(
        "POST", f"/api/v1/games/{game['id']}/disputes", {"version": version, "claim": "c"}, a["token"]
    ).body["id"]
    for path in ("", "/events", "/steps", "/audit", "/journal", "/record", "/disputes", "/replay?at=1"):
        r = client.call("GET", f"/api/v1/games/{dispute}{path}", token=a["token"])
        assert r.status == 404 and r.body["error"]["code"] == "game_not_found", (path, r.body)
    r = client.call("POST", f"/api/v1/disputes/{game['id']}/resolve", {"verdict": "withdrawn"}, a["token"])
    assert r.status == 404 and r.body["error"]["code"] == "dispute_not_found"
    assert client.call("GET", f"/api/v1/disputes/{game['id']}").status == 404
