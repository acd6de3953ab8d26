"""marshmallow schemas of people's accounts (passwords, recovery codes, names) and of
invitations (``api.sessions``, ``api.invitations``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas import NEW_PASSWORD, GameSlug, Player, PlayerWithToken, VariantName
from services.credentials import MAX_PASSWORD, MIN_PASSWORD, RECOVERY_CODES
from services.invitations import DECLINE_REASONS, STATUSES
from services.names import MAX_LENGTH

_PASSWORD = validate.Length(1, MAX_PASSWORD)
"""A password to sign in with is bounded in size only: a wrong one is a 401, whatever its length."""


class PlayerWithCodes(PlayerWithToken):
    recovery_codes = fields.List(
        fields.String(),
        metadata={
            "description": f"With a password only: {RECOVERY_CODES} codes, shown only in this response, each of "
            "which signs in once (POST /sessions/recovery) when the password is lost."
        },
    )


class SignIn(Schema):
    name = fields.String(required=True, validate=validate.Length(1, MAX_LENGTH))
    password = fields.String(required=True, validate=_PASSWORD, load_only=True)


class Recovery(Schema):
    name = fields.String(required=True, validate=validate.Length(1, MAX_LENGTH))
    code = fields.String(
        required=True,
        validate=validate.Length(1, 64),
        load_only=True,
        metadata={"description": "One of the account's recovery codes; case, spaces and dashes are ignored."},
    )


class Session(Player):
    token = fields.String(
        required=True,
        metadata={
            "description": "A new token of the account (every scope), shown once; DELETE /me/tokens/{id} "
            "or signing out of the pages revokes it."
        },
    )
    recovery_codes_left = fields.Integer(metadata={"description": "After a recovery code: the unused codes left."})


class PasswordChange(Schema):
    password = fields.String(
        required=True,
        validate=NEW_PASSWORD,
        load_only=True,
        metadata={"description": f"The new password: {MIN_PASSWORD} to {MAX_PASSWORD} characters."},
    )


class RecoveryCodes(Schema):
    recovery_codes = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Shown only in this response; the account's older codes stop working."},
    )


class NameSearchArgs(Schema):
    q = fields.String(
        required=True,
        validate=validate.Length(1, MAX_LENGTH),
        metadata={"description": "Part of a name: names holding it, case ignored, those starting with it first."},
    )
    limit = fields.Integer(load_default=10, validate=validate.Range(1, 20))


class Someone(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "human or bot."})


class PlayerList(Schema):
    players = fields.List(fields.Nested(Someone), required=True)


class Invitation(Schema):
    invitation_id = fields.String(required=True)
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "The game's slug (GET /catalog)."})
    variant = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "The variant's options as the game was opened."})
    seats = fields.Integer(required=True, metadata={"description": "Seats at the table."})
    time_control = fields.Dict(required=True, metadata={"description": "The clock, as POST /games takes it."})
    rated = fields.Boolean(required=True)
    starts_at = fields.String(allow_none=True, metadata={"description": "A scheduled start, if any."})
    inviter = fields.Nested(Someone, required=True)
    invitee = fields.Nested(Someone, required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "pending; accepted; declined; closed (the table has no seat for the invitee any more).",
            "enum": list(STATUSES),
        },
    )
    reason = fields.String(
        allow_none=True, metadata={"description": "Why it was declined.", "enum": [*DECLINE_REASONS, None]}
    )
    reason_text = fields.String(allow_none=True, metadata={"description": "The reason, in words."})
    created_at = fields.String(required=True)
    answered_at = fields.String(allow_none=True)


class InvitationList(Schema):
    received = fields.List(
        fields.Nested(Invitation), required=True, metadata={"description": "Pending first (oldest first)."}
    )
    sent = fields.List(fields.Nested(Invitation), required=True)


class Decline(Schema):
    reason = fields.String(
        load_default="generic",
        validate=validate.OneOf(list(DECLINE_REASONS)),
        metadata={
            "description": "Why: " + "; ".join(f"`{k}`: {v}" for k, v in DECLINE_REASONS.items()),
        },
    )


class PlayNow(Schema):
    game = GameSlug(required=True, metadata={"description": "A game slug from GET /api/v1/catalog."})
    variant = VariantName(
        load_default=None, allow_none=True, metadata={"description": "Only tables of this variant; any when null."}
    )
