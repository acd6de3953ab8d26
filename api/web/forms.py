"""The forms of the pages: sign up, sign in and out, open a table, take a seat, add a bot,
start, leave or close a table, and open a dispute. Each checks its origin (and, signed in, the
session's CSRF token), calls the same service as the API's route, and redirects to the page that
shows the result (or shows the page again with the error). Each declares its contract (``api.parser.page_contract``),
checked before it runs by the code that checks the API's routes: origin, CSRF token, token scope,
rate limit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Response, redirect, request, url_for
from marshmallow import ValidationError

from api import audit_schemas, game_schemas, people_schemas
from api.actions import open_table, register_person
from api.auth import required_player
from api.context import current_platform
from api.errors import MalformedJSON, to_response
from api.json_bodies import INT64, read_json
from api.parser import page_contract
from api.web import audit_pages, pages, session
from api.web.audit_pages import open_dispute_fields
from api.web.page_words import form_messages, said
from api.web.pages import _document, web
from domain.kernel import ConfigError, RuleError, find_game
from services.accounts.player import Player
from services.accounts.players import SESSION_TOKEN
from services.common.errors import InvalidRequest, NotAuthenticated, ServiceError


def signed_in() -> Player:
    """The signed-in person of a form, as ``api.auth`` found them from the form's contract
    (``page_contract``): its origin, CSRF token and scope are checked before the form runs."""
    return required_player()


def see_other(url: str) -> Response:
    """A 303 to the page that shows a form's result: reloading that page posts nothing again."""
    response: Response = redirect(url, code=303)  # type: ignore[assignment]
    return response


@web.route("/signup", methods=["POST"])
@page_contract(auth="none", scope=None, rate_limit="register")
def sign_up() -> Response | tuple[str, int]:
    """Registers a person with a name and a password, signs this browser in, and shows the
    account's recovery codes, once."""
    form = request.form
    try:
        body = people_schemas.PlayerCreate().load({"name": form.get("name", ""), "password": form.get("password", "")})
    except ValidationError as e:
        return pages.sign_in_page(form_messages(e.messages)), 400
    if form.get("password") != form.get("password_again"):
        return pages.sign_in_page(["The two passwords differ: type the same password twice."]), 400

    def act() -> Response:
        made = register_person(body["name"], "human", body["password"], token_name=SESSION_TOKEN)
        me = current_platform().accounts.get(made["id"])
        csrf = session.csrf_token(current_platform().settings.secret_key, made["token"])
        response = Response(pages.render("welcome.html", me=me, csrf=csrf, codes=made["recovery_codes"]))
        session.remember(response, made["token"], request.is_secure)
        response.headers["Cache-Control"] = "no-store"
        return response

    return acting(act, pages.sign_in_page)


@web.route("/signin", methods=["POST"])
@page_contract(auth="none", scope=None, rate_limit="register")
def sign_in() -> Response | tuple[str, int]:
    """Signs this browser in with a name and a password, or with a token (bots, scripts)."""
    form = request.form
    if "token" in form:
        token = form.get("token", "").strip()
        try:
            current_platform().accounts.authenticate(token)
        except NotAuthenticated:
            return pages.sign_in_page(["That token is not valid (or was revoked)."]), 401
    else:
        try:
            _, token = current_platform().credentials.sign_in(form.get("name", ""), form.get("password", ""))
        except NotAuthenticated as refused:
            return pages.sign_in_page([f"Not signed in: {refused.message}."]), 401
    response = see_other(url_for("web.lobby"))
    session.remember(response, token, request.is_secure)
    return response


@web.route("/recover", methods=["POST"])
@page_contract(auth="none", scope=None, rate_limit="register")
def recover() -> Response | tuple[str, int]:
    """Signs this browser in with a recovery code (spent), then asks for a new password."""
    credentials = current_platform().credentials
    try:
        me, token = credentials.recover(request.form.get("name", ""), request.form.get("code", ""))
    except NotAuthenticated as refused:
        return pages.sign_in_page([f"Not signed in: {refused.message}."]), 401
    csrf = session.csrf_token(current_platform().settings.secret_key, token)
    html = pages.render("recovered.html", me=me, csrf=csrf, left=credentials.codes_left(me.id))
    response = Response(html)
    session.remember(response, token, request.is_secure)
    response.headers["Cache-Control"] = "no-store"
    return response


