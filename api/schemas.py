"""marshmallow schemas of every request and response of the HTTP API.

Requests reject unknown fields (marshmallow's default), so a misspelt field is a
400 that names it rather than a silently ignored option.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.kernel import ConfigError, all_games, find_game
from services import clock, date_rules
from services.account_feed import TYPES as FEED_TYPES
from services.credentials import MAX_PASSWORD, MIN_PASSWORD
from services.scopes import SCOPES
from services.webhook_subscriptions import DEFAULT_EVENTS

DAY = 86_400
LARGEST = 2**31 - 1
"""The bound of every unbounded integer argument: the stores' integers end at 2**63 - 1."""
MAX_SECONDS = 14 * DAY
MAX_INVITES = 100
"""How many players a new game may invite (each invitation is an inbox row)."""
MAX_PLAYER_ID = 64
"""The longest player id an invitation may name (ids are 36-character UUIDs)."""
MAX_NAME = 64
"""The longest game slug, variant, bot or option name a request may carry (the catalog's are far shorter)."""
MAX_OPTIONS = 32
"""The most options a new game may set (a variant has a handful)."""
MAX_LEGAL_MOVES_PAGE = 1000
"""The most legal moves one page lists; ``offset`` pages through the rest."""
POLICIES = ("auto", "forfeit", "skip")
STATUSES = ("open", "scheduled", "active", "finished", "abandoned")


NEW_PASSWORD = validate.Length(
    MIN_PASSWORD, MAX_PASSWORD, error=f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
)
"""A password being chosen: bounded in the schema, so the OpenAPI document says what is accepted
(a password to sign in with is only bounded in size: a wrong one is a 401, whatever its length)."""


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def moment_ahead(value: datetime) -> None:
    """The rule of every moment a request carries (``services.date_rules.MOMENT``)."""
    error = date_rules.moment_error(value, clock.now())
    if error is not None:
        raise ValidationError(error)


def day_ahead(value: date) -> None:
    """The rule of every day a request carries (``services.date_rules.DAY``)."""
    error = date_rules.day_error(value, clock.now().date())
    if error is not None:
        raise ValidationError(error)


def ahead(description: str, **kw: Any) -> fields.AwareDateTime:
    """A moment of a request: in the future, and at most ``date_rules.HORIZON`` ahead."""
    return fields.AwareDateTime(
        validate=moment_ahead, metadata={"description": f"{description} A date-time {date_rules.MOMENT}."}, **kw
    )


