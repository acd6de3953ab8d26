"""The OpenAPI document tells the truth: each operation lists exactly the status codes it answers,
every error with the error body, and declares the bearer security it needs.

``test_each_documented_status_code_is_answered_and_each_answer_is_documented`` makes one request per
(operation, status) pair, so a code the server never sends, or one it sends undocumented, fails it;
a token without the operation's scope gets the 403 of each operation that reads a token. 503 (a
store that cannot be reached) is documented on every operation that reads a store and is checked
where it is produced (``test_api_contract``); 429 is answered by every operation that documents it
in ``test_every_operation_that_documents_429_answers_it_over_its_limit``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

NO_ID = "00000000-0000-0000-0000-000000000000"
BIG = json.dumps({"pad": "x" * (1 << 20)})
TOURNAMENT = {
    "name": "cup",
    "game": "dice-race",
    "seats": 2,
    "format": "swiss",
    "rounds": 1,
    "capacity": 2,
    "starts_at": (datetime.now(UTC) + timedelta(days=1)).isoformat(),
    "round_seconds": 3600,
}
MINIMAL_BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/v1/players"): {"name": "n"},
    ("PUT", "/api/v1/me/webhook"): {"url": None},
    ("POST", "/api/v1/me/tokens"): {"name": "n", "scopes": ["read"]},
    ("POST", "/api/v1/me/vacation"): {"start": (date.today() + timedelta(days=30)).isoformat(), "days": 1},
    ("POST", "/api/v1/games"): {"game": "dice-race", "players": 2},
    ("POST", "/api/v1/games/{game_id}/seats"): {},
    ("POST", "/api/v1/games/{game_id}/moves"): {"move": {"type": "bid", "amount": 1}},
    ("POST", "/api/v1/games/{game_id}/resign"): {},
    ("POST", "/api/v1/games/{game_id}/leave"): {},
    ("POST", "/api/v1/games/{game_id}/invitations"): {"invite": ["carol"]},
    ("POST", "/api/v1/games/{game_id}/disputes"): {"version": 1, "claim": "c"},
    ("POST", "/api/v1/disputes/{dispute_id}/resolve"): {"verdict": "upheld"},
    ("POST", "/api/v1/me/bots"): {"name": "n"},
    ("POST", "/api/v1/tournaments"): TOURNAMENT,
    ("POST", "/api/v1/tournaments/{tournament_id}/registrations"): {},
    ("POST", "/api/v1/sessions"): {"name": "n", "password": "a password"},
    ("POST", "/api/v1/sessions/recovery"): {"name": "n", "code": "c"},
    ("PUT", "/api/v1/me/password"): {"password": "a new password"},
    ("POST", "/api/v1/invitations/{invitation_id}/decline"): {},
    ("POST", "/api/v1/play-now"): {"game": "dice-race"},
}
"""A body each operation with one accepts as well formed, so that what follows is about the token."""
MINIMAL_QUERIES = {("GET", "/api/v1/games/{game_id}/replay"): "?at=1"}
"""The query an operation with required query parameters needs, for the same reason."""


def _spec(client: Any) -> dict[str, Any]:
    return client.call("GET", "/api/v1/openapi.json").body


def _operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (m.upper(), path): op
        for path, ops in spec["paths"].items()
        for m, op in ops.items()
        if m in ("get", "post", "put", "delete", "patch")
    }


def _resolve(spec: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    ref = response.get("$ref")
    return spec["components"]["responses"][ref.rsplit("/", 1)[1]] if ref else response


def test_every_error_response_is_documented_with_the_error_body_and_there_is_no_catch_all(client: Any) -> None:
    spec = _spec(client)
    for key, op in _operations(spec).items():
        assert "default" not in op["responses"], key
        for code, response in op["responses"].items():
            if int(code) >= 400:
                schema = _resolve(spec, response)["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (key, code)
        assert "400" in op["responses"], key  # every operation refuses a query parameter it does not take
        assert ("422" in op["responses"]) == (key == ("POST", "/api/v1/games/{game_id}/moves")), key
    retry = _resolve(spec, {"$ref": "#/components/responses/SERVICE_UNAVAILABLE"})
    assert "Retry-After" in retry["headers"]


def _call(client: Any, method: str, path: str, token: str | None, body: Any = None, game: str = NO_ID) -> Any:
    url = path.replace("{game_id}", game).replace("{dispute_id}", NO_ID).replace("{token_id}", NO_ID)
    url += MINIMAL_QUERIES.get((method, path), "")
    return client.call(method, url, body, token)


def _running_game(client: Any) -> str:
    a, b = client.player("a"), client.player("b")
    gid = client.new_game(a["token"])["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    return gid


def test_operations_that_declare_bearer_security_answer_401_without_a_token(client: Any) -> None:
    spec = _spec(client)
    me = client.player("me")
    required = [key for key, op in _operations(spec).items() if op.get("security") == [{"bearer": []}]]
    assert len(required) >= 10
    game = _running_game(client)
    for method, path in required:
        body = MINIMAL_BODIES.get((method, path))
        r = _call(client, method, path, None, body, game)
        assert r.status == 401 and r.body["error"]["code"] == "unauthenticated", (method, path, r.body)
        assert _call(client, method, path, me["token"], body, game).status != 401, (method, path)


def test_operations_with_an_optional_token_refuse_a_bad_one_and_serve_without_one(client: Any) -> None:
    spec = _spec(client)
    optional = [key for key, op in _operations(spec).items() if op.get("security") == [{}, {"bearer": []}]]
    assert len(optional) >= 10
    game = _running_game(client)
    for method, path in optional:
        assert _call(client, method, path, "not-a-token", game=game).status == 401, (method, path)
        assert _call(client, method, path, None, game=game).status != 401, (method, path)


def test_operations_without_security_ignore_the_authorization_header(client: Any) -> None:
    spec = _spec(client)
    public = [key for key, op in _operations(spec).items() if "security" not in op]
    assert sorted(public) == [
        ("GET", "/api/v1/catalog"),
        ("GET", "/api/v1/keys"),
        ("POST", "/api/v1/players"),
        ("POST", "/api/v1/sessions"),
        ("POST", "/api/v1/sessions/recovery"),
    ]
    sam = client.call("POST", "/api/v1/players", {"name": "sam", "password": "sam's password"}).body
    bodies = {
        ("POST", "/api/v1/sessions"): {"name": "sam", "password": "sam's password"},
        ("POST", "/api/v1/sessions/recovery"): {"name": "sam", "code": sam["recovery_codes"][0]},
    }
    for method, path in public:
        body = bodies.get((method, path), MINIMAL_BODIES.get((method, path)))
        r = _call(client, method, path, "not-a-token", body)
        assert r.status in (200, 201), (method, path, r.body)
    security = spec["components"]["securitySchemes"]["bearer"]
    assert security == {"type": "http", "scheme": "bearer"}


def test_every_operation_with_a_body_has_a_minimal_one_in_these_tests(client: Any) -> None:
    with_body = {key for key, op in _operations(_spec(client)).items() if "requestBody" in op}
    assert with_body == set(MINIMAL_BODIES)


# ------------------------------------------------------------------ every code, answered


@dataclass
class Ask:
    """One request, the operation it is for (as the document names it) and the status it must get."""

    method: str
    path: str
    url: str
    status: int
    body: Any = None
    token: str | None = None
    raw: bytes | None = None


def _world(client: Any) -> dict[str, Any]:
    """Players and games in every state the requests below need."""
    alice, bob, carol = client.player("alice"), client.player("bob"), client.player("carol")
    w: dict[str, Any] = {"a": alice["token"], "b": bob["token"], "c": carol["token"], "b_id": bob["id"]}

    def table(players: int = 2, seated: tuple[str, ...] = ("a", "b"), **extra: Any) -> str:
        gid = client.new_game(alice["token"], players=players, **extra)["id"]
        for who in seated:
            assert client.seat(gid, w[who]).status == 201
        return gid

    w["running"] = table()
    w["to_resign"] = table()
    w["open"] = table(seated=())
    w["to_start"] = table(players=3)
    w["to_close"] = table(players=3)
    w["to_leave"] = table(players=3)
    w["to_invite"] = table(players=3)
    w["over"] = table(seated=("b", "c"), options={"goal": 5})  # alice, who holds no seat, arbitrates it
    while (doc := client.game(w["over"]))["status"] == "active":
        token = w["b"] if doc["awaiting"][0] == 0 else w["c"]
        assert client.move(w["over"], token, client.legal(w["over"], token)["moves"][0]).status == 201
    w["over_version"] = doc["version"]
    dragons = client.new_game(alice["token"], game="seven-dragons", players=2)["id"]
    client.seat(dragons, w["a"])
    client.seat(dragons, w["b"])
    w["dragons"] = dragons
    version = client.game(w["running"])["version"]
    running = client.call(
        "POST", f"/api/v1/games/{w['running']}/disputes", {"version": version, "claim": "early"}, w["a"]
    )
    w["running_dispute"] = running.body["id"]
    for name, scopes in (("read", ["read"]), ("play", ["play"]), ("read_account", ["read", "account"])):
        w[name] = client.call("POST", "/api/v1/me/tokens", {"name": name, "scopes": scopes}, w["a"]).body["token"]
    to_revoke = client.call("POST", "/api/v1/me/tokens", {"name": "x", "scopes": ["read"]}, w["a"])
    w["to_revoke"] = to_revoke.body["id"]
    w["cup"] = client.call("POST", "/api/v1/tournaments", TOURNAMENT, w["a"]).body["id"]
    full = client.call("POST", "/api/v1/tournaments", TOURNAMENT, w["a"]).body["id"]
    for who in ("a", "b"):
        client.call("POST", f"/api/v1/tournaments/{full}/registrations", {}, w[who])
    w["full_cup"] = full
    w["cup_to_start"] = client.call("POST", "/api/v1/tournaments", TOURNAMENT, w["a"]).body["id"]
    for who in ("a", "b"):
        client.call("POST", f"/api/v1/tournaments/{w['cup_to_start']}/registrations", {}, w[who])
    w["cup_to_cancel"] = client.call("POST", "/api/v1/tournaments", TOURNAMENT, w["a"]).body["id"]
    erin = client.call("POST", "/api/v1/players", {"name": "erin", "password": "erin's password"}).body
    w["erin_code"] = erin["recovery_codes"][0]
    for name in ("to_accept", "to_decline"):
        gid = client.new_game(alice["token"], players=2, invite=[bob["name"].upper()])["id"]
        received = client.call("GET", "/api/v1/me/invitations", token=bob["token"]).body["received"]
        w[name] = next(i["invitation_id"] for i in received if i["game_id"] == gid)
    return w


def _scope_asks(spec: dict[str, Any], w: dict[str, Any]) -> list[Ask]:
    """For each operation that reads a token: a token of alice's without its scope, refused with 403."""
    lacking = {"read": w["play"], "play": w["read"], "account": w["read"]}
    asks = []
    for (method, path), op in _operations(spec).items():
        if op.get("x-scope"):
            url = path.replace("{game_id}", w["running"]).replace("{dispute_id}", w["running_dispute"])
            url = url.replace("{token_id}", NO_ID)
            body = MINIMAL_BODIES.get((method, path))
            asks.append(Ask(method, path, url, 403, body=body, token=lacking[op["x-scope"]]))
    return asks


