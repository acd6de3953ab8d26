"""Errors of the service layer: who, which game, which version. Rules errors live in ``domain``."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError

STORE_UNAVAILABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
"""eventsourcing's errors for a store that cannot be reached or answered for now (a database
restarting, a dropped connection, a lock timeout): the request may succeed if tried again."""


class ServiceError(Exception):
    """Base of service errors; ``code`` is stable for clients."""

    code = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class GameNotFound(ServiceError):
    code = "game_not_found"


class NoPicture(ServiceError):
    """The game draws no SVG board, or there is no board yet."""

    code = "no_picture"


class PlayerNotFound(ServiceError):
    code = "player_not_found"


class NotAuthenticated(ServiceError):
    code = "unauthenticated"


class InsufficientScope(ServiceError):
    """The caller's token does not hold the scope this call needs (``details["scope"]`` names it)."""

    code = "insufficient_scope"


class TokenNotFound(ServiceError):
    """No live token with this id belongs to the caller's account."""

    code = "token_not_found"


class NotAPlayer(ServiceError):
    """The caller holds no seat in the game (or not the seat named)."""

    code = "not_a_player"


class NotCreator(ServiceError):
    code = "not_creator"


class NotInvited(ServiceError):
    """A running game takes newcomers only from among the players its creator invited."""

    code = "not_invited"


class NotArbiter(ServiceError):
    """Only a game's arbiter upholds or rejects a dispute (``services.audits.disputes``)."""

    code = "not_arbiter"


class StaleVersion(ServiceError):
    """``expected_version`` is not the game's current version."""

    code = "stale_version"


class NotAwaited(ServiceError):
    """The caller's seat is not awaited now: there is no move of it to advise."""

    code = "not_awaited"


class NotAcceptingMoves(ServiceError):
    """The game is not running (open, scheduled, finished or abandoned)."""

    code = "not_accepting_moves"


class SeatUnavailable(ServiceError):
    """The seat asked for is taken, out of range, or the table is full or started."""

    code = "seat_unavailable"


class CommandReused(ServiceError):
    """A ``command_id`` already used by this player for a different move."""

    code = "command_id_reused"


class InvalidRequest(ServiceError):
    """A well-formed request that asks for something impossible (a bad option, say)."""

    code = "invalid_request"

    def __init__(self, message: str, field: str | None = None, **details: Any) -> None:
        super().__init__(message, **details)
        self.field = field


class StreamsBusy(ServiceError):
    """The process holds as many streams as it may (``DRAGONHALL_MAX_STREAMS``): try again later."""

    code = "too_many_streams"


class CallerStreamsBusy(ServiceError):
    """The caller (an account, or an address without a token) holds as many streams in this
    process as one caller may (``DRAGONHALL_MAX_STREAMS_PER_CALLER``): close one first (429)."""

    code = "too_many_streams_per_caller"
