"""Hostile input on every surface: an API route, a page and a form answer the same bad input with
the same refusal (never a 500), checked by the same code, and a refusal writes nothing.

One table of inputs x surfaces, each with its expected status (``CASES``); then the rules the
pages keep from their contracts (``api.parser.page_contract``): token scopes, rate limits, the
session's CSRF token on signing out.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from api.app import create_app
from api.gateway import Gateway
from api.stream_hub import StreamHub
from api.web import session
from domain.kernel import all_games
from services.common.errors import NotAuthenticated
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.e2e.test_hostile_input import _stored
from tests.support.api_client import ApiClient
from tests.support.rsgi import Exchange
from wiring import bootstrap

HUGE = "9223372036854775807"
BEYOND_64_BITS = str(2**64)
DEEP = "[" * 1000 + "]" * 1000
SURROGATE_MOVE = '{"type": "roll", "note": "x\\ud800y"}'


@dataclass(frozen=True)
class Case:
    """One bad input on one surface: ``api`` (a JSON body with the bearer token), ``page`` (a GET
    with the session cookie) or ``form`` (a form posted with the cookie and its CSRF token)."""

    input: str
    surface: str
    method: str
    path: str
    body: Any
    status: int
    token: str = "a"

    @property
    def id(self) -> str:
        return f"{self.input}-{self.surface}-{self.path}"


LOBBY = {"variant": "dice-race/", "players": "2", "clock": "none", "others": "none"}
CASES = [
    # a page number no store can reach: the API's query parameters refuse it, so do the pages
    Case("huge-page", "api", "GET", f"/api/v1/games?offset={HUGE}", None, 400),
    Case("huge-page", "api", "GET", f"/api/v1/tournaments?offset={HUGE}", None, 400),
    Case("huge-page", "api", "GET", f"/api/v1/leaderboards/dice-race?offset={HUGE}", None, 400),
    Case("huge-page", "page", "GET", f"/?page={HUGE}", None, 400),
    Case("huge-page", "page", "GET", f"/leaderboards/dice-race?page={HUGE}", None, 400),
    Case("huge-page", "page", "GET", f"/tournaments?page={HUGE}", None, 400),
    Case("huge-page", "page", "GET", f"/games/{{over}}/audit?page={HUGE}", None, 400),
    # JSON nested 1,000 levels: Python's recursion limit, where the API's limit is 32 levels
    Case("deep-json", "api", "POST", "/api/v1/games", DEEP, 400),
    Case(
        "deep-json",
        "api",
        "POST",
        "/api/v1/games/{over}/disputes",
        '{"version": 2, "claim": "x", "move": ' + DEEP + "}",
        400,
    ),
    Case("deep-json", "form", "POST", "/games/{over}/disputes", {"step": "1", "move": DEEP}, 400),
    *(
        Case("deep-json", "form", "POST", "/games", {**LOBBY, field: DEEP}, 400)
        for field in ("variant", "players", "invite")
    ),
    # a lone surrogate: valid JSON, no Unicode text, no store can encode it
    Case(
        "lone-surrogate",
        "api",
        "POST",
        "/api/v1/games/{over}/disputes",
        '{"version": 2, "claim": "x", "move": ' + SURROGATE_MOVE + "}",
        400,
    ),
    Case("lone-surrogate", "form", "POST", "/games/{over}/disputes", {"step": "1", "move": SURROGATE_MOVE}, 400),
    # integers beyond 64 bits
    Case(
        "int-beyond-64-bits",
        "api",
        "POST",
        "/api/v1/games",
        '{"game": "dice-race", "players": ' + BEYOND_64_BITS + "}",
        400,
    ),
    Case(
        "int-beyond-64-bits",
        "api",
        "POST",
        "/api/v1/games/{over}/disputes",
        '{"version": 2, "claim": "x", "move": {"type": "roll", "n": ' + BEYOND_64_BITS + "}}",
        400,
    ),
    Case("int-beyond-64-bits", "form", "POST", "/games", {**LOBBY, "players": BEYOND_64_BITS}, 400),
    Case(
        "int-beyond-64-bits", "form", "POST", "/games", {**LOBBY, "clock": "per_move", "seconds": BEYOND_64_BITS}, 400
    ),
    Case(
        "int-beyond-64-bits",
        "form",
        "POST",
        "/games/{over}/disputes",
        {"step": "1", "move": '{"type": "roll", "n": ' + BEYOND_64_BITS + "}"},
        400,
    ),
    # a date past year 9999 once in UTC: the read models could not store it
    Case(
        "year-10000",
        "api",
        "POST",
        "/api/v1/games",
        {"game": "dice-race", "players": 2, "starts_at": "9999-12-31T23:59:59-14:00"},
        400,
    ),
    Case("year-10000", "form", "POST", "/games", {**LOBBY, "starts_at": "9999-12-31T23:59", "tz": "Etc/GMT+12"}, 400),
    # a body over the limit (DRAGONHALL_MAX_BODY_BYTES), unread
    Case("body-too-large", "api", "POST", "/api/v1/games", " " * (1 << 20) + "{}", 413),
    Case("body-too-large", "form", "POST", "/games", {**LOBBY, "invite": "x" * (1 << 20)}, 413),
    # a token without the scope the act needs
    Case("read-token", "api", "POST", "/api/v1/games", {"game": "dice-race", "players": 2}, 403, "reader"),
    Case("read-token", "form", "POST", "/games", LOBBY, 403, "reader"),
    Case("read-token", "api", "POST", "/api/v1/games/{over}/disputes", {"version": 2, "claim": "x"}, 403, "reader"),
    Case("read-token", "form", "POST", "/games/{over}/disputes", {"step": "1", "claim": "x"}, 403, "reader"),
    Case("read-token", "api", "POST", "/api/v1/games/{open}/seats", {}, 403, "reader"),
    Case("read-token", "form", "POST", "/games/{open}/join", {}, 403, "reader"),
    Case("play-token", "api", "POST", "/api/v1/me/bots", {"name": "robo"}, 403, "player"),
    Case("play-token", "form", "POST", "/account/bots", {"name": "robo"}, 403, "player"),
    Case("bot-token", "api", "POST", "/api/v1/me/vacation", {"start": "2099-01-01", "days": 1}, 403, "bot"),
]


@pytest.fixture(autouse=True)
def _unlogged_server_errors(caplog: pytest.LogCaptureFixture) -> None:
    """A regression is a 500 whose logged traceback may hold the lone surrogate sent: its status says enough."""
    caplog.set_level(logging.CRITICAL, logger="dragonhall.api")


@pytest.fixture(scope="module")
def world() -> Iterator[dict[str, Any]]:
    """One platform for the table: Alice and Bob finished a game, Alice opened another, and Alice
    holds a token of each scope."""
    platform = bootstrap(make_settings("memory"), work=NullWork())
    api = ApiClient(create_app(platform).test_client(), platform)
    a, b = api.player("alice"), api.player("bob")
    over = api.new_game(a["token"], options={"goal": 5})["id"]
    api.seat(over, a["token"])
    api.seat(over, b["token"])
    tokens = {0: a["token"], 1: b["token"]}
    while (doc := api.game(over))["status"] == "active":
        seat = doc["awaiting"][0]
        assert api.move(over, tokens[seat], api.legal(over, tokens[seat])["moves"][0]).status == 201
    opened = api.new_game(a["token"])["id"]
    scoped = {
        scope: api.call("POST", "/api/v1/me/tokens", {"name": scope, "scopes": [scope]}, a["token"]).body["token"]
        for scope in ("read", "play", "bot", "account")
    }
    yield {
        "api": api,
        "platform": platform,
        "ids": {"over": over, "open": opened},
        "tokens": {
            "a": a["token"],
            "reader": scoped["read"],
            "player": scoped["play"],
            "bot": scoped["bot"],
            "accountant": scoped["account"],
        },
    }
    platform.close()


def send(world: dict[str, Any], case: Case) -> Any:
    """The case's request on its surface, as a client of that surface sends it."""
    http = world["api"].http
    token = world["tokens"][case.token]
    path = case.path.format(**world["ids"])
    if case.surface == "api":
        data = case.body if isinstance(case.body, str) else json.dumps(case.body)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        return http.open(path, method=case.method, data=data, headers=headers)
    http.set_cookie(session.COOKIE, token)
    try:
        if case.surface == "page":
            return http.get(path)
        csrf = session.csrf_token(world["platform"].settings.secret_key, token)
        return http.post(path, data={**case.body, "csrf": csrf})
    finally:
        http.delete_cookie(session.COOKIE)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_surface_refuses_the_same_bad_input_with_its_status_and_writes_nothing(
    world: dict[str, Any], case: Case
) -> None:
    before = _stored(world["platform"])
    answer = send(world, case)
    assert answer.status_code == case.status, answer.get_data(as_text=True)[:2000]
    if case.surface == "api":
        assert set(answer.get_json()["error"]) >= {"code", "message"}
    else:
        assert answer.mimetype == "text/html", "a page's or a form's refusal is a page"
    assert _stored(world["platform"]) == before, "a refusal writes nothing"