def _asks(w: dict[str, Any]) -> list[Ask]:
    a, b, c = w["a"], w["b"], w["c"]
    g, over, nope = w["running"], w["over"], NO_ID
    future = (date.today() + timedelta(days=30)).isoformat()
    asks: list[Ask] = []

    def add(method: str, path: str, status: int, *, url: str | None = None, **kw: Any) -> None:
        asks.append(Ask(method, path, url or path, status, **kw))

    def game_op(method: str, tail: str, status: int, gid: str, url: str | None = None, **kw: Any) -> None:
        add(method, "/api/v1/games/{game_id}" + tail, status, url=url or f"/api/v1/games/{gid}{tail}", **kw)

    def too_large(method: str, path: str, url: str | None = None, token: str | None = a) -> None:
        add(method, path, 413, url=url, raw=BIG.encode(), token=token)

    add("POST", "/api/v1/players", 201, body={"name": "dora", "password": "dora's password"})
    add("POST", "/api/v1/players", 400, body={})
    add("POST", "/api/v1/players", 409, body={"name": "DORA"})  # another case of a name taken
    too_large("POST", "/api/v1/players", token=None)
    asks.extend(_people_asks(w))
    for tail in ("", "/inbox", "/vacation"):
        add("GET", "/api/v1/me" + tail, 200, token=a)
        add("GET", "/api/v1/me" + tail, 400, url=f"/api/v1/me{tail}?x=1", token=a)
        add("GET", "/api/v1/me" + tail, 401)
    add("PUT", "/api/v1/me/webhook", 200, body={"url": None}, token=a)
    add("PUT", "/api/v1/me/webhook", 400, body={"url": "nope"}, token=a)
    add("PUT", "/api/v1/me/webhook", 401, body={"url": None})
    too_large("PUT", "/api/v1/me/webhook")
    reader = {"name": "r", "scopes": ["read"]}
    add("POST", "/api/v1/me/tokens", 201, body=reader, token=a)
    add("POST", "/api/v1/me/tokens", 400, body={"name": "r", "scopes": []}, token=a)
    add("POST", "/api/v1/me/tokens", 401, body=reader)
    add("POST", "/api/v1/me/tokens", 403, body={"name": "p", "scopes": ["play"]}, token=w["read_account"])
    too_large("POST", "/api/v1/me/tokens")
    add("GET", "/api/v1/me/tokens", 200, token=a)
    add("GET", "/api/v1/me/tokens", 400, url="/api/v1/me/tokens?x=1", token=a)
    add("GET", "/api/v1/me/tokens", 401)
    revoke = "/api/v1/me/tokens/{token_id}"
    add("DELETE", revoke, 204, url=f"/api/v1/me/tokens/{w['to_revoke']}", token=a)
    add("DELETE", revoke, 400, url=f"/api/v1/me/tokens/{nope}?x=1", token=a)
    add("DELETE", revoke, 401, url=f"/api/v1/me/tokens/{nope}")
    add("DELETE", revoke, 404, url=f"/api/v1/me/tokens/{w['to_revoke']}", token=b)  # not bob's
    add("POST", "/api/v1/me/vacation", 201, body={"start": future, "days": 1}, token=a)
    add("POST", "/api/v1/me/vacation", 400, body={"start": "2000-01-01", "days": 1}, token=a)
    add("POST", "/api/v1/me/vacation", 401, body={"start": future, "days": 1})
    too_large("POST", "/api/v1/me/vacation")

    add("POST", "/api/v1/games", 201, body={"game": "dice-race", "players": 2}, token=a)
    add("POST", "/api/v1/games", 400, body={"game": "dice-race"}, token=a)
    add("POST", "/api/v1/games", 401, body={"game": "dice-race", "players": 2})
    too_large("POST", "/api/v1/games")
    add("GET", "/api/v1/games", 200)
    add("GET", "/api/v1/games", 400, url="/api/v1/games?limit=0")
    add("GET", "/api/v1/games", 401, token="bad")

    for tail in ("", "/events", "/log", "/steps", "/audit", "/disputes"):
        game_op("GET", tail, 200, g, token=a)
        game_op("GET", tail, 400, g, url=f"/api/v1/games/{g}{tail}?x=1")
        game_op("GET", tail, 401, g, token="bad")
        game_op("GET", tail, 404, nope)
    game_op("GET", "/replay", 200, g, url=f"/api/v1/games/{g}/replay?at=1")
    game_op("GET", "/replay", 400, g, url=f"/api/v1/games/{g}/replay?at=0")
    game_op("GET", "/replay", 401, g, url=f"/api/v1/games/{g}/replay?at=1", token="bad")
    game_op("GET", "/replay", 404, nope, url=f"/api/v1/games/{nope}/replay?at=1")
    game_op("GET", "/board.svg", 200, w["dragons"])
    game_op("GET", "/board.svg", 400, w["dragons"], url=f"/api/v1/games/{w['dragons']}/board.svg?at=0")
    game_op("GET", "/board.svg", 401, w["dragons"], token="bad")
    game_op("GET", "/board.svg", 404, g)  # Dice Race draws no board
    game_op("GET", "/record", 200, over)
    game_op("GET", "/record", 400, over, url=f"/api/v1/games/{over}/record?x=1")
    game_op("GET", "/record", 401, over, token="bad")
    game_op("GET", "/record", 404, nope)
    game_op("GET", "/record", 409, g)
    game_op("GET", "/journal", 200, g, token=a)
    game_op("GET", "/journal", 400, g, url=f"/api/v1/games/{g}/journal?x=1", token=a)
    game_op("GET", "/journal", 401, g, token="bad")
    game_op("GET", "/journal", 403, g, token=c)
    game_op("GET", "/journal", 404, nope, token=a)
    game_op("GET", "/stream", 200, g, token=a)
    game_op("GET", "/stream", 400, g, url=f"/api/v1/games/{g}/stream?after=-1")
    game_op("GET", "/stream", 401, g, token="bad")
    game_op("GET", "/stream", 403, g, url=f"/api/v1/games/{g}/stream?seat=0", token=c)
    game_op("GET", "/stream", 404, nope)
    add("GET", "/api/v1/stream/events", 200, token=a)
    add("GET", "/api/v1/stream/events", 400, url="/api/v1/stream/events?after=-1", token=a)
    add("GET", "/api/v1/stream/events", 401)
    game_op("GET", "/legal-moves", 200, g, token=a)
    game_op("GET", "/legal-moves", 400, g, url=f"/api/v1/games/{g}/legal-moves?limit=1001", token=a)
    game_op("GET", "/legal-moves", 401, g)
    game_op("GET", "/legal-moves", 403, g, token=c)
    game_op("GET", "/legal-moves", 404, nope, token=a)
    game_op("GET", "/advice", 200, g, token=a)  # before a moves: Dice Race's bids await both seats
    game_op("GET", "/advice", 400, g, url=f"/api/v1/games/{g}/advice?bot=no-such-bot", token=a)
    game_op("GET", "/advice", 401, g)
    game_op("GET", "/advice", 403, g, token=c)
    game_op("GET", "/advice", 404, nope, token=a)
    game_op("GET", "/advice", 409, over, token=b)

    game_op("POST", "/seats", 201, w["open"], body={}, token=c)
    game_op("POST", "/seats", 400, w["open"], body={"seat": -1}, token=c)
    game_op("POST", "/seats", 401, w["open"], body={})
    game_op("POST", "/seats", 403, w["open"], body={"bot": "random"}, token=b)  # only the creator adds bots
    game_op("POST", "/seats", 404, nope, body={}, token=c)
    game_op("POST", "/seats", 409, g, body={}, token=c)  # Dice Race takes no newcomer once running
    too_large("POST", "/api/v1/games/{game_id}/seats", f"/api/v1/games/{w['open']}/seats")
    game_op("POST", "/start", 400, w["to_start"], url=f"/api/v1/games/{w['to_start']}/start?x=1", token=a)
    game_op("POST", "/start", 401, w["to_start"])
    game_op("POST", "/start", 403, w["to_start"], token=b)
    game_op("POST", "/start", 404, nope, token=a)
    game_op("POST", "/start", 409, g, token=a)
    game_op("POST", "/start", 200, w["to_start"], token=a)
    game_op("POST", "/close", 400, w["to_close"], url=f"/api/v1/games/{w['to_close']}/close?x=1", token=a)
    game_op("POST", "/close", 401, w["to_close"])
    game_op("POST", "/close", 403, w["to_close"], token=b)
    game_op("POST", "/close", 404, nope, token=a)
    game_op("POST", "/close", 409, g, token=a)
    game_op("POST", "/close", 200, w["to_close"], token=a)
    game_op("POST", "/leave", 400, w["to_leave"], body={"seat": -1}, token=b)
    game_op("POST", "/leave", 401, w["to_leave"], body={})
    game_op("POST", "/leave", 403, w["to_leave"], body={}, token=c)  # c holds no seat there
    game_op("POST", "/leave", 404, nope, body={}, token=b)
    game_op("POST", "/leave", 409, g, body={}, token=b)  # a running game's seat is resigned, not left
    too_large("POST", "/api/v1/games/{game_id}/leave", f"/api/v1/games/{w['to_leave']}/leave")
    game_op("POST", "/leave", 200, w["to_leave"], body={}, token=b)
    carol = {"invite": ["carol"]}
    game_op("POST", "/invitations", 400, w["to_invite"], body={"invite": []}, token=a)
    game_op("POST", "/invitations", 401, w["to_invite"], body=carol)
    game_op("POST", "/invitations", 403, w["to_invite"], body=carol, token=b)  # only its creator invites
    game_op("POST", "/invitations", 404, nope, body=carol, token=a)
    game_op("POST", "/invitations", 409, g, body=carol, token=a)  # a running game invites nobody
    too_large("POST", "/api/v1/games/{game_id}/invitations", f"/api/v1/games/{w['to_invite']}/invitations")
    game_op("POST", "/invitations", 201, w["to_invite"], body=carol, token=a)

    bid = {"move": {"type": "bid", "amount": 1}, "command_id": "k1"}
    game_op("POST", "/moves", 400, g, body={"move": {"type": "bid"}}, token=a)
    game_op("POST", "/moves", 401, g, body=bid)
    game_op("POST", "/moves", 403, g, body=bid, token=c)
    game_op("POST", "/moves", 404, nope, body=bid, token=a)
    game_op("POST", "/moves", 409, g, body={**bid, "expected_version": 1}, token=a)
    game_op("POST", "/moves", 422, g, body={"move": {"type": "bid", "amount": 5}}, token=a)
    too_large("POST", "/api/v1/games/{game_id}/moves", f"/api/v1/games/{g}/moves")
    game_op("POST", "/moves", 201, g, body=bid, token=a)
    game_op("POST", "/moves", 200, g, body=bid, token=a)  # the same command_id: the first result
    game_op("POST", "/resign", 400, w["to_resign"], body={"seat": "x"}, token=a)
    game_op("POST", "/resign", 401, w["to_resign"], body={})
    game_op("POST", "/resign", 403, w["to_resign"], body={}, token=c)
    game_op("POST", "/resign", 404, nope, body={}, token=a)
    game_op("POST", "/resign", 409, over, body={}, token=a)
    too_large("POST", "/api/v1/games/{game_id}/resign", f"/api/v1/games/{w['to_resign']}/resign")
    game_op("POST", "/resign", 201, w["to_resign"], body={}, token=a)

    claim = {"version": w["over_version"], "claim": "I was right"}
    game_op("POST", "/disputes", 400, over, body={**claim, "version": 0}, token=a)
    game_op("POST", "/disputes", 401, over, body=claim)
    game_op("POST", "/disputes", 403, g, body={"version": 1, "claim": "x"}, token=c)
    game_op("POST", "/disputes", 404, nope, body=claim, token=a)
    too_large("POST", "/api/v1/games/{game_id}/disputes", f"/api/v1/games/{over}/disputes")
    game_op("POST", "/disputes", 201, over, body=claim, token=a)
    asks.extend(_competition_asks(w))
    add("GET", "/api/v1/catalog", 200)
    add("GET", "/api/v1/catalog", 400, url="/api/v1/catalog?x=1")
    add("GET", "/api/v1/keys", 200)
    add("GET", "/api/v1/keys", 400, url="/api/v1/keys?x=1")
    return asks


