"""marshmallow schemas of people's accounts (players, passwords, recovery codes, names, tokens,
webhooks, vacations, the inbox) and of invitations (``api.players``, ``api.sessions``,
``api.invitations``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schema_fields import NEW_PASSWORD, GameSlug, VariantName, day_ahead, strict_int
from services.accounts.account_feed import TYPES as FEED_TYPES
from services.accounts.credentials import MAX_PASSWORD, MIN_PASSWORD, RECOVERY_CODES
from services.accounts.names import MAX_LENGTH
from services.accounts.scopes import SCOPES
from services.accounts.webhook_subscriptions import DEFAULT_EVENTS
from services.common import date_rules
from services.play.invitations import DECLINE_REASONS, STATUSES


class PlayerCreate(Schema):
    name = fields.String(
        required=True,
        validate=validate.Length(1, 80),
        metadata={
            "description": "A display name, unique as a person reads it: one that differs from another account's "
            "only in case or in letters that look alike is refused (409 name_taken). At most 40 characters once "
            "spaces at the ends are removed."
        },
    )
    kind = fields.String(load_default="human", validate=validate.OneOf(("human", "bot")))
    password = fields.String(
        validate=NEW_PASSWORD,
        load_only=True,
        metadata={
            "description": "Optional: a password to sign in with by name (POST /sessions), 8 to 256 characters; "
            "the answer then holds recovery codes."
        },
    )


class Player(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    created_at = fields.String()
    webhook_url = fields.String(allow_none=True)


class PlayerWithToken(Player):
    token = fields.String(required=True, metadata={"description": "Shown once; only its hash is stored."})


class PlayerWithWebhookSecret(Player):
    webhook_events = fields.List(
        fields.String(), metadata={"description": "The event types the webhook receives ([] without a URL)."}
    )
    webhook_secret = fields.String(
        metadata={
            "description": (
                "Shown only in this response, and only when a URL is set: the key of the HMAC-SHA256 in each "
                "reminder's X-Dragonhall-Signature header. Every PUT with a URL issues a new one; the old one "
                "stops verifying."
            )
        }
    )


class VacationRequest(Schema):
    start = fields.Date(
        required=True,
        validate=day_ahead,
        metadata={"description": f"First vacation day (UTC), YYYY-MM-DD: {date_rules.DAY}."},
    )
    days = strict_int(required=True, validate=validate.Range(1, 366))


class Vacation(Schema):
    days = fields.List(fields.String())
    allowance = fields.Raw()


class InboxItem(Schema):
    id = fields.String()
    kind = fields.String()
    game_id = fields.String()
    at = fields.String()
    type = fields.String()
    game = fields.String()
    variant = fields.String(allow_none=True)
    seat = fields.Integer()
    version = fields.Integer()
    deadline = fields.String(allow_none=True)
    message = fields.String()
    creator = fields.String()
    starts_at = fields.String(allow_none=True)


class AwaitingItem(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String()
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    deadline = fields.String(allow_none=True)
    remaining = fields.Float(allow_none=True)


class Inbox(Schema):
    awaiting = fields.List(fields.Nested(AwaitingItem), metadata={"description": "Soonest deadline first."})
    reminders = fields.List(fields.Nested(InboxItem))
    invitations = fields.List(fields.Nested(InboxItem))


class TokenCreate(Schema):
    name = fields.String(
        required=True, validate=validate.Length(1, 100), metadata={"description": "Your label for the token."}
    )
    scopes = fields.List(
        fields.String(validate=validate.OneOf(SCOPES)),
        required=True,
        validate=validate.Length(1, len(SCOPES)),
        metadata={
            "description": (
                "read: every authenticated read; play: every act in games (moves, seats, new games, "
                "disputes, vacations); bot: read and play; account: tokens and webhook."
            )
        },
    )


class Token(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    scopes = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)
    last_used_at = fields.String(
        required=True, allow_none=True, metadata={"description": "To the minute: written at most once a minute."}
    )


class TokenWithSecret(Token):
    token = fields.String(required=True, metadata={"description": "Shown once; only its hash is stored."})


class TokenList(Schema):
    tokens = fields.List(fields.Nested(Token), required=True)


class WebhookUpdate(Schema):
    url = fields.URL(
        required=True,
        allow_none=True,
        schemes={"http", "https"},
        require_tld=False,
        validate=validate.Length(1, 2000),
        metadata={"format": "uri", "description": "An http or https URL; null removes it."},
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(FEED_TYPES)),
        load_default=list(DEFAULT_EVENTS),
        validate=validate.Length(max=len(FEED_TYPES) * 4),
        metadata={
            "description": (
                "The account event types POSTed to the URL, as the account stream sends them; "
                'default ["reminder"]. Ignored when the URL is null.'
            )
        },
    )


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


class Invitations(Schema):
    invitations = fields.List(
        fields.Nested(Invitation), required=True, metadata={"description": "Each invitation named, in that order."}
    )


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
