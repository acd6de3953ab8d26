"""The pages people read: lobby, game (play and watch), replay, audit, inbox, sign-in.

Each page reads the same services as the API, as the viewer the session cookie names (a
spectator when signed out), so a page shows exactly what the API would answer that viewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from functools import cache
from typing import Any, NoReturn

from flask import Blueprint, abort, render_template, request

from api.context import current_platform
from api.meta import describe
from api.parser import page_contract
from api.schema_fields import LARGEST
from api.web import table_invitations, words
from api.web.viewing import STATUS_WORDS, base_context, viewer
from domain.kernel import Ruleset, all_games, find_game
from domain.kernel.narration import Names
from domain.kernel.rules import BOOK_TITLES
from services.accounts.players import SERVER_BOT_PREFIX
from services.common.errors import GameNotFound, InvalidRequest, NoPicture, NotAPlayer
from services.common.visibility import ENDED
from services.reads.game_log import result_text, status_line
from services.reads.seat_names import names_of

web = Blueprint("web", __name__, template_folder="templates", static_folder="static", static_url_path="/assets")

PAGE = 25
"""Games per lobby page."""
STATUSES = [("open", "open"), ("scheduled", "scheduled"), ("active", "running"), ("finished", "finished")]


def render(template: str, **context: Any) -> str:
    """A page: the layout's context and the page's own."""
    return render_template(template, **{**base_context(), **context})


@cache
def lobby_catalog() -> list[dict[str, Any]]:
    """The catalogue the lobby's form offers (the games are registered once, at start-up)."""
    return [describe(g) for g in all_games()]


def titles() -> dict[str, str]:
    return {g.slug: g.title for g in all_games()}


@web.route("/", methods=["GET"])
@page_contract(auth="optional", scope="read")
def lobby(errors: list[str] | None = None) -> str:
    """Games filtered by game and status, a page at a time; sign-up or a new table's form."""
    filters = {k: request.args.get(k, "") for k in ("game", "status")}
    page = page_number()
    games = current_platform().queries.list_games(
        filters["status"] or None, filters["game"] or None, None, PAGE + 1, (page - 1) * PAGE
    )
    if page > 1 and not games:
        past_the_end(page, "the games")
    waiting = [g["id"] for g in games[:PAGE] if g["status"] in ("open", "scheduled")]
    return render(
        "lobby.html",
        games=games[:PAGE],
        kept=current_platform().invitations.kept(waiting),
        more=len(games) > PAGE,
        page=page,
        filters={k: v for k, v in filters.items() if v},
        catalog=lobby_catalog(),
        titles=titles(),
        variant_titles={f"{g.slug}/{v.name}": v.title for g in all_games() for v in g.variants},
        statuses=STATUSES,
        errors=errors,
    )


@web.route("/signin", methods=["GET"])
@page_contract(auth="optional", scope="read")
def sign_in_page(errors: list[str] | None = None, why: str | None = None) -> str:
    """The sign-in page; ``errors``: what went wrong, ``why``: what signing in is for (nothing failed)."""
    return render("signin.html", errors=errors, why=why)