def _people_asks(w: dict[str, Any]) -> list[Ask]:
    """Names, passwords, recovery codes, invitations and play now."""
    a, b, c = w["a"], w["b"], w["c"]
    one, accept, decline = (
        "/api/v1/invitations/{invitation_id}",
        "/api/v1/invitations/{invitation_id}/accept",
        "/api/v1/invitations/{invitation_id}/decline",
    )
    mine, gone = w["to_accept"], w["to_decline"]
    dora = {"name": "dora", "password": "dora's password"}
    recovery = {"name": "erin", "code": w["erin_code"]}
    return [
        Ask("GET", "/api/v1/players", "/api/v1/players?q=ali", 200),
        Ask("GET", "/api/v1/players", "/api/v1/players?q=", 400),
        Ask("GET", "/api/v1/players", "/api/v1/players?q=ali", 401, token="bad"),
        Ask("POST", "/api/v1/sessions", "/api/v1/sessions", 201, body=dora),
        Ask("POST", "/api/v1/sessions", "/api/v1/sessions", 400, body={}),
        Ask("POST", "/api/v1/sessions", "/api/v1/sessions", 401, body={**dora, "password": "wrong password"}),
        Ask("POST", "/api/v1/sessions", "/api/v1/sessions", 413, raw=BIG.encode()),
        Ask("POST", "/api/v1/sessions/recovery", "/api/v1/sessions/recovery", 201, body=recovery),
        Ask("POST", "/api/v1/sessions/recovery", "/api/v1/sessions/recovery", 400, body={}),
        Ask("POST", "/api/v1/sessions/recovery", "/api/v1/sessions/recovery", 401, body=recovery),  # spent
        Ask("POST", "/api/v1/sessions/recovery", "/api/v1/sessions/recovery", 413, raw=BIG.encode()),
        Ask("PUT", "/api/v1/me/password", "/api/v1/me/password", 204, body={"password": "a new one!"}, token=a),
        Ask("PUT", "/api/v1/me/password", "/api/v1/me/password", 400, body={"password": "short"}, token=a),
        Ask("PUT", "/api/v1/me/password", "/api/v1/me/password", 401, body={"password": "a new one!"}),
        Ask("PUT", "/api/v1/me/password", "/api/v1/me/password", 413, raw=BIG.encode(), token=a),
        Ask("POST", "/api/v1/me/recovery-codes", "/api/v1/me/recovery-codes", 201, token=a),
        Ask("POST", "/api/v1/me/recovery-codes", "/api/v1/me/recovery-codes?x=1", 400, token=a),
        Ask("POST", "/api/v1/me/recovery-codes", "/api/v1/me/recovery-codes", 401),
        Ask("GET", "/api/v1/me/bots", "/api/v1/me/bots", 200, token=a),
        Ask("GET", "/api/v1/me/bots", "/api/v1/me/bots?x=1", 400, token=a),
        Ask("GET", "/api/v1/me/bots", "/api/v1/me/bots", 401),
        Ask("GET", "/api/v1/me/invitations", "/api/v1/me/invitations", 200, token=b),
        Ask("GET", "/api/v1/me/invitations", "/api/v1/me/invitations?x=1", 400, token=b),
        Ask("GET", "/api/v1/me/invitations", "/api/v1/me/invitations", 401),
        Ask("GET", one, f"/api/v1/invitations/{mine}", 200, token=a),  # the inviter reads it too
        Ask("GET", one, f"/api/v1/invitations/{mine}?x=1", 400, token=b),
        Ask("GET", one, f"/api/v1/invitations/{mine}", 401),
        Ask("GET", one, f"/api/v1/invitations/{mine}", 404, token=c),
        Ask("POST", accept, f"/api/v1/invitations/{mine}/accept?x=1", 400, token=b),
        Ask("POST", accept, f"/api/v1/invitations/{mine}/accept", 401),
        Ask("POST", accept, f"/api/v1/invitations/{mine}/accept", 404, token=c),
        Ask("POST", accept, f"/api/v1/invitations/{mine}/accept", 200, token=b),
        Ask("POST", accept, f"/api/v1/invitations/{mine}/accept", 409, token=b),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 400, body={"reason": "nope"}, token=b),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 401, body={}),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 404, body={}, token=c),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 413, raw=BIG.encode(), token=b),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 200, body={"reason": "later"}, token=b),
        Ask("POST", decline, f"/api/v1/invitations/{gone}/decline", 409, body={}, token=b),
        Ask("POST", "/api/v1/play-now", "/api/v1/play-now", 200, body={"game": "dice-race"}, token=c),
        Ask("POST", "/api/v1/play-now", "/api/v1/play-now", 400, body={"game": "chess"}, token=c),
        Ask("POST", "/api/v1/play-now", "/api/v1/play-now", 401, body={"game": "dice-race"}),
        Ask("POST", "/api/v1/play-now", "/api/v1/play-now", 413, raw=BIG.encode(), token=c),
    ]


