"""The forms of the pages: sign up, sign in and out, open a table, take a seat, add a bot,
start, and open a dispute. Each checks its origin (and, signed in, the session's CSRF token),
calls the same service as the API's route, and redirects to the page that shows the result (or
shows the page again with the error)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import Response, redirect, request, url_for
from marshmallow import ValidationError

from api import schemas
from api.context import current_platform
from api.errors import to_response
from api.games import open_table
from api.web import audit_pages, pages, session
from api.web.audit_pages import open_dispute_fields
from api.web.pages import _document, web
from api.web.viewing import viewer
from domain.kernel import RuleError, find_game
from services.accounts import Player
from services.errors import NotAuthenticated, ServiceError


def _same_origin() -> None:
    """Refuses a form posted from another site (no session is needed to be at risk: sign-in)."""
    site = request.headers.get("Sec-Fetch-Site", "same-origin")
    origin = request.headers.get("Origin")
    if site not in ("same-origin", "none") or (origin is not None and origin != request.host_url.rstrip("/")):
        raise session.CsrfRefused("a form may only be posted from this site's own pages")


def signed_in() -> Player:
    """The signed-in person, whose form carries the session's CSRF token."""
    _same_origin()
    me = viewer()
    token = session.token_of(request)
    if me is None or token is None:
        raise NotAuthenticated("sign in first")
    problem = session.csrf_problem(request, current_platform().settings.secret_key, token)
    if problem is not None:
        raise session.CsrfRefused(problem)
    return me


def see_other(url: str) -> Response:
    """A 303 to the page that shows a form's result: reloading that page posts nothing again."""
    response: Response = redirect(url, code=303)  # type: ignore[assignment]
    return response


@web.route("/signup", methods=["POST"])
def sign_up() -> Response | tuple[str, int]:
    """Registers a person and signs this browser in; the token is shown once."""
    _same_origin()
    try:
        body = schemas.PlayerCreate().load({"name": request.form.get("name", "").strip()})
    except ValidationError as e:
        return pages.sign_in_page(form_messages(e.messages)), 400
    player, token = current_platform().accounts.register(body["name"], "human")
    csrf = session.csrf_token(current_platform().settings.secret_key, token)
    response = Response(pages.render("welcome.html", token=token, me=player, csrf=csrf))
    session.remember(response, token, request.is_secure)
    response.headers["Cache-Control"] = "no-store"
    return response


@web.route("/signin", methods=["POST"])
def sign_in() -> Response | tuple[str, int]:
    _same_origin()
    token = request.form.get("token", "").strip()
    try:
        current_platform().accounts.authenticate(token)
    except NotAuthenticated:
        return pages.sign_in_page(["That token is not valid (or was revoked)."]), 401
    response = see_other(url_for("web.lobby"))
    session.remember(response, token, request.is_secure)
    return response


@web.route("/signout", methods=["POST"])
def sign_out() -> Response:
    _same_origin()
    response = see_other(url_for("web.lobby"))
    session.forget(response)
    return response


@web.route("/games", methods=["POST"])
def new_game() -> Response | tuple[str, int]:
    """Opens a table from the lobby's form, seats the creator and, if asked, the server's bots."""
    me = signed_in()
    try:
        body = schemas.GameCreate().load(_game_body(request.form))
    except (ValidationError, ValueError) as e:
        return pages.lobby(form_messages(e.messages if isinstance(e, ValidationError) else str(e))), 400
    return acting(
        lambda: _open_and_seat(me, body, request.form),
        lambda errors: pages.lobby(errors),
    )


def _open_and_seat(me: Player, body: dict[str, Any], form: Any) -> Response:
    p = current_platform()
    game = open_table(me.id, body)
    gid = str(game.id)
    if form.get("sit"):
        p.games.take_seat(gid, me.id, me.name, me.kind)
    if form.get("others", "bots") == "bots":
        bot = _bot_for(body["game"], form.get("bot", ""))
        while len(p.games.load(gid).seats) < body["players"]:
            p.games.add_bot(gid, me.id, bot)
    return see_other(url_for("web.game_page", game_id=gid))


def _bot_for(game: str, chosen: str) -> str:
    """The bot the form chose for ``game`` (``game/bot``), else the game's default bot."""
    slug, _, bot = chosen.partition("/")
    if slug == game and bot:
        return bot
    return find_game(game).default_bot


