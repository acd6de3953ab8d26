"""marshmallow schemas of games: creating, joining and listing them, moves, legal moves, events,
replays and the streams' arguments (``api.games``, ``api.streams``)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.schema_fields import (
    DAY,
    LARGEST,
    MAX_PLAYER_ID,
    MAX_SECONDS,
    BotName,
    Built,
    GameSlug,
    MoveField,
    Selected,
    StrictBoolean,
    VariantName,
    ahead,
    strict_int,
)
from domain.kernel import ConfigError, find_game
from services.reads.move_steps import LEGAL_MOVES_PAGE

MAX_INVITES = 100
"""How many players a new game may invite (each invitation is an inbox row)."""
MAX_NAME = 64
"""The longest game slug, variant, bot or option name a request may carry (the catalog's are far shorter)."""
MAX_OPTIONS = 32
"""The most options a new game may set (a variant has a handful)."""
MAX_LEGAL_MOVES_PAGE = LEGAL_MOVES_PAGE
POLICIES = ("auto", "forfeit", "skip")
STATUSES = ("open", "scheduled", "active", "finished", "abandoned")


class TimeControl(Schema):
    """``none``; ``per_move`` with ``seconds``; or ``bank`` with ``initial``, ``increment`` and ``cap``."""

    kind = fields.String(required=True, validate=validate.OneOf(("none", "per_move", "bank")))
    seconds = strict_int(validate=validate.Range(1, MAX_SECONDS))
    initial = strict_int(validate=validate.Range(1, 60 * DAY))
    increment = strict_int(validate=validate.Range(0, MAX_SECONDS))
    cap = strict_int(validate=validate.Range(1, 60 * DAY))
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
    players = strict_int(required=True, validate=validate.Range(1, 64), metadata={"description": "Number of seats."})
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
    rated = StrictBoolean(
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
    seat = strict_int(validate=validate.Range(0, 63))
    bot = BotName(metadata={"description": "A server bot of the game (GET /api/v1/catalog), to seat for its creator."})


class InviteRequest(Schema):
    invite = fields.List(
        fields.String(validate=validate.Length(1, MAX_PLAYER_ID)),
        required=True,
        validate=validate.Length(1, MAX_INVITES),
        metadata={
            "description": "Players or bot accounts to invite, by name (case and letters that look alike ignored) "
            f"or id, at most {MAX_INVITES}: each keeps a seat until they accept or decline."
        },
    )


class LeaveRequest(Schema):
    seat = strict_int(
        validate=validate.Range(0, 63),
        metadata={"description": "The seat to give up (yours, or, for the creator, a server bot's); else your last."},
    )


class MoveRequest(Schema):
    move = MoveField(
        required=True,
        metadata={
            "description": "The move, in the shape of one of the game's move types (the game's `move_schema` in "
            "GET /api/v1/catalog)."
        },
    )
    expected_version = strict_int(validate=validate.Range(0, LARGEST))
    command_id = fields.String(validate=validate.Length(1, 128))
    seat = strict_int(validate=validate.Range(0, 63))
    include_legal_moves = StrictBoolean(
        load_default=False,
        metadata={"description": "Also answer with the caller's legal moves after this move (saves a request)."},
    )


class SeatArg(Schema):
    """A query argument: query strings carry text, so integers are parsed, not strict."""

    seat = fields.Integer(validate=validate.Range(0, 63))


class ResignRequest(Schema):
    seat = strict_int(validate=validate.Range(0, 63))


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


class NextStep(Schema):
    ref = fields.String(required=True, metadata={"description": "A `data-ref` of the board picture."})
    move = MoveField(required=True, metadata={"description": "One legal move whose way goes on with `ref`."})
    question = fields.String(metadata={"description": 'With `words=true`: the choice it answers ("First card").'})
    answer = fields.String(metadata={"description": 'With `words=true`: the answer in words ("the jump card").'})


class LegalMoves(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    total = fields.Integer(metadata={"description": "How many moves there are; page with offset and limit."})
    offset = fields.Integer()
    moves = fields.List(MoveField(), required=True)
    listing = fields.String(
        metadata={
            "description": "Where the game knows it: names this listing apart from its version. Two answers (or "
            "stream lines) with the same `listing` list the same moves, with the same words, though other seats "
            "moved in between (Mékong's programmes, chosen at once): a client need not read them again."
        }
    )
    texts = fields.List(
        fields.String(),
        metadata={"description": 'With `words=true`: each move in words, in the order of `moves` ("roll again").'},
    )
    choices = Built(
        fields.List(fields.List(fields.List(fields.String()))),
        metadata={
            "description": "With `words=true`: for each move, the choices that name it among the moves of its "
            'type, in order, each `[question, answer]` in words (`["Card to lay", "the red dragon card"]`); '
            "empty when the game gives none for its type."
        },
    )
    kinds = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "With `words=true`: each move type of the page's moves as a heading over its moves, in "
            'words ("Lay a dragon card").'
        },
    )
    refs = Built(
        fields.List(fields.List(fields.List(fields.String()))),
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
    chosen = fields.List(fields.String(), metadata={"description": "With `narrow=true`: the refs chosen so far."})
    next = fields.List(
        fields.Nested(NextStep),
        metadata={
            "description": "With `narrow=true`: the refs that may be clicked after `chosen`, each with one move "
            "whose way it continues (the moves themselves are listed only when at most `limit`)."
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
        metadata={
            "description": "Also give each move's phrase in words (`texts`), for a person's buttons, its choices "
            "in words (`choices`), for a person's selects, and its ways on the board (`refs`, `poses`)."
        },
    )
    narrow = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Choose step by step on the board: only the moves one of whose ways begins with the refs "
            "`chosen`, listed whole when at most `limit`, else `next`, the refs that may come next. For listings of "
            "tens of thousands (a Mékong programme)."
        },
    )
    chosen = fields.String(
        load_default="",
        validate=validate.Length(0, 2000),
        metadata={"description": "With `narrow=true`: the refs clicked so far, in order, separated by spaces."},
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