@web.route("/games/<game_id>", methods=["GET"])
@page_contract(auth="optional", scope="read")
def game_page(game_id: str, errors: list[str] | None = None) -> str:
    """The game as the viewer may see it, live: a player's controls, or a spectator's view."""
    me = viewer()
    player_id = me.id if me else None
    doc = _document(game_id, player_id)
    ruleset = find_game(doc["game"])
    seated = bool(doc["your_seats"])
    open_seat = doc["status"] in ("open", "scheduled") and len(doc["seats"]) < doc["planned_seats"]
    names = names_of(doc, player_id)
    result = result_text(current_platform().queries, doc, names)
    invited = table_invitations.invited(doc, player_id)
    page_data = {
        "id": doc["id"],
        "version": doc["version"],
        "status": doc["status"],
        "your_seats": doc["your_seats"],
        "awaiting": doc["awaiting"],
        "seats": doc["seats"],
        "names": names.to_json(),
        "planned_seats": doc["planned_seats"],
        "clocks": doc["clocks"],
        "move_schema": ruleset.move_schema() if seated else None,
        "ended": doc["status"] in ENDED,
        "ended_statuses": sorted(ENDED),  # the pages' scripts end a game where the server does
        "draws_board": draws_board(ruleset),
        "answers_awaited": invited.answers_awaited,
    }
    return render(
        "game.html",
        game=doc,
        title=ruleset.title,
        variant_title=variant_title(ruleset, doc["variant"]),
        heading=table_title(ruleset.title, names),
        seat_rows=seat_rows(doc, names, invited.kept_for),
        status_words=STATUS_WORDS.get(doc["status"], doc["status"]),
        status_line=status_line(doc["status"], doc["awaiting"], names, len(doc["seats"]), doc["planned_seats"], result),
        result=result,
        board=_board(doc, player_id),
        watching=not seated,
        your_seats=doc["your_seats"],
        can_join=me is not None and open_seat and not seated and current_platform().seating.offers_seat(doc, me.id),
        is_creator=me is not None and doc["creator"] == me.id,
        **_starting(ruleset, doc),
        **_leaving(doc, player_id, names),
        **asdict(invited),
        words=words,
        bots=[(r.bot, f"Level {n}: {r.about}") for n, r in enumerate(ruleset.ladder, 1)],
        usual_bot=ruleset.default_bot,
        page_data=page_data,
        errors=errors,
    )


def _starting(ruleset: Ruleset[Any], doc: dict[str, Any]) -> dict[str, Any]:
    """Whether the creator may start the table now, else what it still needs, in words."""
    least = ruleset.variant(doc["variant"]).min_seats
    seated = len(doc["seats"])
    more = least - seated
    needs = f"It can start once {least} players are seated: {more} more {'is' if more == 1 else 'are'} needed."
    return {"can_start": seated >= least, "start_needs": needs}


def _leaving(doc: dict[str, Any], player_id: str | None, names: Names) -> dict[str, Any]:
    """The ways in and out a table not started offers its viewer: leaving their seat (not its
    creator, who closes it), or, for the creator, inviting more players while a seat is free,
    taking off a server bot (``bots_off``: seat and name) and closing it. A tournament's table
    offers none: its seats are given up by withdrawing, and it is the tournament's to cancel."""
    shut: dict[str, Any] = {"can_leave": False, "can_invite": False, "can_close": False, "bots_off": []}
    if player_id is None or doc["status"] not in ("open", "scheduled"):
        return shut
    if current_platform().games.load(doc["id"]).settings.get("tournament"):
        return shut
    creator = doc["creator"] == player_id
    bots = [s for s in doc["seats"] if creator and str(s["player_id"]).startswith(SERVER_BOT_PREFIX)]
    return {"can_leave": bool(doc["your_seats"]) and not creator,
            "can_invite": creator and len(doc["seats"]) < doc["planned_seats"], "can_close": creator,
            "bots_off": [(s["seat"], names.full(s["seat"])) for s in bots]}  # fmt: skip


@web.route("/games/<game_id>/replay", methods=["GET"])
@page_contract(auth="optional", scope="read")
def replay_page(game_id: str) -> str:
    """A finished game step by step (a running one as the viewer saw it)."""
    me = viewer()
    player_id = me.id if me else None
    doc = _document(game_id, player_id)
    ruleset = find_game(doc["game"])
    names = names_of(doc, player_id)
    return render(
        "replay.html",
        game=doc,
        title=ruleset.title,
        heading=table_title(ruleset.title, names),
        variant_title=variant_title(ruleset, doc["variant"]),
        status_words=STATUS_WORDS.get(doc["status"], doc["status"]),
        page_data={
            "id": doc["id"],
            "version": doc["version"],
            "status": doc["status"],
            "books": BOOK_TITLES,  # the rules' sources by title: a page never shows a file name
            "draws_board": draws_board(ruleset),
            "your_seats": doc["your_seats"],
            "ended": doc["status"] in ENDED,
            "ended_statuses": sorted(ENDED),  # the pages' scripts end a game where the server does
            "signed_in": me is not None,
        },
    )


