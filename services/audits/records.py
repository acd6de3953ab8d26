"""Game records, step listings and audit trails, built from the stored events.

A *record* is one self-contained JSON document of a finished game (format
``dragonhall-record/2``): its header (game, variant, options, seats, clock,
creator, times, engine version, seed commitment and revealed seed, outcome),
every decision with its actor and time (``services.reads.steps``), every event with
the hash of the state it leads to, the server's own verification, and the
server's signature over all of it (``services.audits.record_signing``), made at export.
``dragonhall verify`` checks it offline (``services.audits.verification``).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from typing import Any, cast

import orjson

from domain.kernel import Viewer
from services.audits.record_signing import signer_for
from services.audits.verification import FORMAT_2, verify
from services.common.errors import NotAcceptingMoves
from services.play.aggregate import Game
from services.reads.redaction import redact_stored_event
from services.reads.steps import CAUSES, STEP_STARTS, actor, steps
from services.reads.steps import decisions as listed_decisions

RECORD_FORMAT = FORMAT_2

__all__ = ["CAUSES", "RECORD_FORMAT", "STEP_STARTS", "audit_trail", "decisions", "game_record", "header", "steps"]


def events_json(games: Any, game_id: str, viewer: Viewer) -> list[dict[str, Any]]:
    """The stored events as ``viewer`` sees them; for everyone, rule events also say whether
    they close their decision (those stored before the flag existed do not say)."""
    game = games.load(game_id)
    out = []
    for stored in games.stored_events(game_id):
        event = redact_stored_event(game.ruleset, stored, viewer)
        if viewer.omniscient and isinstance(stored, Game.RuleEvent) and "closes" in stored.__dict__:
            event["closes"] = stored.closes
        out.append(event)
    return out


def header(game: Game, seed: str | None) -> dict[str, Any]:
    return {
        "game_id": str(game.id),
        "game": game.game,
        "title": game.ruleset.title,
        "variant": game.variant,
        "options": game.options,
        "planned_seats": game.planned_seats,
        "seats": game.seats,
        "engine": game.engine,
        "rules_version": f"{game.game}/{game.engine}",
        "time_control": game.time_control,
        "creator": game.creator,
        "created_at": game.created_at,
        "starts_at": game.starts_at,
        "settings": game.settings,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "status": game.status,
        "outcome": game.outcome,
        "seed_commitment": game.seed_commitment,
        "seed": seed,
        "sandbox_of": game.sandbox_of,
    }


def game_record(games: Any, game_id: str) -> dict[str, Any]:
    """The record of a finished game, with its verification, signed with the server's key."""
    game = games.load(game_id)
    if not games.revealed(game):
        raise NotAcceptingMoves(
            f"game {game_id} is {game.status}; a record is exported once it has ended "
            "(a sandbox's, once the game it was forked from has ended too)"
        )
    events = events_json(games, game_id, Viewer.everyone())
    head = header(game, game.seed)
    audit = verify(head, events, bytes.fromhex(game.seed) if game.seed else None)
    record = {
        "format": RECORD_FORMAT,
        "header": head,
        "decisions": decisions(events, game),
        "events": events,
        "audit": {k: v for k, v in audit.items() if k != "steps"},
    }
    record = cast("dict[str, Any]", json.loads(json.dumps(record)))  # signed as a reader parses it
    record["signature"] = signer_for(games.seeds.secret_key).sign(record)
    return record


def decisions(events: list[dict[str, Any]], game: Game) -> list[dict[str, Any]]:
    """Each decision with its actor and time, and the versions of the events it caused."""
    return listed_decisions(events, game.ruleset, game.seats)


