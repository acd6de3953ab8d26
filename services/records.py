"""Game records, step listings and audit trails, built from the stored events.

A *record* is one self-contained JSON document of a finished game: its header
(game, variant, options, seats, engine version, seed commitment and revealed
seed), every decision with its actor and time, and every event with the hash of
the state it leads to. ``dragonhall verify`` checks it offline.

A *step* is one decision and what it caused: the platform event that says who did
what (a move, a resignation, a timeout...) followed by the rule events it
produced, each citing its rule.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from services.aggregate import Game
from services.errors import NotAcceptingMoves
from services.redaction import redact_stored_event
from services.verification import CAUSES, verify

RECORD_FORMAT = "dragonhall-record/1"
STEP_STARTS = ("Created", "SeatTaken", "Started", "Forked", *CAUSES, "Abandoned")


def events_json(games: Any, game_id: str, viewer: Viewer) -> list[dict[str, Any]]:
    game = games.load(game_id)
    return [redact_stored_event(game.ruleset, e, viewer) for e in games.stored_events(game_id)]


def header(game: Game, seed: str | None) -> dict[str, Any]:
    return {
        "game_id": str(game.id), "game": game.game, "title": game.ruleset.title, "variant": game.variant,
        "options": game.options, "planned_seats": game.planned_seats, "seats": game.seats,
        "engine": game.engine, "rules_version": f"{game.game}/{game.engine}",
        "time_control": game.time_control, "creator": game.creator, "created_at": game.created_at,
        "started_at": game.started_at, "finished_at": game.finished_at, "status": game.status,
        "outcome": game.outcome, "seed_commitment": game.seed_commitment, "seed": seed,
        "sandbox_of": game.sandbox_of,
    }


def game_record(games: Any, game_id: str) -> dict[str, Any]:
    """The record of a finished game, with its verification."""
    game = games.load(game_id)
    if not games.revealed(game):
        raise NotAcceptingMoves(f"game {game_id} is {game.status}; a record is exported once it has ended "
                                "(a sandbox's, once the game it was forked from has ended too)")
    events = events_json(games, game_id, Viewer.everyone())
    head = header(game, game.seed)
    audit = verify(head, events, bytes.fromhex(game.seed) if game.seed else None)
    return {"format": RECORD_FORMAT, "header": head, "decisions": decisions(events, game),
            "events": events, "audit": {k: v for k, v in audit.items() if k != "steps"}}


def steps(events: list[dict[str, Any]], ruleset: Any) -> list[dict[str, Any]]:
    """The events grouped by the decision that caused them, each rule event with its citation."""
    out: list[dict[str, Any]] = []
    for e in events:
        if not out or e["type"] in STEP_STARTS:
            out.append({"step": len(out) + 1, "version": e["version"], "until": e["version"], "at": e["at"],
                        "decision": {"type": e["type"], **_decision_fields(e)}, "rules": [], "events": []})
        step = out[-1]
        step["until"] = e["version"]
        step["events"].append(e)
        if e["source"] == "rules":
            cls = ruleset.events.by_type.get(e["type"])
            if cls is not None and cls.RULE.to_json() not in step["rules"]:
                step["rules"].append(cls.RULE.to_json())
    return out


def decisions(events: list[dict[str, Any]], game: Game) -> list[dict[str, Any]]:
    """Each decision with its actor and time, and the versions of the events it caused."""
    out = []
    for s in steps(events, game.ruleset):
        out.append({"step": s["step"], "version": s["version"], "until": s["until"], "at": s["at"],
                    "actor": _actor(s["events"][0], game), "decision": s["decision"],
                    "rules": [r["id"] for r in s["rules"]]})
    return out


def audit_trail(games: Any, game_id: str, player_id: str | None) -> dict[str, Any]:
    """Per step: actor, decision, rules applied and events (redacted while the game runs), with
    the server's verification of every step. The seed is revealed only once the game has ended."""
    game = games.load(game_id)
    viewer = games.viewer(game, player_id)
    seed = games.seed(game.id)
    full = events_json(games, game_id, Viewer.everyone())
    over = games.revealed(game)
    report = verify(header(game, seed.hex()), full, seed) if over else _running_report(game, full, seed)
    shown = full if viewer.omniscient else [redact_stored_event(game.ruleset, e, viewer)
                                            for e in games.stored_events(game_id)]
    trail = steps(shown, game.ruleset)
    for s in trail:
        s["actor"] = _actor(s["events"][0], game)
    return {"game_id": str(game.id), "status": game.status, "verified": report["ok"],
            "verdict": report["verdict"], "checks": report["checks"], "first_bad_step": report["first_bad_step"],
            "seed_commitment": game.seed_commitment, "seed": game.seed, "steps": trail}


def _running_report(game: Game, full: list[dict[str, Any]], seed: bytes) -> dict[str, Any]:
    """Verifies a running game up to now: every step so far, without revealing anything."""
    report = verify(header(game, seed.hex()), full, seed)
    checks = {"decisions_reproduced": None, "state_hashes_match": None, "seed_matches_commitment": None}
    bad = report["first_bad_step"] or {}
    if report["ok"] or bad.get("summary") == "end":
        return {"ok": True, "verdict": "every decision so far re-derives the recorded events",
                "first_bad_step": None, "checks": checks}
    # Say where, but not what: the details could quote a secret move while the game runs.
    return {"ok": False, "verdict": f"REJECTED at version {bad.get('version')}",
            "first_bad_step": {"version": bad.get("version"), "ok": False}, "checks": checks}


def _actor(event: dict[str, Any], game: Game) -> dict[str, Any]:
    data = event["data"]
    kind = event["type"]
    if kind == "Created":
        return {"kind": "creator", "player_id": data.get("creator")}
    if kind in (*CAUSES, "SeatTaken") and "seat" in data:
        seat = data["seat"]
        info = next((s for s in game.seats if s["seat"] == seat), None)
        who = data.get("player_id") or (info or {}).get("player_id")
        return {"kind": "timeout" if kind == "TurnTimedOut" else "seat", "seat": seat, "player_id": who}
    return {"kind": "system"}


def _decision_fields(event: dict[str, Any]) -> dict[str, Any]:
    data = event["data"]
    keys = {"MoveMade": ("seat", "move", "command_id"), "Resigned": ("seat",),
            "TurnTimedOut": ("seat", "deadline", "policy", "applied", "move"), "Joined": ("seat",),
            "SeatTaken": ("seat", "bot")}.get(event["type"], ())
    return {k: data.get(k) for k in keys}
