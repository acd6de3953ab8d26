"""A game's narrated log for one viewer: its events told in the game's own words, step by step.

Built on read, from the events as ``GET /events`` redacts them for the viewer, so the log tells
nobody more than the events do, and nothing is added to a move's write path. Each *step* is one
decision and what it caused (``services.reads.steps``), numbered as people count them: step 0 is the
start of play (the table's opening, its seats and the first deal), then 1, 2, ... for each decision
after it; the replay, the audit and the disputes use the same numbers. A line that opens a new turn
carries the turn's heading (``Narrator.turn``), so a page groups the lines by turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.kernel import ConfigError, GameConfig, find_game
from domain.kernel.narration import Audience, Names
from domain.kernel.wording import listing
from services.common.visibility import has_ended
from services.play.aggregate import Game
from services.reads.platform_words import PlatformWords
from services.reads.redaction import redact_stored_event
from services.reads.seat_names import names_in, seat_holder
from services.reads.step_index import Bounds, bounds, grouped
from services.reads.steps import CAUSES

KINDS = {
    "Created": "created", "SeatTaken": "seat", "SeatGivenUp": "seat", "Started": "started", "Forked": "started",
    "MoveMade": "move", "Resigned": "resigned", "TurnTimedOut": "timeout", "PolicyPlayed": "timeout",
    "Joined": "joined", "Abandoned": "abandoned",
}  # fmt: skip
NOTICES = ("TurnTimedOut",)
"""Lines a page keeps in view until read: a seat's clock ran out and the server acted for it (the
further decisions of that turn it played are told in the log)."""
QUIET = ("MoveMade", "ClockSettled", "Finished")
"""Platform lines the rule events (or the result) already say in words of the game."""


def narrated_log(
    queries: Any,
    game_id: str,
    player_id: str | None,
    after: int = 0,
    seat: int | None = None,
    window: slice | None = None,
) -> dict[str, Any]:
    """The log of ``game_id`` as ``player_id`` (reading as ``seat``) may read it: the steps with an
    event after version ``after`` (of those, the ``window`` of them a page shows), the status line
    and, once the game has ended, its result. Only the events of the steps told are read."""
    game: Game = queries.games.load(game_id)
    viewer = queries.games.viewer(game, player_id, seat)
    names = names_in(game.game, game.variant, game.options, game.seats, game.planned_seats, game.status, player_id,
                     game.state)  # fmt: skip
    ruleset = find_game(game.game)
    audience = Audience(names, game.variant, _told_config(game))
    words = PlatformWords(
        ruleset.narrator, audience, game.time_control, seat_holder(game.seats, player_id, names, ruleset.bot_title)
    )
    found = bounds(queries.games, str(game.id), game.version)
    wanted = [i for i, until in enumerate(found.until) if until > after][window or slice(None)]
    causes = [i for i, kind in enumerate(found.kinds) if kind in CAUSES]
    ended = has_ended(game.status)
    last_cause = causes[-1] if ended and causes else None
    steps = _stored_steps(queries.games, str(game.id), found, wanted, game.version)
    numbers = found.numbers
    out = []
    for i in wanted:
        told = [redact_stored_event(ruleset, e, viewer) for e in steps[i]]
        out.append(_step(numbers[i], told, after, words, ruleset, audience))
    result = None
    if ended:
        ended_by = None
        if last_cause is not None and game.status == "finished":
            if last_cause not in steps:
                steps.update(_stored_steps(queries.games, str(game.id), found, [last_cause], game.version))
            cause = redact_stored_event(ruleset, steps[last_cause][0], viewer)
            ended_by = (cause["type"], cause["data"])
        result = words.result(game.outcome or {}, ended_by)
    return {
        "version": game.version,
        "status": game.status,
        "seats": names.to_json(),
        "status_line": status_line(
            game.status, list(game.awaiting), names, len(game.seats), game.planned_seats, result
        ),
        "result": result,
        "steps": out,
    }


def _stored_steps(games: Any, gid: str, found: Bounds, indices: Sequence[int], version: int) -> dict[int, list[Any]]:
    """The stored events of the steps at ``indices`` (a run of them), by index."""
    if not indices:
        return {}
    lo, hi = min(indices), max(indices)
    stored = games.stored_events(gid, after=found.first[lo] - 1, upto=min(found.until[hi], version))
    return dict(zip(range(lo, hi + 1), grouped(stored), strict=True))


def _step(
    number: int, events: list[dict[str, Any]], after: int, words: PlatformWords, ruleset: Any, audience: Audience
) -> dict[str, Any]:
    first = events[0]
    data = first["data"]
    lines = []
    for e in events:
        if e["version"] <= after:
            continue
        if e["source"] == "rules":
            text = ruleset.narrator.event(e["type"], e["data"], audience)
            turn = ruleset.narrator.turn(e["type"], e["data"], audience)
            quiet = e["type"] in ruleset.narrator.quiet
        else:
            text, turn, quiet = words.event(e["type"], e["data"]), None, e["type"] in QUIET
        lines.append({"version": e["version"], "text": text, "turn": turn, "quiet": quiet,
                      "notice": e["type"] in NOTICES})  # fmt: skip
    seat = data.get("seat") if first["type"] in (*CAUSES, "SeatTaken") else None
    return {
        "step": number,
        "version": first["version"],
        "until": events[-1]["version"],
        "at": first["at"],
        "continued": first["version"] <= after,
        "kind": KINDS.get(first["type"], "system"),
        "seat": seat,
        "title": words.decision(first["type"], data),
        "move": data.get("move") if first["type"] in CAUSES else None,
        "lines": lines,
    }


def _told_config(game: Game) -> GameConfig | None:
    """The configuration the log's sentences may use (``Audience.config``): None before the start,
    or when today's code no longer accepts the game's stored options, whose log is then told
    without it rather than not at all."""
    if game.state is None:
        return None
    try:
        config: GameConfig = game.config()
    except ConfigError:
        return None
    return config


def status_line(
    status: str, awaiting: Sequence[int], names: Names, seats: int, planned: int, result: str | None
) -> str:
    """Whose turn it is, in words, for the viewer: never "waiting" while the viewer is awaited."""
    if status == "open":
        return f"Waiting for players: {seats} of {planned} seats taken."
    if status == "scheduled":
        return f"Waiting for the start: {seats} of {planned} seats taken."
    if status != "active":
        return result or "This game has ended."
    mine = [s for s in awaiting if names.you(s)]
    others = [s for s in awaiting if not names.you(s)]
    if mine:
        said = "Your turn" + (f" ({listing(names.colour(s) for s in mine)})" if len(names.mine) > 1 else "")
        return said + (f"; {listing(names.full(s) for s in others)} also to play." if others else ".")
    if others:
        return f"Waiting for {listing(names.full(s) for s in others)}."
    return "The game is moving on."


def decision_texts(
    ruleset: Any, moves: Iterable[Mapping[str, Any]], names: Names, variant: str, seat: int
) -> list[str]:
    """Each move's phrase for a button or a list ("set aside two reds"): the one place a page's
    legal moves get their words."""
    audience = Audience(names, variant)
    return [ruleset.narrator.move(m, audience, seat) for m in moves]


def decision_choices(
    ruleset: Any, moves: Iterable[Mapping[str, Any]], names: Names, variant: str, seat: int
) -> list[list[list[str]]]:
    """Each move as the choices that name it among its type's moves, each ``[question, answer]``
    in words (``Narrator.choices``), for a page's move controls; empty for a type the game gives
    none (its moves are then listed by their phrases)."""
    audience = Audience(names, variant)
    return [[[q, a] for q, a in ruleset.narrator.choices(m, audience, seat)] for m in moves]


def result_text(queries: Any, doc: Mapping[str, Any], names: Names) -> str | None:
    """How the game of ``doc`` ended, in words (None while it runs), told by what ended it."""
    if not has_ended(doc["status"]):
        return None
    ruleset = find_game(doc["game"])
    words = PlatformWords(ruleset.narrator, Audience(names, doc["variant"]), doc["time_control"])
    ended_by = None
    last = queries.games.last_decision(doc["id"], doc["version"]) if doc["status"] == "finished" else None
    if last is not None:
        ended_by = (type(last).__name__, {"seat": last.seat, "applied": getattr(last, "applied", None)})
    return words.result(doc["outcome"] or {}, ended_by)