def _competition_asks(w: dict[str, Any]) -> list[Ask]:
    """Profiles, leaderboards and tournaments."""
    a, c, nope = w["a"], w["c"], NO_ID
    me = "/api/v1/players/{player_id}"
    history = "/api/v1/players/{player_id}/ratings/{game}"
    board = "/api/v1/leaderboards/{game}"
    one, entries = "/api/v1/tournaments/{tournament_id}", "/api/v1/tournaments/{tournament_id}/registrations"
    cup, full = w["cup"], w["full_cup"]
    return [
        Ask("GET", me, "/api/v1/players/server-bot:random", 200),
        Ask("GET", me, "/api/v1/players/server-bot:random?x=1", 400),
        Ask("GET", me, "/api/v1/players/server-bot:random", 401, token="bad"),
        Ask("GET", me, f"/api/v1/players/{nope}", 404),
        Ask("GET", history, "/api/v1/players/server-bot:random/ratings/dice-race", 200),
        Ask("GET", history, "/api/v1/players/server-bot:random/ratings/dice-race?limit=0", 400),
        Ask("GET", history, "/api/v1/players/server-bot:random/ratings/dice-race", 401, token="bad"),
        Ask("GET", history, "/api/v1/players/server-bot:random/ratings/chess", 404),
        Ask("POST", "/api/v1/me/bots", "/api/v1/me/bots", 201, body={"name": "b"}, token=a),
        Ask("POST", "/api/v1/me/bots", "/api/v1/me/bots", 400, body={}, token=a),
        Ask("POST", "/api/v1/me/bots", "/api/v1/me/bots", 409, body={"name": "Alice"}, token=a),
        Ask("POST", "/api/v1/me/bots", "/api/v1/me/bots", 401, body={"name": "b"}),
        Ask("POST", "/api/v1/me/bots", "/api/v1/me/bots", 413, raw=BIG.encode(), token=a),
        Ask("GET", board, "/api/v1/leaderboards/dice-race", 200),
        Ask("GET", board, "/api/v1/leaderboards/dice-race?limit=0", 400),
        Ask("GET", board, "/api/v1/leaderboards/dice-race", 401, token="bad"),
        Ask("GET", board, "/api/v1/leaderboards/no-such-game", 404),
        Ask("POST", "/api/v1/tournaments", "/api/v1/tournaments", 201, body=TOURNAMENT, token=a),
        Ask("POST", "/api/v1/tournaments", "/api/v1/tournaments", 400, body={**TOURNAMENT, "seats": 1}, token=a),
        Ask("POST", "/api/v1/tournaments", "/api/v1/tournaments", 401, body=TOURNAMENT),
        Ask("POST", "/api/v1/tournaments", "/api/v1/tournaments", 413, raw=BIG.encode(), token=a),
        Ask("GET", "/api/v1/tournaments", "/api/v1/tournaments", 200),
        Ask("GET", "/api/v1/tournaments", "/api/v1/tournaments?limit=0", 400),
        Ask("GET", "/api/v1/tournaments", "/api/v1/tournaments", 401, token="bad"),
        Ask("GET", one, f"/api/v1/tournaments/{cup}", 200),
        Ask("GET", one, f"/api/v1/tournaments/{cup}?x=1", 400),
        Ask("GET", one, f"/api/v1/tournaments/{cup}", 401, token="bad"),
        Ask("GET", one, f"/api/v1/tournaments/{nope}", 404),
        Ask("POST", entries, f"/api/v1/tournaments/{cup}/registrations", 201, body={}, token=c),
        Ask("POST", entries, f"/api/v1/tournaments/{cup}/registrations", 400, body={"bot": ""}, token=c),
        Ask("POST", entries, f"/api/v1/tournaments/{cup}/registrations", 401, body={}),
        Ask("POST", entries, f"/api/v1/tournaments/{cup}/registrations", 403, body={"player_id": w["b_id"]}, token=c),
        Ask("POST", entries, f"/api/v1/tournaments/{nope}/registrations", 404, body={}, token=c),
        Ask("POST", entries, f"/api/v1/tournaments/{full}/registrations", 409, body={}, token=c),
        Ask("POST", entries, f"/api/v1/tournaments/{cup}/registrations", 413, raw=BIG.encode(), token=c),
        *_organiser_asks(w),
    ]