WHO = re.compile(r'<div class="who">.*?</div>', re.S)
"""The layout's corner that says who is signed in: a session that cannot read is offered its sign-out."""
API_ONLY = {"bot-token"}
"""Inputs of an act no page offers (vacation days are declared through the API only)."""


def test_the_table_covers_every_input_on_the_api_and_on_a_page_or_a_form() -> None:
    surfaces: dict[str, set[str]] = {}
    for case in CASES:
        surfaces.setdefault(case.input, set()).add(case.surface)
    for name, where in surfaces.items():
        assert "api" in where and (name in API_ONLY or where & {"page", "form"}), name


def test_a_token_without_read_reads_the_pages_as_a_spectator(world: dict[str, Any]) -> None:
    """A play-only or account-only session never reads what only its seat may: the API answers
    403, the pages show what a signed-out reader sees, byte for byte."""
    api = world["api"]
    seat_token = world["tokens"]["a"]
    game = api.new_game(seat_token, game="seven-dragons")["id"]
    api.seat(game, seat_token)
    api.seat(game, api.player("carol")["token"])
    assert api.game(game)["status"] == "active"
    for name in ("player", "accountant"):
        token = world["tokens"][name]
        assert api.call("GET", f"/api/v1/games/{game}", token=token).status == 403
        for path in (f"/games/{game}", f"/games/{game}/replay", f"/games/{game}/audit", "/inbox"):
            seen, anonymous = api.page(path, token), api.page(path)
            assert seen.status == anonymous.status == 200, path
            assert WHO.sub("", seen.body) == WHO.sub("", anonymous.body), (name, path)
            assert "Sign out" in seen.body and "cannot read the pages" in seen.body, "it may still sign out"
    seated = api.page(f"/games/{game}", seat_token).body
    assert seated != api.page(f"/games/{game}").body, "the seat's own page differs: the comparison can fail"


