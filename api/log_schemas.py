"""marshmallow schemas of a game's narrated log (``GET /games/{id}/log``): its events in words."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schema_fields import LARGEST


class LogArgs(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(0, LARGEST),
        metadata={"description": "Only the steps with an event after this version (a page that follows the game)."},
    )
    seat = fields.Integer(validate=validate.Range(0, 63))


class SeatWords(Schema):
    seat = fields.Integer(required=True)
    number = fields.Integer(required=True, metadata={"description": "The seat counted from 1, as people count."})
    name = fields.String(required=True, metadata={"description": 'The seat in a sentence: "You", "Bruno".'})
    full = fields.String(required=True, metadata={"description": 'The seat named in full: "Bruno (red)".'})
    colour = fields.String(required=True)
    you = fields.Boolean(required=True, metadata={"description": "Whether the caller holds this seat."})
    player = fields.String(required=True, metadata={"description": "The player's name, numbered apart if shared."})


class LogLine(Schema):
    version = fields.Integer(required=True)
    text = fields.String(required=True, metadata={"description": "The event in one English sentence."})
    turn = fields.String(
        allow_none=True,
        metadata={"description": 'The heading of the turn this event opens ("Round 2: Bruno\'s turn"), else null.'},
    )
    quiet = fields.Boolean(metadata={"description": "Bookkeeping another line already says: a log may leave it out."})
    notice = fields.Boolean(metadata={"description": "A clock ran out and the server acted for a seat."})


class LogStep(Schema):
    step = fields.Integer(
        required=True,
        metadata={"description": "0 up to the start of play, then one more per decision (the replay's `?step=`)."},
    )
    version = fields.Integer(required=True)
    until = fields.Integer(required=True)
    at = fields.String(required=True)
    continued = fields.Boolean(
        metadata={"description": "The step began at or before `after`: these are its last lines."}
    )
    kind = fields.String(
        metadata={"description": "created, seat, started, move, timeout, resigned, joined, abandoned or system."}
    )
    seat = fields.Integer(allow_none=True)
    title = fields.String(required=True, metadata={"description": 'The decision in words: "Bruno: roll again".'})
    move = fields.Raw(
        allow_none=True,
        metadata={"description": "The move decided (`{type, ...}`), redacted as GET /events redacts it; null if none."},
    )
    lines = fields.List(fields.Nested(LogLine), required=True)


class GameLog(Schema):
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatWords), required=True)
    status_line = fields.String(
        required=True, metadata={"description": "Whose turn it is, for the caller; the result once the game has ended."}
    )
    result = fields.String(allow_none=True, metadata={"description": "Who won and why, once the game has ended."})
    steps = fields.List(fields.Nested(LogStep), required=True)