# ------------------------------------------------------------ helpers


def variant_title(ruleset: Ruleset[Any], variant: str) -> str:
    """The variant's title where it says more than the game's."""
    title = ruleset.variant(variant).title
    return "" if title == ruleset.title else title


def table_title(game_title: str, names: Names) -> str:
    """A game as its players make it: "Tarasque: ann, Level 3 bot"."""
    players = [names.player(s) for s in names.seats]
    return f"{game_title}: {', '.join(players)}" if players else game_title


def seat_rows(doc: dict[str, Any], names: Names, kept_for: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The seats of a game page's list: each named in full, taken or (before the start) open,
    awaited or not; the first open ones kept for invitees, as ``kept_for`` says it."""
    rows = [
        {"seat": s["seat"], "full": names.full(s["seat"]), "player_id": s["player_id"], "bot": s["kind"] == "bot",
         "awaited": s["seat"] in doc["awaiting"], "open": False}
        for s in doc["seats"]
    ]  # fmt: skip
    taken = {s["seat"] for s in doc["seats"]}
    kept = iter(kept_for)
    for n in range(doc["planned_seats"] if doc["status"] in ("open", "scheduled") else 0):
        if n not in taken:
            rows.append({"seat": n, "full": "An open seat", "open": True, "awaited": False, "kept": next(kept, None)})
    return sorted(rows, key=lambda r: r["seat"])


def draws_board(ruleset: Ruleset[Any]) -> bool:
    """Whether the game draws its board (a game may leave ``render_svg`` to the base's None)."""
    return type(ruleset).render_svg is not Ruleset.render_svg


def _document(game_id: str, player_id: str | None) -> dict[str, Any]:
    try:
        return current_platform().queries.document(game_id, player_id)
    except (GameNotFound, ValueError):
        abort(404, description=f"there is no game {game_id!r}")


def _board(doc: dict[str, Any], player_id: str | None) -> str | None:
    """The board as an element of the page (an SVG document without its XML declaration)."""
    try:
        picture = current_platform().queries.svg(doc, player_id)
    except NoPicture:
        return None
    return picture[picture.index("<svg") :] if "<svg" in picture else None


def _journal(game_id: str, player_id: str | None) -> list[dict[str, Any]] | None:
    """The journal as the viewer may read it; None where the viewer may read none of it."""
    try:
        entries: list[dict[str, Any]] = current_platform().queries.journal_of(game_id, player_id)["entries"]
    except NotAPlayer:
        return None
    return entries


def page_number() -> int:
    """The page of a list the address asks for (``?page=``), counted from 1 as the page says it
    ("Page 2"): the first when absent, not a number, or 0 or less (an older link counted from 0)."""
    return max(1, int_arg("page", 1))


def past_the_end(page: int, what: str, last: int | None = None) -> NoReturn:
    """A page past a list's last, as a not-found page that says so (``last``: its last page, when known)."""
    after = f": the last is page {last}" if last else ""
    abort(404, description=f"there is no page {page} of {what}{after}")


def int_arg(name: str, default: int) -> int:
    """A whole-number query argument of a page; ``default`` when absent or not a number, a 400
    (``InvalidRequest``) past the largest the API's query parameters take (``api.schema_fields.LARGEST``),
    which no store could page to."""
    try:
        value = int(request.args.get(name, default))
    except ValueError:
        return default
    if abs(value) > LARGEST:
        raise InvalidRequest(f"{name} must be a whole number up to {LARGEST}", field=name)
    return value