@web.route("/signout", methods=["POST"])
@page_contract(auth="optional", scope=None)
def sign_out() -> Response:
    """Forgets the session; a token made by signing in with a password is revoked too. With the
    session's CSRF token only (``page_contract``): a foreign page cannot sign a person out."""
    token = session.token_of(request)
    if token is not None:
        current_platform().accounts.close_session(token)
    response = see_other(url_for("web.lobby"))
    session.forget(response)
    return response


@web.route("/games", methods=["POST"])
@page_contract(auth="required", scope="play")
def new_game() -> Response | tuple[str, int]:
    """Opens a table from the lobby's form, seats the creator and, if asked, the server's bots."""
    me = signed_in()
    try:
        body = game_schemas.GameCreate().load(_game_body(request.form))
    except (ValidationError, ValueError) as e:
        return pages.lobby(form_messages(e.messages if isinstance(e, ValidationError) else said(str(e)))), 400
    return acting(
        lambda: _open_and_seat(me, body, request.form),
        lambda errors: pages.lobby(errors),
    )


def _open_and_seat(me: Player, body: dict[str, Any], form: Any) -> Response:
    """Opens the table, seats the creator if asked, and fills with the chosen server bot the
    seats nobody was invited to, if asked: an invited player's seat waits for their answer."""
    p = current_platform()
    bot = _bot_for(body["game"], form.get("bot", ""))
    game = open_table(me.id, body)
    gid = str(game.id)
    if form.get("sit"):
        p.games.take_seat(gid, me.id, me.name, me.kind)
    if form.get("others", "bots") == "bots":
        waiting = len(game.settings.get("invite", []))
        while len(p.games.load(gid).seats) < body["players"] - waiting:
            p.games.add_bot(gid, me.id, bot)
    return see_other(url_for("web.game_page", game_id=gid))


def _bot_for(game: str, chosen: str) -> str:
    """The server bot the form chose (``game/bot``), else the game's usual one; ``InvalidRequest``
    for a bot of another game (the form offers only the chosen game's bots)."""
    try:
        ruleset = find_game(game)
    except ConfigError as e:
        raise InvalidRequest(e.message, field="game") from None
    if not chosen:
        return ruleset.default_bot
    slug, _, bot = chosen.partition("/")
    if slug != game or bot not in ruleset.bots:
        raise InvalidRequest(
            f"the server bot {bot!r} plays {_title(slug)}, not {ruleset.title}: choose one of "
            f"{', '.join(sorted(ruleset.bots))}, or the game's usual bot",
            field="bot",
        )
    return bot


def _title(slug: str) -> str:
    try:
        return find_game(slug).title
    except ConfigError:
        return slug


def _game_body(form: Any) -> dict[str, Any]:
    """The ``GameCreate`` body of the lobby's form; ``ValueError`` for a start time or time zone
    it cannot read."""
    game, _, variant = form.get("variant", "").partition("/")
    players = number(form.get("players", ""))
    body: dict[str, Any] = {
        "game": game,
        "variant": variant or None,
        "players": players,
        "rated": bool(form.get("rated")),
        "invite": [i.strip() for i in form.get("invite", "").split(",") if i.strip()],
        "options": _options(form, game, variant, players if isinstance(players, int) else 0) or None,
    }
    clock = form.get("clock", "none")
    if clock == "per_move":
        body["time_control"] = {"kind": clock, "seconds": number(form.get("seconds", ""))}
    elif clock == "bank":
        body["time_control"] = {"kind": clock, **{k: number(form.get(k, "")) for k in ("initial", "increment", "cap")}}
    if form.get("starts_at"):
        body["starts_at"] = local_time(form["starts_at"], form.get("tz", "UTC")).isoformat()
        body["fill"] = "bot"
    return body