def _game_body(form: Any) -> dict[str, Any]:
    """The ``GameCreate`` body of the lobby's form."""
    game, _, variant = form.get("variant", "").partition("/")
    body: dict[str, Any] = {
        "game": game,
        "variant": variant or None,
        "players": number(form.get("players", "")),
        "rated": bool(form.get("rated")),
        "invite": [i.strip() for i in form.get("invite", "").split(",") if i.strip()],
        "options": _options(form, f"{game}/{variant}") or None,
    }
    clock = form.get("clock", "none")
    if clock == "per_move":
        body["time_control"] = {"kind": clock, "seconds": number(form.get("seconds", ""))}
    elif clock == "bank":
        body["time_control"] = {"kind": clock, **{k: number(form.get(k, "")) for k in ("initial", "increment", "cap")}}
    if form.get("starts_at"):
        body["starts_at"] = datetime.fromisoformat(form["starts_at"]).replace(tzinfo=UTC).isoformat()
        body["fill"] = "bot"
    return body


def number(text: str) -> int | str:
    """A form's whole number as the schema's strict integer (anything else left for it to refuse)."""
    return int(text) if text.strip().lstrip("-").isdigit() else text


def _options(form: Any, variant: str) -> dict[str, Any]:
    """The chosen variant's options, typed as the catalogue types them (text stays text)."""
    prefix = f"option:{variant}:"
    game, _, name = variant.partition("/")
    try:
        types = {o["name"]: o["type"] for o in find_game(game).variant(name or None).options_schema()}
    except Exception:  # an unknown game or variant: the service names it
        return {}
    out: dict[str, Any] = {}
    for key, value in form.items():
        option = key[len(prefix) :]
        if key.startswith(prefix) and value != "" and option in types:
            out[option] = value if types[option] == "str" else _typed(value)
    return out


def _typed(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


@web.route("/games/<game_id>/join", methods=["POST"])
def join_game(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.take_seat(game_id, me.id, me.name, me.kind)),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/bots", methods=["POST"])
def add_bot(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.add_bot(game_id, me.id, request.form.get("bot", ""))),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/start", methods=["POST"])
def start_game(game_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return acting(
        lambda: _then_game(current_platform().games.start(game_id, me.id)),
        lambda errors: pages.game_page(game_id, errors),
    )


@web.route("/games/<game_id>/disputes", methods=["POST"])
def open_dispute(game_id: str) -> Response | tuple[str, int]:
    """Opens a dispute on a step: a claim in words, or a move chosen from the step's legal moves
    (the ``move`` field holds it as the game's move, put there by whatever picked it: the list in
    words, or a board). Its answer shows on the audit page."""
    me = signed_in()
    try:
        at = open_dispute_fields(request.form, str(_document(game_id, me.id)["id"]))
        move = json.loads(request.form["move"]) if request.form.get("move", "").strip() else None
        claim = request.form.get("claim", "").strip()
        if not claim and move is not None:
            claim = f"This move should have been allowed at step {request.form['step'].strip()}."
        body = schemas.DisputeRequest().load(
            {"version": at["version"], "claim": claim}
            | ({"move": move} if move is not None else {})
            | ({"seat": at["seat"]} if at["seat"] is not None else {})
        )
    except ValidationError as e:
        return audit_pages.audit_page(game_id, form_messages(_in_words(e.messages))), 400
    except ValueError as e:
        said = str(e) if "step" in str(e) else "the chosen move could not be read"
        return audit_pages.audit_page(game_id, [said]), 400

    def act() -> Response:
        dispute = current_platform().disputes.open(
            game_id, me.id, body["version"], body["claim"], body.get("move"), body.get("seat")
        )
        return see_other(url_for("web.audit_page", game_id=game_id) + f"#dispute-{dispute['id']}")

    return acting(act, lambda errors: audit_pages.audit_page(game_id, errors))


def _in_words(messages: Any) -> Any:
    """A dispute request's field errors named as the form names its fields."""
    if isinstance(messages, dict):
        return {{"claim": "What you claim", "move": "The move"}.get(k, k): v for k, v in messages.items()}
    return messages


def _then_game(game: Any) -> Response:
    return see_other(url_for("web.game_page", game_id=str(game.id)))


def acting(act: Callable[[], Response], again: Callable[[list[str]], str]) -> Response | tuple[str, int]:
    """Runs ``act``; a refusal of the services or the rules shows the page again with it."""
    try:
        return act()
    except (ServiceError, RuleError) as refused:
        body, status = to_response(refused)
        return again([body["error"]["message"]]), status


def form_messages(messages: Any) -> list[str]:
    """marshmallow's messages (a dict of lists, nested) as lines for the page."""
    if isinstance(messages, str):
        return [messages]
    if isinstance(messages, list):
        return [str(m) for m in messages]
    out: list[str] = []
    for field, value in messages.items():
        out += [f"{field}: {m}" for m in form_messages(value)]
    return out
