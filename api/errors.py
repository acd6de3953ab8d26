"""One table from error type to HTTP status, and the JSON error body.

Every error answers ``{"error": {"code", "message", "rule"?, "fields"?}}``:
400 malformed JSON, a schema error or an undeclared query parameter (with field
details), 401 a missing or bad token, 403 a token without the scope the call needs,
no seat or not the creator, 404 an unknown game or token, 409 a stale
``expected_version`` or a game not accepting the command, 413 a body over the size
limit, 422 a move the rules refuse (with the rule), 429 a rate limit reached (with
``Retry-After``; ``api.limits``) or as many streams held as one caller may, 503 a
store that cannot be reached for now (with ``Retry-After``). No error writes an event.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, current_app, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api.web.session import CsrfRefused
from domain.kernel import MalformedMove, RuleError
from infra import save_guard
from services.accounts.name_book import NameTaken
from services.audits.dispute_errors import DisputeNotFound, DisputeResolved
from services.common import errors as svc
from services.competition.tournament_errors import (
    NotOrganiser,
    NotOwner,
    RegistrationClosed,
    TooFewPlayers,
    TournamentNotFound,
)
from services.play.invitations import InvitationClosed, InvitationNotFound

log = logging.getLogger("dragonhall.api")


class MalformedJSON(Exception):
    """The request body is not JSON this API reads (``api.json_bodies.read_json``); ``path`` names
    the value at fault (``move.cards.0``) when there is one."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class RequestInvalid(Exception):
    """The request does not match its schema; ``fields`` maps each field to its messages."""

    def __init__(self, fields: Mapping[str, Any] | list[Any]) -> None:
        super().__init__("the request does not match its schema")
        self.fields = fields


STATUS: list[tuple[type[Exception], int]] = [
    (RequestEntityTooLarge, 413),
    (MalformedJSON, 400),
    (RequestInvalid, 400),
    (svc.InvalidRequest, 400),
    (MalformedMove, 400),
    (svc.NotAuthenticated, 401),
    (save_guard.GuardRefused, 401),
    (svc.InsufficientScope, 403),
    (CsrfRefused, 403),
    (svc.NotAPlayer, 403),
    (svc.NotCreator, 403),
    (svc.NotArbiter, 403),
    (svc.NotInvited, 403),
    (NotOwner, 403),
    (NotOrganiser, 403),
    (svc.GameNotFound, 404),
    (svc.PlayerNotFound, 404),
    (svc.TokenNotFound, 404),
    (svc.NoPicture, 404),
    (DisputeNotFound, 404),
    (TournamentNotFound, 404),
    (InvitationNotFound, 404),
    (svc.StaleVersion, 409),
    (svc.NotAcceptingMoves, 409),
    (svc.NotAwaited, 409),
    (svc.SeatUnavailable, 409),
    (svc.CommandReused, 409),
    (RegistrationClosed, 409),
    (TooFewPlayers, 409),
    (DisputeResolved, 409),
    (NameTaken, 409),
    (InvitationClosed, 409),
    (RuleError, 422),
    (svc.StreamsBusy, 503),
    (svc.CallerStreamsBusy, 429),
    *((cls, 503) for cls in svc.STORE_UNAVAILABLE),
]
RETRY_AFTER_SECONDS = 1
MAX_TEXT = 300
"""The longest text of an error's message and fields: they quote what the request held (an unknown
move type, a field's name), and a request of a megabyte is not to be sent back whole. A rule's
passage, the rulebook's own text, is not cut."""


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    said = {k: _bounded(v) if k == "fields" else v for k, v in extra.items() if v is not None}
    return {"error": {"code": code, "message": _bounded(message), **said}}


def _bounded(value: Any) -> Any:
    """``value`` with every string in it (keys too) cut at ``MAX_TEXT`` characters."""
    if isinstance(value, str):
        return value if len(value) <= MAX_TEXT else value[: MAX_TEXT - 1] + "…"
    if isinstance(value, dict):
        return {_bounded(k): _bounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_bounded(v) for v in value]
    return value