def test_signing_out_needs_the_csrf_token(world: dict[str, Any]) -> None:
    platform = world["platform"]
    token = platform.accounts.open_session(_alice(world))
    http = world["api"].http
    http.set_cookie(session.COOKIE, token)
    try:
        refused = http.post("/signout")
        assert refused.status_code == 403 and "CSRF" in refused.get_data(as_text=True)
        assert platform.accounts.authenticate(token), "a refused sign-out revokes nothing"
        csrf = session.csrf_token(platform.settings.secret_key, token)
        assert http.post("/signout", data={"csrf": csrf}).status_code == 303
    finally:
        http.delete_cookie(session.COOKIE)
    with pytest.raises(NotAuthenticated):
        platform.accounts.authenticate(token)


def _alice(world: dict[str, Any]) -> str:
    return str(world["platform"].accounts.authenticate(world["tokens"]["a"]).id)


def test_forms_and_pages_count_in_the_apis_rate_limits() -> None:
    """Sign-up after the API's registrations used the limit up, page reads past the reads' limit,
    tables opened past the writes' limit: 429 with Retry-After, and nothing made."""
    settings = make_settings(
        "memory", rate_limit_register="2/minute", rate_limit_reads="3/minute", rate_limit_moves="2/minute"
    )
    platform = bootstrap(settings, work=NullWork())
    try:
        http = create_app(platform).test_client()
        for name in ("ann", "ben"):
            assert http.post("/api/v1/players", json={"name": name}).status_code == 201
        before = _stored(platform)
        for path, form in (
            ("/signup", {"name": "cid", "password": "correct horse", "password_again": "correct horse"}),
            ("/signin", {"name": "ann", "password": "whatever it is"}),
            ("/recover", {"name": "ann", "code": "AAAA-BBBB-CCCC-DDDD"}),
        ):
            refused = http.post(path, data=form)
            assert refused.status_code == 429 and refused.headers["Retry-After"], path
            assert refused.mimetype == "text/html"
        assert _stored(platform) == before
        assert [http.get("/").status_code for _ in range(4)] == [200, 200, 200, 429], "anonymous reads, per address"
        assert http.get("/", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
        _, token = platform.accounts.register("dee", "human")
        http.set_cookie(session.COOKIE, token)
        csrf = session.csrf_token(platform.settings.secret_key, token)
        opened = [http.post("/games", data={**LOBBY, "csrf": csrf}) for _ in range(2)]
        assert [o.status_code for o in opened] == [303, 303]
        for table in opened:
            assert platform.games.load(table.headers["Location"].rsplit("/", 1)[1]).id
        before = _stored(platform)
        refused = http.post("/games", data={**LOBBY, "csrf": csrf})
        assert refused.status_code == 429, "writes per session"
        assert _stored(platform) == before
    finally:
        platform.close()


CHUNKED = {"wsgi.input_terminated": True, "CONTENT_LENGTH": ""}
"""A body sent chunked, without its length, as a server hands it to the app."""


@pytest.mark.parametrize("size", [1 << 20, (1 << 20) + 1, 3 << 20])
def test_a_chunked_body_over_the_limit_is_413_on_the_api_and_on_a_form(world: dict[str, Any], size: int) -> None:
    """Werkzeug cut a chunked body at the limit, and the truncated JSON answered 400."""
    http, token = world["api"].http, world["tokens"]["a"]
    head = b'{"game": "dice-race", "players": 2, "pad": "'
    body = head + b"x" * (size - len(head) - 2) + b'"}'
    before = _stored(world["platform"])
    answer = http.post(
        "/api/v1/games",
        input_stream=io.BytesIO(body),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        environ_overrides=CHUNKED,
    )
    within = size <= 1 << 20
    assert answer.status_code == (400 if within else 413), answer.get_json()  # within: "pad" is no field
    assert answer.get_json()["error"]["code"] == ("invalid_request" if within else "body_too_large")
    csrf = session.csrf_token(world["platform"].settings.secret_key, token)
    form = f"csrf={csrf}&variant=dice-race/&players=2&clock=none&invite=".encode()
    http.set_cookie(session.COOKIE, token)
    try:
        posted = http.post(
            "/games",
            input_stream=io.BytesIO(form + b"x" * (size - len(form))),
            content_type="application/x-www-form-urlencoded",
            environ_overrides=CHUNKED,
        )
    finally:
        http.delete_cookie(session.COOKIE)
    assert posted.status_code == (400 if within else 413)
    assert _stored(world["platform"]) == before


def test_a_chunked_body_over_the_limit_is_413_through_the_gateway(world: dict[str, Any]) -> None:
    app = world["api"].http.application
    gateway = Gateway(app, StreamHub(world["platform"].streams, ThreadPoolExecutor(1)), None, ThreadPoolExecutor(1))
    body = b'{"pad": "' + b"x" * (2 << 20) + b'"}'
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]
    before = _stored(world["platform"])

    async def call() -> tuple[int, bytes]:
        return await Exchange(gateway, "POST", "/api/v1/games", world["tokens"]["a"], chunks=chunks).whole()

    status, answer = asyncio.run(call())
    assert status == 413
    assert json.loads(answer)["error"]["code"] == "body_too_large"
    assert _stored(world["platform"]) == before