def _organiser_asks(w: dict[str, Any]) -> list[Ask]:
    """Withdrawal, and the organiser's start-now and cancel."""
    a, b, c, nope = w["a"], w["b"], w["c"], NO_ID
    out, start, cancel = (
        "/api/v1/tournaments/{tournament_id}/registrations/{player_id}",
        "/api/v1/tournaments/{tournament_id}/start",
        "/api/v1/tournaments/{tournament_id}/cancel",
    )
    cup, ready, doomed = w["cup"], w["cup_to_start"], w["cup_to_cancel"]
    return [
        Ask("DELETE", out, f"/api/v1/tournaments/{cup}/registrations/{w['b_id']}?x=1", 400, token=b),
        Ask("DELETE", out, f"/api/v1/tournaments/{cup}/registrations/{w['b_id']}", 401),
        Ask("DELETE", out, f"/api/v1/tournaments/{cup}/registrations/{w['b_id']}", 403, token=c),  # not c's
        Ask("DELETE", out, f"/api/v1/tournaments/{nope}/registrations/{w['b_id']}", 404, token=b),
        Ask("DELETE", out, f"/api/v1/tournaments/{cup}/registrations/{w['b_id']}", 200, token=b),
        Ask("POST", start, f"/api/v1/tournaments/{ready}/start?x=1", 400, token=a),
        Ask("POST", start, f"/api/v1/tournaments/{ready}/start", 401),
        Ask("POST", start, f"/api/v1/tournaments/{ready}/start", 403, token=b),  # not its organiser
        Ask("POST", start, f"/api/v1/tournaments/{nope}/start", 404, token=a),
        Ask("POST", start, f"/api/v1/tournaments/{doomed}/start", 409, token=a),  # nobody registered
        Ask("POST", start, f"/api/v1/tournaments/{ready}/start", 200, token=a),
        Ask("DELETE", out, f"/api/v1/tournaments/{ready}/registrations/{w['b_id']}", 409, token=b),  # started
        Ask("POST", cancel, f"/api/v1/tournaments/{doomed}/cancel?x=1", 400, token=a),
        Ask("POST", cancel, f"/api/v1/tournaments/{doomed}/cancel", 401),
        Ask("POST", cancel, f"/api/v1/tournaments/{doomed}/cancel", 403, token=b),
        Ask("POST", cancel, f"/api/v1/tournaments/{nope}/cancel", 404, token=a),
        Ask("POST", cancel, f"/api/v1/tournaments/{doomed}/cancel", 200, token=a),
        Ask("POST", cancel, f"/api/v1/tournaments/{doomed}/cancel", 409, token=a),  # cancelled already
    ]