def to_response(exc: Exception) -> tuple[dict[str, Any], int]:
    """The JSON body and status for a known error."""
    for cls, status in STATUS:
        if isinstance(exc, cls):
            return _body(exc), status
    raise exc


def code_of(exc: Exception) -> str:
    """The error code a known error answers with (``unexpected`` for any other)."""
    try:
        return str(to_response(exc)[0]["error"]["code"])
    except Exception:
        return "unexpected"


def _body(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, save_guard.GuardRefused):  # a move's save refused its token: as a token refused on read
        return error_body(svc.NotAuthenticated.code, "the bearer token is not valid")
    if isinstance(exc, MalformedJSON):
        message = f"the request body is not valid JSON: {exc}"
        return error_body("malformed_json", message, fields={exc.path: [message]} if exc.path else None)
    if isinstance(exc, RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return error_body("body_too_large", f"the request body is larger than the limit of {limit} bytes")
    if isinstance(exc, RequestInvalid):
        return error_body("invalid_request", "the request does not match its schema", fields=exc.fields)
    if isinstance(exc, RuleError):
        field = exc.details.get("field")
        fields = {field: [exc.message]} if field else None
        return error_body(exc.code, exc.message, rule=exc.rule.to_json(), fields=fields)
    if isinstance(exc, svc.InvalidRequest):
        return error_body(exc.code, exc.message, fields={exc.field: [exc.message]} if exc.field else None)
    if isinstance(exc, svc.ServiceError):
        return error_body(exc.code, exc.message, **exc.details)
    if isinstance(exc, svc.STORE_UNAVAILABLE):  # the driver's message names hosts and sessions: not for clients
        return error_body(
            "store_unavailable",
            "the event store cannot be reached for now; try again (a move "
            "retried with the same command_id is not applied twice)",
        )
    return error_body("error", str(exc))


ErrorPage = Callable[[int, str, str], Response | None]
"""``(status, code, message)`` to an error page, or None where the request asked for no page."""
_ERROR_PAGE = "dragonhall.error_page"


def register_error_handlers(app: Flask, page: ErrorPage | None = None) -> None:
    """Answers every error with the JSON body, or with ``page``'s answer where it gives one (the
    app passes the web client's: errors know nothing of the pages)."""
    app.extensions[_ERROR_PAGE] = page
    for cls, _status in STATUS:
        app.register_error_handler(cls, _handle_known)
    app.register_error_handler(HTTPException, _handle_http)
    app.register_error_handler(Exception, _handle_unexpected)


def answer(body: dict[str, Any], status: int, headers: Any = ()) -> ResponseReturnValue:
    """The error as JSON, or as a page where a person's browser asked for a page."""
    page: ErrorPage | None = current_app.extensions.get(_ERROR_PAGE)
    shown = page(status, body["error"]["code"], body["error"]["message"]) if page is not None else None
    if shown is not None:
        return shown, headers
    return jsonify(body), status, headers


def _handle_known(exc: Exception) -> ResponseReturnValue:
    body, status = to_response(exc)
    if status == 429:
        return answer(body, status, {"Retry-After": str(RETRY_AFTER_SECONDS)})
    if status != 503:
        return answer(body, status)
    if not isinstance(exc, svc.StreamsBusy):
        log.warning("store unavailable: %s", exc)
    return answer(body, status, {"Retry-After": str(RETRY_AFTER_SECONDS)})


def _handle_http(exc: HTTPException) -> ResponseReturnValue:
    """Werkzeug's errors (404 no such route, 405 with the ``Allow`` header RFC 9110 asks for)."""
    code = (exc.name or "error").lower().replace(" ", "_")
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    return answer(error_body(code, exc.description or exc.name or "error"), exc.code or 500, headers)


def _handle_unexpected(exc: Exception) -> ResponseReturnValue:
    if isinstance(exc, HTTPException):
        return _handle_http(exc)
    log.exception("unexpected error")
    return answer(error_body("internal_error", "the server failed to handle this request"), 500)
