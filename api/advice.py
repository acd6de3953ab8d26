"""Advice: the move one of the server's built-in bots would play for the caller's awaited seat.

It lets any client play as a built-in bot (``dragonhall bot --strategy greedy``) on a remote
server: the bot decides as a seated server bot does, on what the seat may know.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.auth import required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("advice", "Ask one of the server's bots which move it would play for your seat.")

SEED_LIMIT = 2**63 - 1


class AdviceArgs(Schema):
    """Query arguments: query strings carry text, so integers are parsed, not strict."""

    bot = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "A bot of the game (GET /catalog lists them); the game's default bot if not given."},
    )
    seat = fields.Integer(validate=validate.Range(0, 63))
    seed = fields.Integer(
        validate=validate.Range(0, SEED_LIMIT),
        metadata={"description": "Makes the advice repeatable: the same seed, position and bot give the same move."},
    )


class Advice(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's version the advice is for."})
    seat = fields.Integer(required=True)
    bot = fields.String(required=True, metadata={"description": "The bot that chose the move."})
    move = fields.Raw(required=True, metadata={"description": "A move as POST /games/{id}/moves takes it."})


@blp.route("/games/<game_id>/advice", methods=["GET"])
@blp.contract(auth="required", scope="read", errors=[403, 404, 409])
@blp.arguments(AdviceArgs(), location="query")
@blp.response(200, Advice())
def advice(args: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The move the named built-in bot would play now for the caller's seat (the first it holds that
    is awaited, unless ``seat`` names one). The bot decides on the seat's observation only: all that
    is hidden from the seat drawn anew, as when it plays a seat itself, within the server's bot
    budget. 400 for a bot the game lacks (the message lists its bots); 403 for a seat the caller does
    not hold; 409 when the game is not running or the seat is not awaited."""
    player = required_player()
    return current_platform().advice.advise(game_id, player.id, args.get("bot"), args.get("seat"), args.get("seed"))