def _dispute_asks(dispute: str, w: dict[str, Any]) -> list[Ask]:
    """Requests about the dispute that ``_asks`` opened on the ended game (its opener, alice, created
    that game and holds no seat in it, so she arbitrates it), and about one opened on a running game."""
    one, resolve, nope = "/api/v1/disputes/{dispute_id}", "/api/v1/disputes/{dispute_id}/resolve", NO_ID
    legal, sandbox = "/api/v1/disputes/{dispute_id}/legal-moves", "/api/v1/disputes/{dispute_id}/sandbox"
    a, b, c, running = w["a"], w["b"], w["c"], w["running_dispute"]
    return [
        Ask("GET", legal, f"/api/v1/disputes/{dispute}/legal-moves", 200),
        Ask("GET", legal, f"/api/v1/disputes/{dispute}/legal-moves?limit=0", 400),
        Ask("GET", legal, f"/api/v1/disputes/{dispute}/legal-moves", 401, token="bad"),
        Ask("GET", legal, f"/api/v1/disputes/{running}/legal-moves", 403, token=c),  # the opener's, while it runs
        Ask("GET", legal, f"/api/v1/disputes/{nope}/legal-moves", 404),
        Ask("POST", sandbox, f"/api/v1/disputes/{dispute}/sandbox?x=1", 400, token=a),
        Ask("POST", sandbox, f"/api/v1/disputes/{dispute}/sandbox", 401),
        Ask("POST", sandbox, f"/api/v1/disputes/{dispute}/sandbox", 403, token=b),
        Ask("POST", sandbox, f"/api/v1/disputes/{nope}/sandbox", 404, token=a),
        Ask("POST", sandbox, f"/api/v1/disputes/{running}/sandbox", 409, token=a),  # once the game has ended
        Ask("POST", sandbox, f"/api/v1/disputes/{dispute}/sandbox", 200, token=a),
        Ask("GET", one, f"/api/v1/disputes/{dispute}", 200),
        Ask("GET", one, f"/api/v1/disputes/{dispute}?x=1", 400),
        Ask("GET", one, f"/api/v1/disputes/{dispute}", 401, token="bad"),
        Ask("GET", one, f"/api/v1/disputes/{nope}", 404),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 400, body={"verdict": "maybe"}, token=a),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 401, body={"verdict": "upheld"}),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 403, body={"verdict": "upheld"}, token=b),
        Ask("POST", resolve, f"/api/v1/disputes/{w['over']}/resolve", 404, body={"verdict": "upheld"}, token=a),
        Ask("POST", resolve, f"/api/v1/disputes/{nope}/resolve", 404, body={"verdict": "upheld"}, token=a),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 413, raw=BIG.encode(), token=a),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 200, body={"verdict": "upheld"}, token=a),
        Ask("POST", resolve, f"/api/v1/disputes/{dispute}/resolve", 409, body={"verdict": "rejected"}, token=a),
    ]


