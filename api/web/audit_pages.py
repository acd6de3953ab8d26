"""The audit page, in words: the verification, every step (paged, its details folded), the refused
commands and the disputes, and the form that disputes a step with a claim in words or a move chosen
from the step's legal moves (``/games/{id}/steps/{n}/choices``, which any picker of a move may read).

Every step is numbered as the replay numbers it (``services.reads.game_log``: 0 is the start of play).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, abort, jsonify

from api.context import current_platform
from api.parser import page_contract
from api.web.pages import (
    ENDED,
    STATUS_WORDS,
    _document,
    _journal,
    int_arg,
    page_number,
    past_the_end,
    render,
    table_title,
    web,
)
from api.web.viewing import viewer
from domain.kernel import find_game
from domain.kernel.narration import Audience, Names, Narrator
from services.audits.records import audit_trail
from services.common.errors import ServiceError
from services.reads.game_log import narrated_log
from services.reads.seat_names import names_of
from services.reads.step_index import before_step, bounds, step_of_version
from services.reads.step_index import index as steps_of

STEPS_PAGE = 25
"""Steps per audit page: short enough for a phone."""
MAX_CHOICES = 1000
"""Legal moves a choices page lists (as ``GET /legal-moves``); ``offset`` pages through the rest."""


@web.route("/games/<game_id>/audit", methods=["GET"])
@page_contract(auth="optional", scope="read")
def audit_page(game_id: str, errors: list[str] | None = None) -> str:
    """The verification of every step, the journal of refusals and the disputes, with a form."""
    p = current_platform()
    me = viewer()
    player_id = me.id if me else None
    doc = _document(game_id, player_id)
    ruleset = find_game(doc["game"])
    names = names_of(doc, player_id)
    audience = Audience(names, doc["variant"])
    trail = audit_trail(p.games, doc["id"], player_id)
    index = steps_of(bounds(p.games, doc["id"], doc["version"]))
    page, pages = page_number(), max(1, (len(index) + STEPS_PAGE - 1) // STEPS_PAGE)
    if page > pages:
        past_the_end(page, "this game's steps", pages)
    shown = _rows(doc, player_id, trail, slice((page - 1) * STEPS_PAGE, page * STEPS_PAGE), me is not None)
    asked = int_arg("dispute", 0)
    chosen = before_step(index, asked) if asked else None
    may_choose = chosen is not None and _disputable({**chosen, "kind": "move"}, doc, me is not None)
    return render(
        "audit.html",
        game=doc,
        title=ruleset.title,
        heading=table_title(ruleset.title, names),
        status_words=STATUS_WORDS.get(doc["status"], doc["status"]),
        audit=trail,
        verdict=_verdict(trail, index),
        steps=shown,
        page=page,
        pages=pages,
        steps_total=len(index),
        last_step=index[-1]["step"] if index else 0,
        journal=_journal_words(_journal(doc["id"], player_id), ruleset.narrator, audience, index),
        disputes=[
            {**_dispute_words(d, ruleset.narrator, audience, index), **_opener(d["opener"], doc, player_id, names)}
            for d in p.disputes.of_game(doc["id"], player_id)
        ],
        record_ready=doc["status"] in ENDED,
        chosen=chosen,
        may_choose=may_choose,
        chosen_title=_title(doc, player_id, index, chosen["step"]) if chosen else "",
        errors=errors,
    )


@web.route("/games/<game_id>/steps/<int:step>/choices", methods=["GET"])
@page_contract(auth="optional", scope="read")
def step_choices(game_id: str, step: int) -> Response:
    """The moves the seat of step ``step`` could have chosen there, each with its words: what a
    dispute of that step may name (while the game runs, only the caller's own seat's)."""
    p = current_platform()
    me = viewer()
    player_id = me.id if me else None
    doc = _document(game_id, player_id)
    chosen = before_step(steps_of(bounds(p.games, doc["id"], doc["version"])), step)
    if chosen is None or chosen["seat"] is None:
        abort(404, description=f"step {step} is no decision of a seat")
    try:
        listed = p.disputes.choices(
            doc["id"], player_id, chosen["version"], chosen["seat"], max(0, int_arg("offset", 0)), MAX_CHOICES
        )
    except ServiceError as refused:
        abort(403, description=str(refused))
    ruleset = find_game(doc["game"])
    audience = Audience(names_of(doc, player_id), doc["variant"])
    texts = [ruleset.narrator.move(m, audience, chosen["seat"]) for m in listed["moves"]]
    return jsonify({**listed, "step": step, "texts": texts})


def _rows(
    doc: Mapping[str, Any], player_id: str | None, trail: Mapping[str, Any], window: slice, signed_in: bool
) -> list[dict[str, Any]]:
    """The steps a page of the audit shows, in words, with the rules each verification cited:
    only they are narrated (a 2,000-event game's whole log took 60 ms a page)."""
    log = narrated_log(current_platform().queries, doc["id"], player_id, window=window)
    rules = {s["version"]: s["rules"] for s in trail["steps"]}
    bad = (trail.get("first_bad_step") or {}).get("version")
    return [
        {**s, "rules": rules.get(s["version"], []), "bad": bad is not None and s["until"] >= bad,
         "disputable": _disputable(s, doc, signed_in)}
        for s in log["steps"]
    ]  # fmt: skip


def _title(doc: Mapping[str, Any], player_id: str | None, index: list[dict[str, Any]], step: int) -> str:
    """The title of step ``step`` (one past the start of play, so one of the index's) in words."""
    at = next(i for i, s in enumerate(index) if s["step"] == step)
    told = narrated_log(current_platform().queries, doc["id"], player_id, window=slice(at, at + 1))["steps"]
    return str(told[0]["title"]) if told else ""


# ------------------------------------------------------------ words


def _disputable(step: Mapping[str, Any], doc: Mapping[str, Any], signed_in: bool) -> bool:
    """Whether the viewer may dispute this step: a seat's decision, theirs while the game runs."""
    if not signed_in or step["step"] < 1 or step["kind"] not in ("move", "timeout") or step["seat"] is None:
        return False
    return doc["status"] in ENDED or step["seat"] in doc["your_seats"]


def _verdict(trail: Mapping[str, Any], index: list[dict[str, Any]]) -> str:
    """The verification's verdict in words, its place a step (never a version)."""
    bad = (trail.get("first_bad_step") or {}).get("version")
    if not trail["verified"]:
        where = f" at step {step_of_version(index, bad - 1)}" if isinstance(bad, int) else ""
        return f"Not verified: played again by the rules, the game does not give what was recorded{where}."
    if trail["status"] in ENDED:
        return (
            "Verified: every move, played again by the rules with the dice and the shuffles drawn from the "
            "game's seed (secret while it ran, revealed at its end), gives exactly what was recorded."
        )
    return "Verified so far: every move, played again by the rules, gives exactly what was recorded."


def move_words(narrator: Narrator, move: Any, audience: Audience, seat: int | None) -> str:
    """A move a person named (a refused command, a disputed move) in the game's words; one the game
    does not know, or malformed, is said to be so."""
    if not isinstance(move, Mapping):
        return "a move the game does not know"
    try:
        return narrator.move(move, audience, seat if seat is not None else 0)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return "a move that is not one of the game's"


def _journal_words(
    entries: list[dict[str, Any]] | None, narrator: Narrator, audience: Audience, index: list[dict[str, Any]]
) -> list[dict[str, Any]] | None:
    if entries is None:
        return None
    out = []
    for e in entries:
        seat = e.get("seat")
        who = audience.names.full(seat) if seat is not None else "Someone"
        what = why = None
        if e.get("command") is not None:
            what = move_words(narrator, e["command"], audience, seat)
            rule = (e.get("rule") or {}).get("text", "")
            why = rule or "the server refused it"
        out.append({"at": e["at"][:16].replace("T", " "), "who": who, "step": step_of_version(index, e["version"]),
                    "what": what, "why": why, "rule": e.get("rule")})  # fmt: skip
    return out


def _dispute_words(
    d: dict[str, Any], narrator: Narrator, audience: Audience, index: list[dict[str, Any]]
) -> dict[str, Any]:
    seat = d.get("seat")
    answer = d.get("answer") or None
    judged = (answer or {}).get("move") or {}
    said: dict[str, Any] = {
        "id": d["id"],
        "step": step_of_version(index, d["version"]),
        "claim": d["claim"],
        "opened_at": d["opened_at"],
        "move": move_words(narrator, d["move"], audience, seat) if d.get("move") else None,
        "answered": answer is not None,
        "resolution": d.get("resolution"),
        "sandbox": (answer or {}).get("sandbox_id"),
        "rule": judged.get("rule"),
    }
    if judged.get("evaluated"):
        if judged.get("legal"):
            said["answer"] = f"Legal: {audience.names.object(seat) if seat is not None else 'the seat'} could " \
                             f"{said['move'] or 'play it'} at that step."  # fmt: skip
        else:
            rule = (judged.get("rule") or {}).get("text", "")
            said["answer"] = narrator.refusal(d["move"], judged.get("code") or "", rule, audience, seat or 0) \
                if isinstance(d.get("move"), Mapping) and said["move"] else f"Not legal: {rule}"  # fmt: skip
    elif answer is not None:
        said["answer"] = "No move was named: the claim stands in words for an arbiter to read."
    return said


def _opener(opener: str, doc: Mapping[str, Any], player_id: str | None, names: Names) -> dict[str, Any]:
    """Who opened a dispute, as the reader says it: their seat's name where they hold one ("you
    (teal)"), else "you" or their account's name. Not the disputed seat: once a game has ended,
    anyone may dispute any seat's step."""
    held = [int(s["seat"]) for s in doc["seats"] if s.get("player_id") == opener]
    if held:
        who = names.full(held[0], start=False)
    elif opener == player_id:
        who = "you"
    else:
        try:
            who = current_platform().accounts.get(opener).name
        except ServiceError:
            who = "a former player"
    return {"who": who, "by_you": opener == player_id}


def open_dispute_fields(form: Mapping[str, str], game_id: str) -> dict[str, Any]:
    """A dispute form's step, claim and chosen move as the API's dispute request (``DisputeRequest``):
    the step becomes the version it was decided on, and its seat."""
    step = form.get("step", "").strip()
    if not step.isdigit():
        raise ValueError("say which step you dispute (a number from the replay or the list of steps)")
    games = current_platform().games
    chosen = before_step(steps_of(bounds(games, game_id, games.load(game_id).version)), int(step))
    if chosen is None:
        raise ValueError(f"step {step} is no decision of this game")
    return {"version": chosen["version"], "seat": chosen["seat"]}
