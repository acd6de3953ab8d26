"""Dragonhall's client library: the HTTP API as typed calls, its streams as iterators, and bots.

    from dragonhall import Client

    dh = Client.for_new_player("http://127.0.0.1:8000", "ann", kind="bot")
    game = dh.create_game("tarasque", players=2)
    dh.take_seat(game["id"])
    dh.add_bot(game["id"], "greedy")
    for line in dh.game_stream(game["id"]):
        ...

It imports nothing of the server's packages: a bot installs it and plays on any Dragonhall server.
"""

from dragonhall.bot import AdviceStrategy, BotRunner, GamePlayer, RandomStrategy, Strategy, load_strategy
from dragonhall.client import Client, new_command_id
from dragonhall.errors import (
    BadRequest,
    Conflict,
    DragonhallError,
    Forbidden,
    NotFound,
    RateLimited,
    RuleViolation,
    ServerError,
    Unauthenticated,
    Unavailable,
    Unreachable,
)
from dragonhall.invitations import InvitationRules
from dragonhall.transport import Retry

__all__ = [
    "AdviceStrategy",
    "BadRequest",
    "BotRunner",
    "Client",
    "Conflict",
    "DragonhallError",
    "Forbidden",
    "GamePlayer",
    "InvitationRules",
    "NotFound",
    "RandomStrategy",
    "RateLimited",
    "Retry",
    "RuleViolation",
    "ServerError",
    "Strategy",
    "Unauthenticated",
    "Unavailable",
    "Unreachable",
    "load_strategy",
    "new_command_id",
]