def _run(client: Any, ask: Ask) -> Any:
    return client.call(ask.method, ask.url, ask.body, ask.token, raw=ask.raw)


def test_each_documented_status_code_is_answered_and_each_answer_is_documented(client: Any) -> None:
    spec = _spec(client)
    operations = _operations(spec)
    w = _world(client)
    answered: dict[tuple[str, str], set[int]] = {}
    dispute = None
    for ask in _asks(w):
        r = _run(client, ask)
        key = (ask.method, ask.path)
        assert key in operations, key
        assert r.status == ask.status, (key, ask.url, r.status, r.body)
        if r.status >= 400:
            assert set(r.body) == {"error"} and {"code", "message"} <= set(r.body["error"]), (key, r.body)
        answered.setdefault(key, set()).add(r.status)
        if key == ("POST", "/api/v1/games/{game_id}/disputes") and r.status == 201:
            dispute = r.body["id"]
    assert dispute is not None
    for ask in _dispute_asks(dispute, w):
        r = _run(client, ask)
        assert r.status == ask.status, (ask.method, ask.path, ask.url, r.status, r.body)
        answered.setdefault((ask.method, ask.path), set()).add(r.status)
    for ask in _scope_asks(spec, w):
        r = _run(client, ask)
        assert r.status == ask.status, (ask.method, ask.path, r.status, r.body)
        assert r.body["error"]["code"] == "insufficient_scope", (ask.method, ask.path, r.body)
        answered.setdefault((ask.method, ask.path), set()).add(r.status)
    documented = {key: {int(code) for code in op["responses"]} - {503, 429} for key, op in operations.items()}
    assert answered == documented