def audit_trail(games: Any, game_id: str, player_id: str | None) -> dict[str, Any]:
    """Per step: actor, decision, rules applied and events (redacted while the game runs), with
    the server's verification of every step. The seed is revealed only once the game has ended."""
    game = games.load(game_id)
    if not games.revealed(game):
        return _trail(games, game, player_id)
    key = (str(game.id), game.version)
    now = time.monotonic()
    with _REPORTS_LOCK:
        kept = _ENDED_TRAILS.get(key)
    if kept is not None and kept[0] > now:
        return kept[1]
    trail = _trail(games, game, player_id)
    with _REPORTS_LOCK:
        _ENDED_TRAILS[key] = (now + ENDED_TRAIL_SECONDS, trail)
        while len(_ENDED_TRAILS) > REPORTS_KEPT:
            _ENDED_TRAILS.popitem(last=False)
    return trail


ENDED_TRAIL_SECONDS = 10.0
"""An ended game's trail (the same for every reader: all is revealed) is read from the store and
verified again at most this often: a game's audit page read by many at once costs one reading of
its events (tens of milliseconds on a long game), and a change to the stored events is still found
within seconds."""
_ENDED_TRAILS: OrderedDict[tuple[str, int], tuple[float, dict[str, Any]]] = OrderedDict()


def _trail(games: Any, game: Game, player_id: str | None) -> dict[str, Any]:
    game_id = str(game.id)
    viewer = games.viewer(game, player_id)
    seed = games.seeds.of_game(game)
    full = events_json(games, game_id, Viewer.everyone())
    over = games.revealed(game)
    report = _verified(game, full, seed, over)
    shown = (
        full
        if viewer.omniscient
        else [redact_stored_event(game.ruleset, e, viewer) for e in games.stored_events(game_id)]
    )
    trail = steps(shown, game.ruleset)
    for s in trail:
        s["actor"] = actor(s["events"][0], game.seats)
    return {
        "game_id": str(game.id),
        "status": game.status,
        "verified": report["ok"],
        "verdict": report["verdict"],
        "checks": report["checks"],
        "first_bad_step": report["first_bad_step"],
        "seed_commitment": game.seed_commitment,
        "seed": game.seed,
        "steps": trail,
    }


_REPORTS: OrderedDict[tuple[str, int, bool, bytes], dict[str, Any]] = OrderedDict()
_REPORTS_LOCK = threading.Lock()
REPORTS_KEPT = 64
"""Verification reports kept by game, version, whether it has ended and the digest of the stored
events verified: a report says nothing of any viewer, so re-deriving every step (a second or more
on a long game) is done once per version and content, not once per read; events changed in the
store since (a tampering the audit exists to find) have another digest and are verified anew."""


def _verified(game: Game, full: list[dict[str, Any]], seed: bytes, over: bool) -> dict[str, Any]:
    digest = hashlib.sha256(orjson.dumps(full, option=orjson.OPT_SORT_KEYS) + seed).digest()
    key = (str(game.id), game.version, over, digest)
    with _REPORTS_LOCK:
        kept = _REPORTS.get(key)
    if kept is not None:
        return kept
    report = verify(header(game, seed.hex()), full, seed) if over else _running_report(game, full, seed)
    with _REPORTS_LOCK:
        _REPORTS[key] = report
        while len(_REPORTS) > REPORTS_KEPT:
            _REPORTS.popitem(last=False)
    return report


def _running_report(game: Game, full: list[dict[str, Any]], seed: bytes) -> dict[str, Any]:
    """Verifies a running game up to now: every step so far, without revealing anything."""
    report = verify(header(game, seed.hex()), full, seed)
    checks = {"decisions_reproduced": None, "state_hashes_match": None, "seed_matches_commitment": None}
    bad = report["first_bad_step"] or {}
    if report["ok"] or bad.get("summary") == "end":
        return {
            "ok": True,
            "verdict": "every decision so far re-derives the recorded events",
            "first_bad_step": None,
            "checks": checks,
        }
    # Say where, but not what: the details could quote a secret move while the game runs.
    return {
        "ok": False,
        "verdict": f"REJECTED at version {bad.get('version')}",
        "first_bad_step": {"version": bad.get("version"), "ok": False},
        "checks": checks,
    }
