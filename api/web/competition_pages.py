"""The competition pages: player profiles, leaderboards and tournaments, and the forms that
register for a tournament and announce one.

They read the same services as the API's routes (``api.players``, ``api.competition``), which
read only ended games' results (profiles, ratings, leaderboards) and the tournaments' own
tables, so they show nothing a running game hides. The forms check the session's CSRF token
as every form of the pages does (``api.web.forms``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Response, request, url_for
from marshmallow import ValidationError

from api.competition_schemas import TournamentCreate
from api.context import current_platform
from api.parser import page_contract
from api.web import words
from api.web.forms import acting, local_time, number, see_other, signed_in
from api.web.page_words import form_messages, said
from api.web.pages import page_number, past_the_end, render, titles, web
from api.web.viewing import viewer
from domain.kernel import all_games
from services.common import clock
from services.reads.profiles import PROVISIONAL_GAMES

BOARD_PAGE = 25
"""Players per leaderboard page."""
TOURNAMENTS_PAGE = 25
TOURNAMENT_STATUSES = ("registering", "running", "finished", "cancelled")


def catalog() -> list[dict[str, Any]]:
    """Every registered game, with its variants."""
    return [
        {
            "game": g.slug,
            "title": g.title,
            "variants": [(v.name, v.title, v.min_seats, v.max_seats) for v in g.variants],
        }
        for g in all_games()
    ]


@web.route("/players/<player_id>", methods=["GET"])
@page_contract(auth="optional", scope="read")
def player_page(player_id: str, errors: list[str] | None = None) -> str:
    """A profile: ratings per game, games finished and won, recent ended games, a bot's owner;
    on one's own, the account's forms (password, recovery codes, bots)."""
    p = current_platform()
    me = viewer()
    own = me is not None and me.id == player_id
    account = None
    if own and me is not None:
        account = {
            "bots": p.accounts.bots_of(me.id),
            "has_password": p.credentials.has_password(me.id),
            "codes_left": p.credentials.codes_left(me.id),
            "saved": request.args.get("saved") == "password",
        }
    return render(
        "player.html",
        profile=p.profiles.profile(player_id),
        titles=titles(),
        variant_titles={f"{g.slug}/{v.name}": v.title for g in all_games() for v in g.variants},
        account=account,
        errors=errors,
    )


@web.route("/leaderboards", methods=["GET"])
@page_contract(auth="optional", scope="read")
def leaderboards() -> str | Response:
    """The games to choose a leaderboard from (the chooser's ``?game=`` goes to that board)."""
    game = request.args.get("game", "").strip()
    if game:
        return see_other(url_for("web.leaderboard_page", game=game))
    return render("leaderboards.html", catalog=catalog())


@web.route("/leaderboards/<game>", methods=["GET"])
@page_contract(auth="optional", scope="read")
def leaderboard_page(game: str) -> str:
    """A game's people and bots apart, each by the rating people read: settled ratings first,
    then provisional ones (marked), so a young server's board shows everyone who has played."""
    page = page_number()
    profiles = current_platform().profiles
    boards = {
        kind: profiles.leaderboard(game, BOARD_PAGE, (page - 1) * BOARD_PAGE, True, kind, "rating")
        for kind in ("human", "bot")
    }
    slug = boards["human"]["game"]
    last = max(1, (max(b["total"] for b in boards.values()) + BOARD_PAGE - 1) // BOARD_PAGE)
    if page > last:
        past_the_end(page, f"the leaderboard of {titles().get(slug, slug)}", last)
    return render(
        "leaderboard.html",
        boards=[("people", "People", boards["human"]), ("bots", "Bots", boards["bot"])],
        game=slug,
        title=titles().get(slug, slug),
        catalog=catalog(),
        page=page,
        more=page < last,
        settled_games=PROVISIONAL_GAMES,
    )


@web.route("/tournaments", methods=["GET"])
@page_contract(auth="optional", scope="read")
def tournaments_page(errors: list[str] | None = None) -> str:
    """Tournaments, latest start first, optionally of one status; the form to announce one."""
    status = request.args.get("status", "")
    status = status if status in TOURNAMENT_STATUSES else ""
    page = page_number()
    found = current_platform().tournaments.listing(status or None, TOURNAMENTS_PAGE + 1, (page - 1) * TOURNAMENTS_PAGE)
    if page > 1 and not found:
        past_the_end(page, "the tournaments")
    return render(
        "tournaments.html",
        tournaments=found[:TOURNAMENTS_PAGE],
        more=len(found) > TOURNAMENTS_PAGE,
        page=page,
        filters={"status": status} if status else {},
        statuses=TOURNAMENT_STATUSES,
        catalog=catalog(),
        titles=titles(),
        variant_titles={f"{g['game']}/{v[0]}": v[1] for g in catalog() for v in g["variants"]},
        errors=errors,
    )


@web.route("/tournaments/<tournament_id>", methods=["GET"])
@page_contract(auth="optional", scope="read")
def tournament_page(tournament_id: str, errors: list[str] | None = None) -> str:
    """Its facts, with the start counted down in the reader's time zone; for a player, their table
    in the current round and when its game starts; register, withdraw, enter a bot of one's own;
    the organiser's start-now and cancel; standings and rounds."""
    p = current_platform()
    t = p.tournaments.get(tournament_id)
    me = viewer()
    names = {e["player_id"]: e["name"] for e in t["players"]}
    bots = p.accounts.bots_of(me.id) if me is not None else []
    open_ = t["status"] == "registering"
    return render(
        "tournament.html",
        t=t,
        title=titles().get(t["game"], t["game"]),
        variant=words.variant_title(t["game"], t["variant"]),
        clock=words.clock_text(t["time_control"]),
        duration=words.duration,
        names=names,
        registered=me is not None and me.id in names,
        can_register=me is not None and open_ and len(names) < t["capacity"],
        my_bots=[b for b in bots if b.id not in names] if open_ else [],
        my_entered_bots=[b for b in bots if b.id in names],
        server_bots=words.server_bots(t["game"]),
        organiser=me is not None and me.id == t["creator"],
        my_tables=_tables_of(t, me.id if me else None, {b.id for b in bots}),
        round_start=_round_start(t),
        errors=errors,
    )


def _round_start(t: dict[str, Any]) -> dict[str, Any] | None:
    """When the current round's games start (``starts_at``) and whether they have (``started``):
    a round is paired, and its players told, a notice before its games start; None when no round runs."""
    if t["status"] != "running" or not t["round_deadline"]:
        return None
    starts = datetime.fromisoformat(t["round_deadline"]) - timedelta(seconds=t["round_seconds"])
    return {"starts_at": starts.isoformat(), "started": starts <= clock.now()}


def _tables_of(t: dict[str, Any], me: str | None, bots: set[str]) -> list[dict[str, Any]]:
    """The current round's tables where the reader or a bot of theirs sits: whose table it is,
    whom they meet, and when its game starts."""
    start = _round_start(t)
    if me is None or start is None:
        return []
    current: dict[str, Any] = next((r for r in t["rounds"] if r["round"] == t["round"]), {"tables": []})
    found = []
    for table in current["tables"]:
        players, seated = table["players"], ({me} | bots) & set(table["players"])
        if not seated or not table["game_id"]:
            continue
        whose = me if me in seated else sorted(seated)[0]
        found.append({**table, "whose": whose, "against": [p for p in players if p != whose], **start})
    return found


# ------------------------------------------------------------ forms


@web.route("/tournaments/<tournament_id>/register", methods=["POST"])
@page_contract(auth="required", scope="play")
def register_for_tournament(tournament_id: str) -> Response | tuple[str, int]:
    """Registers the signed-in person, or a bot account of theirs (``player_id``, played by a server
    bot if ``bot`` is chosen), as ``POST /tournaments/{id}/registrations`` does."""
    me = signed_in()

    def act() -> Response:
        entrant = request.form.get("player_id") or None
        bot = request.form.get("bot") or None
        current_platform().tournaments.register(tournament_id, me, entrant, bot)
        return see_other(url_for("web.tournament_page", tournament_id=tournament_id))

    return acting(act, lambda errors: tournament_page(tournament_id, errors))


@web.route("/tournaments", methods=["POST"])
@page_contract(auth="required", scope="play")
def new_tournament() -> Response | tuple[str, int]:
    """Announces a tournament from the list's form; its page is shown next."""
    me = signed_in()
    try:
        body = TournamentCreate().load(_tournament_body(request.form))
    except (ValidationError, ValueError) as e:
        return tournaments_page(form_messages(e.messages if isinstance(e, ValidationError) else said(str(e)))), 400

    def act() -> Response:
        created = current_platform().tournaments.create(me, body)
        return see_other(url_for("web.tournament_page", tournament_id=created["id"]))

    return acting(act, tournaments_page)


def _tournament_body(form: Any) -> dict[str, Any]:
    """The ``TournamentCreate`` body of the form (its start in the browser's time zone, as the lobby's is)."""
    game, _, variant = form.get("variant", "").partition("/")
    body: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "game": game,
        "variant": variant or None,
        "format": form.get("format", ""),
        **{k: number(form.get(k, "")) for k in ("seats", "rounds", "capacity", "round_seconds")},
    }
    if form.get("notice_seconds"):
        body["notice_seconds"] = number(form["notice_seconds"])
    if form.get("starts_at"):
        body["starts_at"] = local_time(form["starts_at"], form.get("tz", "UTC")).isoformat()
    if form.get("clock", "none") == "per_move":
        body["time_control"] = {
            "kind": "per_move",
            "seconds": number(form.get("seconds", "")),
            "timeout_policy": form.get("timeout_policy", "auto"),
        }
    return body