class Selected(fields.Nested):
    """A nested response schema over values that the service already writes as JSON
    types (events, legal moves): the dump keeps the schema's fields and nothing else,
    as ``Nested`` does, but takes each value as it is instead of serialising it field
    by field. The OpenAPI document describes it as the nested schema.

    A move's answer holds a handful of events and the mover's next legal moves, and
    dumping them field by field took about a tenth of the request's CPU time. Only for
    values whose types already match the schema: ``tests/unit/api`` checks that the
    two dumps agree on every event of whole games."""

    # marshmallow's Nested names the first parameter nested_obj and its base Field names it value:
    # no override can match both.
    def _serialize(self, nested_obj: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if nested_obj is None:
            return None
        keys = self._keys
        if self.many:
            return [{out: item[name] for name, out in keys if name in item} for item in nested_obj]
        return {out: nested_obj[name] for name, out in keys if name in nested_obj}

    @cached_property
    def _keys(self) -> list[tuple[str, str]]:
        """Each dumped field's attribute name and its name in the body."""
        return [(name, f.data_key or name) for name, f in self.schema.dump_fields.items()]


class MoveField(fields.Raw):
    """A move, ``{"type": ..., **fields}``: loaded as any JSON object (the game's ``parse_move``
    checks its shape, naming the field at fault), documented as the ``Move`` schema of
    ``api.move_docs`` (``move_property``), which every game's move schema is part of."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


class GameSlug(fields.String):
    """A registered game's slug, refused (400) otherwise, as the service would refuse it; the
    OpenAPI document lists the registered slugs as its enum (``catalog_enum``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        slug = super()._deserialize(value, attr, data, **kwargs)
        try:
            find_game(slug)
        except ConfigError as e:
            raise ValidationError(e.message) from None
        return slug


class BotName(fields.String):
    """A server bot's name, one of a registered game's bots (GET /api/v1/catalog); whether the game
    at hand has it is the service's to say. The OpenAPI document lists them as its enum."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        known = server_bots()
        if name not in known:
            raise ValidationError(f"unknown bot {name!r}; expected one of: {', '.join(known)}")
        return name


class VariantName(fields.String):
    """A variant's name, one of a registered game's variants (GET /api/v1/catalog); whether the
    game at hand has it is the service's to say. The OpenAPI document lists them as its enum."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        known = variant_names()
        if name not in known:
            raise ValidationError(f"unknown variant {name!r}; expected one of: {', '.join(known)}")
        return name


def variant_names() -> list[str]:
    """Every registered game's variants, by name."""
    return sorted({v.name for game in all_games() for v in game.variants})


def server_bots() -> list[str]:
    """Every registered game's bots, by name."""
    return sorted({bot for game in all_games() for bot in game.bots})


def catalog_enum(converter: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``GameSlug``, ``BotName`` or ``VariantName`` is documented
    with the enum of the games, bots or variants registered when the document is built (every
    process registers them first); null is one of them where the field allows it (OpenAPI 3.0.3:
    ``nullable`` does not add null to an enum)."""
    if isinstance(field, GameSlug):
        values: list[Any] = [g.slug for g in all_games()]
    elif isinstance(field, BotName):
        values = server_bots()
    elif isinstance(field, VariantName):
        values = variant_names()
    else:
        return {}
    return {"enum": [*values, None] if field.allow_none else values}


def move_property(converter: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``MoveField`` is documented as a reference to ``Move``
    (beside its description, if any, through ``allOf``, as OpenAPI 3.0 ignores a reference's siblings)."""
    if not isinstance(field, MoveField):
        return {}
    ref = {"$ref": "#/components/schemas/Move"}
    if not ret:
        return ref
    return {"allOf": [ref]}


# ------------------------------------------------------------------ players


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
    days = _int(required=True, validate=validate.Range(1, 366))


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


# ------------------------------------------------------------------ games


class TimeControl(Schema):
    """``none``; ``per_move`` with ``seconds``; or ``bank`` with ``initial``, ``increment`` and ``cap``."""

    kind = fields.String(required=True, validate=validate.OneOf(("none", "per_move", "bank")))
    seconds = _int(validate=validate.Range(1, MAX_SECONDS))
    initial = _int(validate=validate.Range(1, 60 * DAY))
    increment = _int(validate=validate.Range(0, MAX_SECONDS))
    cap = _int(validate=validate.Range(1, 60 * DAY))
    timeout_policy = fields.String(load_default="auto", validate=validate.OneOf(POLICIES))

    @validates_schema
    def _fields_of_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        kind = data.get("kind", "")  # required: without it, this check is skipped (a field error)
        wanted = {"none": set(), "per_move": {"seconds"}, "bank": {"initial", "increment", "cap"}}.get(kind, set())
        given = {k for k in ("seconds", "initial", "increment", "cap") if k in data}
        errors = {k: [f"required for kind {kind!r}"] for k in sorted(wanted - given)}
        errors.update({k: [f"not used by kind {kind!r}"] for k in sorted(given - wanted)})
        if kind == "bank" and not errors and data["cap"] < data["initial"]:
            errors["cap"] = ["the cap must be at least the initial bank"]
        if errors:
            raise ValidationError(errors)


def name_field(**kw: Any) -> fields.String:
    """A game slug, variant or bot name: 1 to ``MAX_NAME`` characters (the catalog judges it)."""
    return fields.String(validate=validate.Length(1, MAX_NAME), **kw)


def options_field(**kw: Any) -> fields.Dict:
    """A variant's options: at most ``MAX_OPTIONS``, each named by 1 to ``MAX_NAME`` characters."""
    return fields.Dict(
        keys=fields.String(validate=validate.Length(1, MAX_NAME)),
        validate=validate.Length(max=MAX_OPTIONS),
        load_default=None,
        allow_none=True,
        **kw,
    )


class GameCreate(Schema):
    game = GameSlug(required=True, metadata={"description": "A game slug from GET /api/v1/catalog."})
    variant = VariantName(load_default=None, allow_none=True)
    options = options_field()
    players = _int(required=True, validate=validate.Range(1, 64), metadata={"description": "Number of seats."})
    time_control = fields.Nested(TimeControl, load_default=None, allow_none=True)
    starts_at = ahead(
        "A scheduled start: the game starts then (empty seats filled as `fill` says); null opens it at once.",
        load_default=None,
        allow_none=True,
    )
    fill = fields.String(
        load_default="bot",
        validate=validate.OneOf(("bot", "cancel")),
        metadata={"description": "At a scheduled start, fill empty seats with bots or cancel."},
    )
    fill_bot = BotName(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The bot that fills empty seats at a scheduled start: one of the game's bots in GET "
            "/api/v1/catalog (its default bot when null)."
        },
    )
    rated = fields.Boolean(
        load_default=True,
        metadata={
            "description": "Whether the game counts for ratings (casual when false). A rated game is still "
            "unrated when it is a contest of fewer than two players, or ends before any decision: see docs/ratings.md."
        },
    )
    invite = fields.List(
        fields.String(validate=validate.Length(1, MAX_PLAYER_ID)),
        load_default=list,
        validate=validate.Length(max=MAX_INVITES),
        metadata={
            "description": f"Players or bot accounts to invite, by name (case and letters that look alike ignored) "
            f"or id, at most {MAX_INVITES}: each is sent an invitation to accept or decline (GET /me/invitations)."
        },
    )

    @validates_schema
    def _fill_bot_of_game(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A scheduled start seats ``fill_bot`` in every empty seat: an unknown one would leave
        them stuck. An unknown game is left to the service, which names the known ones."""
        bot = data.get("fill_bot")
        if bot is None:
            return
        try:
            bots = find_game(data.get("game", "")).bots
        except ConfigError:
            return
        if bot not in bots:
            raise ValidationError(
                f"unknown bot {bot!r} for {data['game']}; expected one of: {', '.join(sorted(bots))}",
                field_name="fill_bot",
            )


class SeatRequest(Schema):
    seat = _int(validate=validate.Range(0, 63))
    bot = BotName(metadata={"description": "A server bot of the game (GET /api/v1/catalog), to seat for its creator."})


class MoveRequest(Schema):
    move = MoveField(
        required=True,
        metadata={
            "description": "The move, in the shape of one of the game's move types (the game's `move_schema` in "
            "GET /api/v1/catalog)."
        },
    )
    expected_version = _int(validate=validate.Range(0, LARGEST))
    command_id = fields.String(validate=validate.Length(1, 128))
    seat = _int(validate=validate.Range(0, 63))
    include_legal_moves = fields.Boolean(
        load_default=False,
        metadata={"description": "Also answer with the caller's legal moves after this move (saves a request)."},
    )


class SeatArg(Schema):
    """A query argument: query strings carry text, so integers are parsed, not strict."""

    seat = fields.Integer(validate=validate.Range(0, 63))


class ResignRequest(Schema):
    seat = _int(validate=validate.Range(0, 63))


class ListArgs(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    game = name_field()
    player = fields.String(validate=validate.Length(1, MAX_PLAYER_ID))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))


class EventsArgs(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))
    limit = fields.Integer(load_default=100_000, validate=validate.Range(1, 100_000))
    wait = fields.Float(
        validate=validate.Range(0, 60),
        metadata={"description": "Long polling: answer as soon as an event after `after` exists, or after "
                  "this many seconds (at most 60) with none."},
    )  # fmt: skip


class GameStreamArgs(Schema):
    after = fields.Integer(
        validate=validate.Range(0, LARGEST),
        metadata={"description": "Resume after this version: no `game` line, the events after it."},
    )
    seat = fields.Integer(validate=validate.Range(0, 63))


class AccountStreamArgs(Schema):
    after = fields.Integer(
        validate=validate.Range(0, LARGEST),
        metadata={"description": "Resume after this cursor (the last account event received)."},
    )


class ReplayArgs(Schema):
    at = fields.Integer(required=True, validate=validate.Range(1, LARGEST))
    seat = fields.Integer(validate=validate.Range(0, 63))


class BoardArgs(SeatArg):
    at = fields.Integer(
        validate=validate.Range(1, LARGEST),
        metadata={
            "description": "The board as it stood at this version, as the caller saw it then (all of it once the "
            "game has ended), as GET /replay?at= shows it. The current board when absent."
        },
    )


# ------------------------------------------------------------------ responses


class Seat(Schema):
    seat = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    bot = fields.String(allow_none=True)


class GameSummary(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(Seat))
    planned_seats = fields.Integer()
    awaiting = fields.List(fields.Integer())
    created_at = fields.String()
    updated_at = fields.String()
    starts_at = fields.String(allow_none=True)
    outcome = fields.Raw(allow_none=True)


class GameList(Schema):
    games = fields.List(fields.Nested(GameSummary))


class GameDocument(GameSummary):
    options = fields.Raw()
    view = fields.Raw(allow_none=True, metadata={"description": "The board as the caller may see it."})
    creator = fields.String()
    time_control = fields.Raw()
    clocks = fields.Raw(allow_none=True)
    seed_commitment = fields.String(metadata={"description": "SHA-256 of the secret seed, revealed at the end."})
    sandbox = fields.Boolean()
    your_seats = fields.List(fields.Integer())
    current_version = fields.Integer()


class LegalMoves(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    total = fields.Integer(metadata={"description": "How many moves there are; page with offset and limit."})
    offset = fields.Integer()
    moves = fields.List(MoveField(), required=True)
    texts = fields.List(
        fields.String(),
        metadata={"description": 'With `words=true`: each move in words, in the order of `moves` ("roll again").'},
    )
    refs = fields.List(
        fields.List(fields.List(fields.String())),
        metadata={
            "description": "With `words=true`: for each move, the ways of making it by clicking the board: each "
            "a list of the `data-ref` names of the board picture's elements, in click order (none: not on the board)."
        },
    )
    poses = fields.List(
        fields.Dict(allow_none=True),
        metadata={
            "description": "With `words=true`: for each move, what the board draws while it is considered "
            "(`ghost` drawn at `at` turned `turn` degrees; a `path` and how it `ends`), or null."
        },
    )


class PageArgs(Schema):
    offset = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))
    limit = fields.Integer(
        load_default=MAX_LEGAL_MOVES_PAGE,
        validate=validate.Range(1, MAX_LEGAL_MOVES_PAGE),
        metadata={"description": f"At most {MAX_LEGAL_MOVES_PAGE} moves a page."},
    )


class LegalMovesArgs(SeatArg, PageArgs):
    words = fields.Boolean(
        load_default=False,
        metadata={"description": "Also give each move's phrase in words (`texts`), for a person's buttons."},
    )


class EventOut(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    source = fields.String(metadata={"description": "'platform' (who did what) or 'rules' (the game's facts)."})
    data = fields.Raw(
        required=True,
        metadata={
            "description": "The event's fields as the caller may see them. A `MoveMade` holds the `move`, a `Move` "
            "of the game (components/schemas/Move) in which a field hidden from the caller reads "
            '`{"hidden": true}` (or `{"hidden": N}` for N items).'
        },
    )
    at = fields.String(required=True)
    awaiting = fields.List(fields.Integer())
    state_hash = fields.String()
    engine = fields.String()


class MoveResult(Schema):
    version = fields.Integer(required=True)
    events = fields.List(Selected(EventOut), required=True)
    replayed = fields.Boolean()
    legal_moves = Selected(LegalMoves, allow_none=True)


class EventList(Schema):
    version = fields.Integer(required=True)
    events = fields.List(Selected(EventOut), required=True)


class Health(Schema):
    status = fields.String(required=True, metadata={"description": "ok, or degraded when any check fails."})
    checks = fields.List(
        fields.Dict(),
        metadata={
            "description": "Each check: name, status (ok or degraded), message, and its figures. "
            "`projections.set_aside` is degraded while the read models have set aside games they cannot apply: "
            "`count`, and `games` (at most 20), each with `game_id`, `since_version`, `events_waiting`, `error` "
            "and `set_at` (docs/operations.md, Games set aside)."
        },
    )
    store = fields.String()
    projections = fields.Raw()
    games = fields.List(fields.String())


class BotRung(Schema):
    bot = fields.String(required=True, metadata={"description": 'The bot\'s name in requests (`{"bot": NAME}`).'})
    level = fields.Integer(required=True, metadata={"description": "1 for the weakest."})
    title = fields.String(required=True, metadata={"description": "`Level N`, the name people read."})
    about = fields.String(required=True, metadata={"description": "How it plays, in a sentence."})


class CatalogGame(Schema):
    game = fields.String(required=True, metadata={"description": "The slug that names the game in requests."})
    title = fields.String(required=True)
    engine_version = fields.String(required=True)
    variants = fields.List(fields.Raw(), metadata={"description": "name, title, min_seats, max_seats, options."})
    bots = fields.List(fields.String())
    default_bot = fields.String()
    ladder = fields.List(
        fields.Nested(BotRung),
        metadata={
            "description": (
                "The server bots from the weakest up, as people choose them: `Level 1`, `Level 2`... Their "
                "measured ratings are in docs/bots.md."
            )
        },
    )
    moves = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={"description": "Each move type's fields and their types, for reading; `move_schema` is exact."},
    )
    move_schema = fields.Dict(
        keys=fields.String(),
        metadata={
            "description": (
                "A JSON Schema (draft 2020-12) of the game's moves, made from the game's own command types: a "
                "`oneOf` of one schema per move type (under `$defs`), discriminated by `type`. A move that does "
                "not validate is refused with 400; one that does may still be refused by the rules (422). The "
                "same schemas are the components `Move.<game>.<type>` of this document."
            )
        },
    )
    events = fields.List(fields.String())


class Catalog(Schema):
    games = fields.List(fields.Nested(CatalogGame))


# ------------------------------------------------------------------ errors


class ErrorDetail(Schema):
    code = fields.String(
        required=True,
        metadata={"description": "Stable and machine-readable: game_not_found, stale_version, invalid_request, ..."},
    )
    message = fields.String(required=True)
    rule = fields.Raw(metadata={"description": "The rule a refused move breaks: {id, book, section, text}."})
    fields_ = fields.Dict(
        data_key="fields", keys=fields.String(), metadata={"description": "Each field in error, with its messages."}
    )
    current_version = fields.Integer(metadata={"description": "With stale_version: the game's version now."})
    scope = fields.String(metadata={"description": "With insufficient_scope: the scope the call needs."})


class Error(Schema):
    """The body of every error response (documentation only; ``api.errors`` writes it)."""

    error = fields.Nested(ErrorDetail, required=True)


# ------------------------------------------------------------------ audits


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
    version = _int(required=True, validate=validate.Range(1, LARGEST))
    claim = fields.String(required=True, validate=validate.Length(1, 2000))
    move = fields.Dict(
        keys=fields.String(),
        metadata={
            "description": "The move said to be legal or illegal. Any object: the answer judges one that is not a "
            "`Move` of the game (components/schemas/Move) as malformed, rather than refusing the dispute."
        },
    )
    seat = _int(validate=validate.Range(0, 63))


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