def local_time(text: str, zone: str) -> datetime:
    """A form's ``datetime-local`` value in the browser's time zone (the ``tz`` field the page's
    script fills; UTC without the script), as UTC; ``ValueError`` for either that cannot be read."""
    try:
        where = ZoneInfo(zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {zone!r}") from None
    try:
        return datetime.fromisoformat(text).replace(tzinfo=where).astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59 west of UTC is past year 9999 in UTC
        raise ValueError(f"{text} is beyond any date a game can start") from None


def number(text: str) -> int | str:
    """A form's whole number as the schema's strict integer (anything else left for it to refuse,
    as is a number outside 64 bits, which the API's body refuses too: ``api.json_bodies.INT64``)."""
    digits = text.strip().lstrip("-")
    if not digits.isdigit() or len(digits) > 19:
        return text
    value = int(text)
    return value if -INT64 <= value < INT64 else text


def _options(form: Any, game: str, variant: str, players: int) -> dict[str, Any]:
    """The chosen variant's options from its controls (``api/web/templates/macros_lobby.html``):
    a checkbox is yes or no; one value per seat is a list, left out when every seat keeps the
    default; a number is typed; a choice or text stays text. Other variants' fields are ignored."""
    prefix = f"option:{game}/{variant}:"
    try:
        schema = find_game(game).variant(variant or None).options_schema()
    except ConfigError:  # an unknown game or variant: the service names it
        return {}
    out: dict[str, Any] = {}
    for o in schema:
        key = prefix + o["name"]
        if o["type"] == "bool":
            out[o["name"]] = form.get(key) == "true"
        elif o.get("per_seat"):
            values = [number(form.get(f"{key}:{seat}", "")) for seat in range(1, players + 1)]
            if any(v != o["seat_default"] for v in values):
                out[o["name"]] = values
        elif form.get(key, "") != "":
            out[o["name"]] = number(form[key]) if o["type"] == "int" else form[key]
    return out


@web.route("/games/<game_id>/join", methods=["POST"])
@page_contract(auth="required", scope="play")
def join_game(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().seating.take(game_id, me)),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/bots", methods=["POST"])
@page_contract(auth="required", scope="play")
def add_bot(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.add_bot(game_id, me.id, request.form.get("bot", ""))),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/start", methods=["POST"])
@page_contract(auth="required", scope="play")
def start_game(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.start(game_id, me.id)),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/close", methods=["POST"])
@page_contract(auth="required", scope="play")
def close_table(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.close(game_id, me.id)),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/leave", methods=["POST"])
@page_contract(auth="required", scope="play")
def leave_table(game_id: str) -> Response | tuple[str, int]:
    """Gives up the signed-in person's seat at a table not started, or, with ``seat`` (the
    creator's button by a server bot), takes that bot off the table."""
    me = signed_in()
    seat = request.form.get("seat", "").strip()
    try:  # the API's own schema: the form keeps the route's rules
        body = game_schemas.LeaveRequest().load({"seat": number(seat)} if seat else {})
    except ValidationError:  # the page's own hidden field, never typed: no schema words for a person
        return pages.game_page(game_id, [said("that seat is not one of this table's")]), 400
    return acting(
        lambda: _then_game(current_platform().seating.leave(game_id, me.id, body.get("seat"))),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/disputes", methods=["POST"])
@page_contract(auth="required", scope="play")
def open_dispute(game_id: str) -> Response | tuple[str, int]:
    """Opens a dispute on a step: a claim in words, or a move chosen from the step's legal moves
    (the ``move`` field holds it as the game's move, put there by whatever picked it: the list in
    words, or a board). Its answer shows on the audit page."""
    me = signed_in()
    try:
        at = open_dispute_fields(request.form, str(_document(game_id, me.id)["id"]))
        move = read_json(request.form["move"].encode()) if request.form.get("move", "").strip() else None
        claim = request.form.get("claim", "").strip()
        if not claim and move is not None:
            claim = f"This move should have been allowed at step {request.form['step'].strip()}."
        body = audit_schemas.DisputeRequest().load(
            {"version": at["version"], "claim": claim}
            | ({"move": move} if move is not None else {})
            | ({"seat": at["seat"]} if at["seat"] is not None else {})
        )
    except ValidationError as e:
        return audit_pages.audit_page(game_id, form_messages(e.messages)), 400
    except MalformedJSON as e:
        return audit_pages.audit_page(game_id, [f"The chosen move could not be read: {e}."]), 400
    except ValueError as e:
        said = str(e) if "step" in str(e) else "the chosen move could not be read"
        return audit_pages.audit_page(game_id, [said]), 400

    def act() -> Response:
        dispute = current_platform().disputes.open(
            game_id, me.id, body["version"], body["claim"], body.get("move"), body.get("seat")
        )
        return see_other(url_for("web.audit_page", game_id=game_id) + f"#dispute-{dispute['id']}")

    return acting(act, lambda errors: audit_pages.audit_page(game_id, errors))


def _then_game(game: Any) -> Response:
    return see_other(url_for("web.game_page", game_id=str(game.id)))


def acting(act: Callable[[], Response], again: Callable[[list[str]], str]) -> Response | tuple[str, int]:
    """Runs ``act``; a refusal of the services or the rules shows the page again with it."""
    try:
        return act()
    except (ServiceError, RuleError) as refused:
        body, status = to_response(refused)
        return again([said(body["error"]["message"])]), status
