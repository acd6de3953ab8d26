"""Replays and audits: step listings, records, the audit trail, the journal of refusals, disputes."""

from __future__ import annotations

from typing import Any

from api import audit_schemas, game_schemas
from api.auth import caller_id, optional_player, required_player
from api.context import current_platform
from api.parser import blueprint
from services.audits.records import audit_trail, game_record

blp = blueprint("audit", "Replay, verify and dispute what happened in a game.")


@blp.route("/games/<game_id>/steps", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, audit_schemas.Steps())
def steps(game_id: str) -> dict[str, Any]:
    """The game decision by decision: each step's actor, decision, rules applied and events
    (redacted as the caller saw them while the game runs)."""
    trail = audit_trail(current_platform().games, game_id, caller_id())
    return {"game_id": trail["game_id"], "status": trail["status"], "steps": trail["steps"]}


@blp.route("/games/<game_id>/record", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404, 409])
@blp.response(200, audit_schemas.Record())
def record(game_id: str) -> dict[str, Any]:
    """A finished game as one self-contained document, checkable offline with `dragonhall verify`."""
    optional_player()
    return game_record(current_platform().games, game_id)


@blp.route("/games/<game_id>/audit", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, audit_schemas.Audit())
def audit(game_id: str) -> dict[str, Any]:
    """The audit trail with the server's verification of every step: decisions re-derive the
    recorded events, state hashes match, and (once the game has ended) the seed matches its commitment."""
    return audit_trail(current_platform().games, game_id, caller_id())


@blp.route("/games/<game_id>/journal", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[403, 404])
@blp.response(200, audit_schemas.Journal())
def journal(game_id: str) -> dict[str, Any]:
    """Refused commands: who, when, what and which rule refused it. While the game runs only its
    seats read it, each its own refusals whole and of the others' only when and at which version
    they happened; once the game has ended, everyone reads all of it."""
    return current_platform().queries.journal_of(game_id, caller_id())


@blp.route("/games/<game_id>/disputes", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404])
@blp.arguments(audit_schemas.DisputeRequest())
@blp.response(201, audit_schemas.Dispute())
def open_dispute(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Dispute version N. While the game runs: whether the claimed move is legal for your seat,
    citing the rule, and nothing it would cause. Once the game has ended: what it would have caused,
    and a sandbox forked from N."""
    player = required_player()
    return current_platform().disputes.open(
        game_id, player.id, body["version"], body["claim"], body.get("move"), body.get("seat")
    )


@blp.route("/games/<game_id>/disputes", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, audit_schemas.DisputeList())
def list_disputes(game_id: str) -> dict[str, Any]:
    """The game's disputes (answers shown to their openers while the game runs)."""
    return {"disputes": current_platform().disputes.of_game(game_id, caller_id())}


@blp.route("/disputes/<dispute_id>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, audit_schemas.Dispute())
def get_dispute(dispute_id: str) -> dict[str, Any]:
    """One dispute, with its answer and resolution."""
    return current_platform().disputes.document(dispute_id, caller_id())


@blp.route("/disputes/<dispute_id>/legal-moves", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[403, 404])
@blp.arguments(game_schemas.PageArgs(), location="query")
@blp.response(200, game_schemas.LegalMoves())
def dispute_legal_moves(args: dict[str, Any], dispute_id: str) -> dict[str, Any]:
    """The disputed seat's legal moves at the disputed version, a page at a time (for the opener
    while the game runs, for everyone once it has ended)."""
    return current_platform().disputes.legal_moves(dispute_id, caller_id(), args["offset"], args["limit"])


@blp.route("/disputes/<dispute_id>/sandbox", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, audit_schemas.Dispute())
def fork_sandbox(dispute_id: str) -> dict[str, Any]:
    """The sandbox of a dispute opened while its game ran: forked from the disputed version once
    the game has ended, where the claim can be played out (409 while the game runs)."""
    return current_platform().disputes.fork(dispute_id, required_player().id)


@blp.route("/disputes/<dispute_id>/resolve", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(audit_schemas.DisputeResolution())
@blp.response(200, audit_schemas.Dispute())
def resolve_dispute(body: dict[str, Any], dispute_id: str) -> dict[str, Any]:
    """Resolve a dispute: an event in the dispute, never an edit of the game's history. An arbiter
    (an account the operator names, or the game's creator when it holds no seat) upholds or rejects;
    the opener may withdraw."""
    player = required_player()
    return current_platform().disputes.resolve(dispute_id, player.id, body["verdict"], body.get("note", ""))