def test_every_operation_that_documents_429_answers_it_over_its_limit() -> None:
    """On an app whose limits allow one request an hour: each operation's second request, with the
    same token (or none, from the same address), is refused with 429 whatever the first answered."""
    from api.app import create_app
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from tests.support.api_client import ApiClient
    from wiring import bootstrap

    tight = {f"rate_limit_{bucket}": "1/hour" for bucket in ("moves", "reads", "streams")}
    platform = bootstrap(make_settings("memory", rate_limit_register="1000/hour", **tight), work=NullWork())
    try:
        client = ApiClient(create_app(platform).test_client(), platform)
        operations = _operations(_spec(client))
        limited = [key for key, op in operations.items() if "429" in op["responses"]]
        assert len(limited) >= 30 and ("POST", "/api/v1/players") in limited
        for method, path in limited:
            if "security" not in operations[(method, path)]:
                continue  # registration and sign-in: the register bucket, per address (below)
            token = client.player()["token"]
            body = MINIMAL_BODIES.get((method, path))
            _call(client, method, path, token, body)
            r = _call(client, method, path, token, body)
            assert r.status == 429 and r.body["error"]["code"] == "rate_limited", (method, path, r.status, r.body)
    finally:
        platform.close()
    tight_register = bootstrap(make_settings("memory", rate_limit_register="1/hour"), work=NullWork())
    try:
        client = ApiClient(create_app(tight_register).test_client(), tight_register)
        assert client.call("POST", "/api/v1/players", {"name": "a"}).status == 201
        assert client.call("POST", "/api/v1/players", {"name": "b"}).status == 429
        for path in ("/api/v1/sessions", "/api/v1/sessions/recovery"):
            r = client.call("POST", path, MINIMAL_BODIES[("POST", path)])
            assert r.status == 429 and r.body["error"]["code"] == "rate_limited", (path, r.body)
    finally:
        tight_register.close()


@pytest.mark.parametrize("path", ["/api/v1/games/{game_id}", "/api/v1/games/{game_id}/events"])
def test_a_game_id_that_is_not_a_uuid_is_404(client: Any, path: str) -> None:
    r = client.call("GET", path.replace("{game_id}", "not-a-uuid"))
    assert r.status == 404 and r.body["error"]["code"] == "game_not_found"