def test_openapi_names_the_games_and_bots_the_server_accepts_and_bounds_move_integers(world: dict[str, Any]) -> None:
    """A schema-valid request is not refused for its game or bot: both are enums of what is
    registered, and a move's integers are documented within the 64 bits the server reads."""
    api = world["api"]
    spec = api.call("GET", "/api/v1/openapi.json").body["components"]["schemas"]
    slugs = sorted(g.slug for g in all_games())
    for schema in ("GameCreate", "TournamentCreate", "PlayNow"):
        assert sorted(spec[schema]["properties"]["game"]["enum"]) == slugs, schema
    bots = sorted({b for g in all_games() for b in g.bots})
    for schema, field in (("SeatRequest", "bot"), ("Registration", "bot")):
        assert spec[schema]["properties"][field]["enum"] == bots, schema
    assert spec["GameCreate"]["properties"]["fill_bot"]["enum"] == [*bots, None], "null: the game's default bot"
    variants = sorted({v.name for g in all_games() for v in g.variants})
    for schema in ("GameCreate", "TournamentCreate", "PlayNow"):
        assert spec[schema]["properties"]["variant"]["enum"] == [*variants, None], schema
    for schema in ("PlayerCreate", "PasswordChange"):
        assert spec[schema]["properties"]["password"]["minLength"] == 8, schema
    amount = spec["Move.dice-race.bid"]["properties"]["amount"]
    assert (amount["format"], amount["minimum"], amount["maximum"]) == ("int64", -(2**63), 2**63 - 1)
    token = world["tokens"]["a"]
    before = _stored(world["platform"])
    for path, body, field in (
        ("/api/v1/games", {"game": "chess", "players": 2}, "game"),
        ("/api/v1/play-now", {"game": "chess"}, "game"),
        ("/api/v1/play-now", {"game": "dice-race", "variant": ""}, "variant"),
        ("/api/v1/games/{open}/seats".format(**world["ids"]), {"bot": "deep-blue"}, "bot"),
    ):
        refused = api.call("POST", path, body, token)
        assert refused.status == 400 and field in refused.body["error"]["fields"], refused.body
    assert _stored(world["platform"]) == before


def test_a_token_signed_in_through_the_form_keeps_its_scopes_on_the_pages(world: dict[str, Any]) -> None:
    """``POST /signin`` with a token accepts it whatever its scopes, and the pages then honour them."""
    platform = world["platform"]
    browser = create_app(platform).test_client()
    reader = world["tokens"]["reader"]
    assert browser.post("/signin", data={"token": reader}).status_code == 303
    assert "Signed in as" in browser.get("/").get_data(as_text=True), "a read token reads the pages as itself"
    csrf = session.csrf_token(platform.settings.secret_key, reader)
    before = _stored(platform)
    for path, form in (
        ("/games", LOBBY),
        ("/games/{open}/join".format(**world["ids"]), {}),
        ("/play-now", {"game": "dice-race"}),
    ):
        refused = browser.post(path, data={**form, "csrf": csrf})
        assert refused.status_code == 403 and "play" in refused.get_data(as_text=True), path
    assert _stored(platform) == before
