"""marshmallow schemas of the server's health, the catalogue of games (``api.meta``) and the body
of every error (``api.errors``)."""

from __future__ import annotations

from marshmallow import Schema, fields


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
