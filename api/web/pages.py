"""The pages people read: lobby, game (play and watch), replay, audit, inbox, sign-in.

Each page reads the same services as the API, as the viewer the session cookie names (a
spectator when signed out), so a page shows exactly what the API would answer that viewer.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask import Blueprint, abort, render_template, request

from api.context import current_platform
from api.meta import describe
from api.web import words
from api.web.viewing import base_context, viewer
from domain.kernel import Ruleset, all_games, find_game
from services.errors import GameNotFound, NoPicture, NotAPlayer
from services.records import audit_trail

web = Blueprint("web", __name__, template_folder="templates", static_folder="static", static_url_path="/assets")

PAGE = 25
"""Games per lobby page."""
STEPS_PAGE = 100
"""Steps per audit page."""
STATUSES = [("open", "open"), ("scheduled", "scheduled"), ("active", "running"), ("finished", "finished")]
ENDED = ("finished", "abandoned", "cancelled")


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
def lobby(errors: list[str] | None = None) -> str:
    """Games filtered by game and status, a page at a time; sign-up or a new table's form."""
    filters = {k: request.args.get(k, "") for k in ("game", "status")}
    page = max(0, int_arg("page", 0))
    games = current_platform().queries.list_games(
        filters["status"] or None, filters["game"] or None, None, PAGE + 1, page * PAGE
    )
    return render(
        "lobby.html",
        games=games[:PAGE],
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
def sign_in_page(errors: list[str] | None = None) -> str:
    return render("signin.html", errors=errors)


@web.route("/games/<game_id>", methods=["GET"])
def game_page(game_id: str, errors: list[str] | None = None) -> str:
    """The game as the viewer may see it, live: a player's controls, or a spectator's view."""
    me = viewer()
    doc = _document(game_id, me.id if me else None)
    ruleset = find_game(doc["game"])
    seated = bool(doc["your_seats"])
    open_seat = doc["status"] in ("open", "scheduled") and len(doc["seats"]) < doc["planned_seats"]
    page_data = {
        "id": doc["id"],
        "version": doc["version"],
        "status": doc["status"],
        "your_seats": doc["your_seats"],
        "awaiting": doc["awaiting"],
        "seats": doc["seats"],
        "clocks": doc["clocks"],
        "move_schema": ruleset.move_schema() if seated else None,
        "ended": doc["status"] in ENDED,
        "draws_board": draws_board(ruleset),
    }
    return render(
        "game.html",
        game=doc,
        title=ruleset.title,
        board=_board(doc, me.id if me else None),
        watching=not seated,
        your_seats=doc["your_seats"],
        can_join=me is not None and open_seat and not seated,
        is_creator=me is not None and doc["creator"] == me.id,
        bots=sorted(ruleset.bots),
        view_json=json.dumps(doc["view"], indent=1, ensure_ascii=False)[:20000],
        page_data=page_data,
        errors=errors,
    )


@web.route("/games/<game_id>/replay", methods=["GET"])
def replay_page(game_id: str) -> str:
    """A finished game step by step (a running one as the viewer saw it)."""
    me = viewer()
    doc = _document(game_id, me.id if me else None)
    return render(
        "replay.html",
        game=doc,
        title=find_game(doc["game"]).title,
        page_data={
            "id": doc["id"],
            "version": doc["version"],
            "status": doc["status"],
            "draws_board": draws_board(find_game(doc["game"])),
            "names": [s["name"] for s in doc["seats"]],
        },
    )


@web.route("/games/<game_id>/audit", methods=["GET"])
def audit_page(game_id: str, errors: list[str] | None = None) -> str:
    """The verification of every step, the journal of refusals and the disputes, with a form."""
    p = current_platform()
    me = viewer()
    player_id = me.id if me else None
    doc = _document(game_id, player_id)
    trail = audit_trail(p.games, doc["id"], player_id)
    page = max(0, int_arg("page", 0))
    steps = trail["steps"][page * STEPS_PAGE : (page + 1) * STEPS_PAGE]
    return render(
        "audit.html",
        game=doc,
        title=find_game(doc["game"]).title,
        audit=trail,
        steps=steps,
        page=page,
        page_first=page * STEPS_PAGE + 1 if steps else 0,
        page_last=page * STEPS_PAGE + len(steps),
        steps_total=len(trail["steps"]),
        journal=_journal(doc["id"], player_id),
        disputes=p.disputes.of_game(doc["id"], player_id),
        record_ready=doc["status"] in ENDED,
        actor_text=actor_text,
        decision_text=decision_text,
        errors=errors,
    )


@web.route("/inbox", methods=["GET"])
def inbox(errors: list[str] | None = None) -> str:
    """My games awaiting me (soonest deadline first), invitations received (to accept or decline)
    and sent (with their answers), reminders, all my games."""
    me = viewer()
    if me is None:
        return sign_in_page(["Sign in to read your inbox."])
    p = current_platform()
    return render(
        "inbox.html",
        inbox=p.timers.inbox_of(me.id),
        received=p.invitations.received(me.id),
        tournament_notices=sorted(
            p.inbox.items(me.id, "tournament_round") + p.inbox.items(me.id, "tournament_cancelled"),
            key=lambda i: i["at"],
            reverse=True,
        ),
        sent=p.invitations.sent(me.id),
        mine=p.queries.list_games(None, None, me.id, 50, 0),
        titles=titles(),
        item_text=item_text,
        words=words,
        errors=errors,
    )


# ------------------------------------------------------------ helpers


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


def int_arg(name: str, default: int) -> int:
    """A whole-number query argument of a page; ``default`` when absent or not a number."""
    try:
        return int(request.args.get(name, default))
    except ValueError:
        return default


def actor_text(actor: dict[str, Any]) -> str:
    """Who made a step, in words."""
    kind = actor.get("kind", "")
    if kind == "seat":
        return f"seat {actor.get('seat', 0) + 1}"
    return {"system": "the rules", "creator": "the creator", "platform": "the server"}.get(kind, kind)


def decision_text(decision: dict[str, Any]) -> str:
    """A decision in one line: its type, then its fields."""
    fields = ", ".join(f"{k}={_short(v)}" for k, v in decision.items() if k != "type")
    return f"{decision.get('type', '?')}({fields})"


def item_text(item: dict[str, Any]) -> str:
    """An inbox item (a reminder, an invitation) in one line."""
    return str(item.get("message") or item.get("text") or item.get("kind", "")).strip() or "(no text)"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"
