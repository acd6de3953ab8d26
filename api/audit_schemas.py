"""marshmallow schemas of a game's audit, record, journal and disputes (``api.audit``), and of the
keys that sign records (``api.keys``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.game_schemas import EventOut
from api.schema_fields import LARGEST, strict_int


class Rule(Schema):
    id = fields.String()
    book = fields.String()
    section = fields.String()
    text = fields.String()


class Step(Schema):
    step = fields.Integer()
    version = fields.Integer()
    until = fields.Integer()
    at = fields.String()
    actor = fields.Raw()
    decision = fields.Raw()
    rules = fields.List(fields.Nested(Rule))
    events = fields.List(fields.Nested(EventOut))


class Steps(Schema):
    game_id = fields.String()
    status = fields.String()
    steps = fields.List(fields.Nested(Step))


class Audit(Steps):
    verified = fields.Boolean()
    verdict = fields.String()
    checks = fields.Raw()
    first_bad_step = fields.Raw(allow_none=True)
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)


class RecordEvent(EventOut):
    closes = fields.Boolean(
        metadata={
            "description": "On a rule event: whether it is the last of its decision, "
            "where turns start and end (absent on events stored before)."
        }
    )


class Record(Schema):
    format = fields.String(metadata={"description": "dragonhall-record/2"})
    header = fields.Raw()
    decisions = fields.List(fields.Raw())
    events = fields.List(fields.Nested(RecordEvent))
    audit = fields.Raw(metadata={"description": "The server's verification of the record at export."})
    signature = fields.Raw(
        metadata={
            "description": (
                "{algorithm: Ed25519, key_id, public_key (base64), fingerprint, manifest: {format, digest: sha256, "
                "header: {field: digest}, decisions: [digest], events: [digest], audit: digest}, value (base64)}: "
                "the server's signature of the canonical JSON of the manifest; see GET /api/v1/keys."
            )
        }
    )


class PublicKey(Schema):
    key_id = fields.String(metadata={"description": "The first 16 hex digits of the SHA-256 of the raw key."})
    algorithm = fields.String(metadata={"description": "Ed25519"})
    public_key = fields.String(metadata={"description": "The raw 32-byte public key, in base64."})
    fingerprint = fields.String(metadata={"description": "SHA256: and the unpadded base64 SHA-256 of the raw key."})
    use = fields.String(metadata={"description": "records: it signs game records."})


class Keys(Schema):
    keys = fields.List(fields.Nested(PublicKey))


_OWN_REFUSAL = "Shown to the seat that sent the command, and to everyone once the game has ended; null otherwise."


class JournalEntry(Schema):
    at = fields.String()
    player_id = fields.String()
    seat = fields.Integer(allow_none=True)
    version = fields.Integer(allow_none=True)
    command = fields.Raw(allow_none=True, metadata={"description": _OWN_REFUSAL})
    code = fields.String(allow_none=True, metadata={"description": _OWN_REFUSAL})
    message = fields.String(allow_none=True, metadata={"description": _OWN_REFUSAL})
    rule = fields.Nested(Rule, allow_none=True, metadata={"description": _OWN_REFUSAL})


class Journal(Schema):
    game_id = fields.String()
    entries = fields.List(fields.Nested(JournalEntry))


class DisputeRequest(Schema):
    version = strict_int(required=True, validate=validate.Range(1, LARGEST))
    claim = fields.String(required=True, validate=validate.Length(1, 2000))
    move = fields.Dict(
        keys=fields.String(),
        metadata={
            "description": "The move said to be legal or illegal. Any object: the answer judges one that is not a "
            "`Move` of the game (components/schemas/Move) as malformed, rather than refusing the dispute."
        },
    )
    seat = strict_int(validate=validate.Range(0, 63))


class DisputeResolution(Schema):
    verdict = fields.String(required=True, validate=validate.OneOf(("upheld", "rejected", "withdrawn")))
    note = fields.String(load_default="", validate=validate.Length(0, 2000))


class DisputeJudgement(Schema):
    evaluated = fields.Boolean(metadata={"description": "False when the dispute named no move."})
    legal = fields.Boolean(metadata={"description": "Whether the claimed move was legal for the seat at the version."})
    code = fields.String(metadata={"description": "Why it was refused (an error code of the rules)."})
    message = fields.String()
    rule = fields.Raw(metadata={"description": "The rule that refuses it."})
    events = fields.List(
        fields.Raw(),
        metadata={
            "description": "Once the game has ended only: the events the move would have caused, `{type, data}`, "
            "drawn from the game's own chance at that version (the move actually taken there causes the events "
            "recorded). Absent while the game runs."
        },
    )
    rules = fields.List(fields.Raw(), metadata={"description": "The rule of each of `events`."})


class DisputeAnswer(Schema):
    seat = fields.Integer(metadata={"description": "The seat the claim is judged for."})
    awaiting = fields.List(fields.Integer(), metadata={"description": "The seats awaited at the version."})
    legal_moves_total = fields.Integer(metadata={"description": "How many moves the seat had (GET .../legal-moves)."})
    move = fields.Nested(DisputeJudgement)
    verification = fields.Raw(
        metadata={"description": "The game's audit when the dispute was opened: `{verified, verdict, first_bad_step}`."}
    )
    actual = fields.List(
        fields.Raw(),
        metadata={
            "description": "What actually followed the version, for an auditor to set beside the claim: the next "
            "decision's event (`MoveMade`, `Resigned`, `TurnTimedOut`...) and the events it caused, in the form of "
            "GET /games/{id}/events, as the opener could read them there when opening the dispute (hidden "
            "information redacted for them while the game ran); empty when no decision had followed yet."
        },
    )
    sandbox_id = fields.String(
        allow_none=True, metadata={"description": "The sandbox game, once the game has ended (else null)."}
    )
    sandbox_chance = fields.String(
        allow_none=True,
        validate=validate.OneOf(("game", "own")),
        metadata={
            "description": "Which chance the sandbox draws: `game`, the ended game's own revealed seed on the "
            "streams its decisions drew from (replaying the recorded decisions reproduces the recorded events); "
            "`own`, a seed of its own (a sandbox forked before this rule, or of another sandbox: it never "
            "foretells a game's dice). Null without a sandbox."
        },
    )
    note = fields.String(metadata={"description": "While the game runs: what the answer leaves out, and why."})


class Dispute(Schema):
    id = fields.String()
    game_id = fields.String()
    version = fields.Integer()
    claim = fields.String()
    move = fields.Raw(allow_none=True)
    seat = fields.Integer(allow_none=True)
    opener = fields.String()
    opened_at = fields.String()
    answer = fields.Nested(
        DisputeAnswer,
        allow_none=True,
        metadata={"description": "Null for a reader other than the opener while the game runs."},
    )
    resolution = fields.Raw(allow_none=True)


class DisputeList(Schema):
    disputes = fields.List(fields.Nested(Dispute))
