"""Replays and audits: step listings, records, the audit trail, the journal of refusals, disputes."""

from __future__ import annotations

from typing import Any

from flask import current_app

from api import schemas
from api.auth import optional_player, required_player
from api.parser import blueprint
from services.errors import NotAPlayer
from services.records import audit_trail, game_record

blp = blueprint("audit", "Replay, verify and dispute what happened in a game.")


def _platform() -> Any:
    return current_app.extensions["dragonhall"]


def _pid() -> str | None:
    player = optional_player()
    return player.id if player else None


@blp.route("/games/<game_id>/steps", methods=["GET"])
@blp.contract(auth="optional", errors=[404])
@blp.response(200, schemas.Steps())
def steps(game_id: str) -> dict[str, Any]:
    """The game decision by decision: each step's actor, decision, rules applied and events
    (redacted as the caller saw them while the game runs)."""
    trail = audit_trail(_platform().games, game_id, _pid())
    return {"game_id": trail["game_id"], "status": trail["status"], "steps": trail["steps"]}


@blp.route("/games/<game_id>/record", methods=["GET"])
@blp.contract(auth="optional", errors=[404, 409])
@blp.response(200, schemas.Record())
def record(game_id: str) -> dict[str, Any]:
    """A finished game as one self-contained document, checkable offline with `dragonhall verify`."""
    optional_player()
    return game_record(_platform().games, game_id)


@blp.route("/games/<game_id>/audit", methods=["GET"])
@blp.contract(auth="optional", errors=[404])
@blp.response(200, schemas.Audit())
def audit(game_id: str) -> dict[str, Any]:
    """The audit trail with the server's verification of every step: decisions re-derive the
    recorded events, state hashes match, and (once the game has ended) the seed matches its commitment."""
    return audit_trail(_platform().games, game_id, _pid())


@blp.route("/games/<game_id>/journal", methods=["GET"])
@blp.contract(auth="optional", errors=[403, 404])
@blp.response(200, schemas.Journal())
def journal(game_id: str) -> dict[str, Any]:
    """Refused commands: who, when, what and which rule refused it. The game's seats may read
    it while the game runs; everyone once it has ended."""
    p = _platform()
    game = p.games.load(game_id)
    pid = _pid()
    viewer = game.viewer_for(pid)
    if not viewer.omniscient and not (pid and game.seats_of(pid)):
        raise NotAPlayer("the journal of a running game is for its seats")
    return {"game_id": str(game.id), "entries": p.journal.entries(str(game.id), viewer, pid, game.ruleset)}


@blp.route("/games/<game_id>/disputes", methods=["POST"])
@blp.contract(auth="required", errors=[403, 404])
@blp.arguments(schemas.DisputeRequest())
@blp.response(201, schemas.Dispute())
def open_dispute(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Dispute version N: the server answers from the rules and forks a sandbox from N."""
    player = required_player()
    return _platform().disputes.open(game_id, player.id, body["version"], body["claim"], body.get("move"),
                                     body.get("seat"))


@blp.route("/games/<game_id>/disputes", methods=["GET"])
@blp.contract(auth="optional", errors=[404])
@blp.response(200, schemas.DisputeList())
def list_disputes(game_id: str) -> dict[str, Any]:
    """The game's disputes (answers shown to their openers while the game runs)."""
    return {"disputes": _platform().disputes.of_game(str(_platform().games.load(game_id).id), _pid())}


@blp.route("/disputes/<dispute_id>", methods=["GET"])
@blp.contract(auth="optional", errors=[404])
@blp.response(200, schemas.Dispute())
def get_dispute(dispute_id: str) -> dict[str, Any]:
    """One dispute, with its answer and resolution."""
    return _platform().disputes.document(dispute_id, _pid())


@blp.route("/disputes/<dispute_id>/resolve", methods=["POST"])
@blp.contract(auth="required", errors=[403, 404])
@blp.arguments(schemas.DisputeResolution())
@blp.response(200, schemas.Dispute())
def resolve_dispute(body: dict[str, Any], dispute_id: str) -> dict[str, Any]:
    """Resolve a dispute: an event in the dispute, never an edit of the game's history."""
    player = required_player()
    return _platform().disputes.resolve(dispute_id, player.id, body["verdict"], body.get("note", ""))
