"""Bearer tokens: ``Authorization: Bearer <token>``, or, for people using the web client, the session
cookie (``api.web.session``), whose writes must carry its CSRF token; nowhere else (a ``?token=`` is
an undeclared query parameter, refused as any other).

``authenticate_request`` runs before every route: it reads the route's contract
(``api.parser.Contract``), authenticates the token when one is sent (or refuses the call without
one where a token is required), and refuses a token whose scopes do not grant the route's scope
(403 ``insufficient_scope``). The web client's pages and forms declare their contracts too
(``api.parser.page_contract``) and are checked here, by the same code. The routes read the caller
it found with ``required_player``,
``optional_player`` and ``caller_id``; the caller carries its token's id and scopes.
"""

from __future__ import annotations

from flask import Response, current_app, g, request

from api import errors
from api.context import current_platform
from api.parser import Contract, contract_of
from api.web import session
from infra import save_guard
from services.accounts.player import Player
from services.common.errors import NotAuthenticated

_CALLER = "dh_caller"
"""The attribute of ``flask.g`` that holds the request's caller (None: no token was sent)."""


def _token() -> str | None:
    """The bearer token of the header, else the session cookie's (checked against CSRF)."""
    header = request.headers.get("Authorization")
    if header is None:
        return _cookie_token()
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthenticated("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _cookie_token() -> str | None:
    token = session.token_of(request)
    if token is None:
        return None
    problem = session.csrf_problem(request, current_platform().settings.secret_key, token)
    if problem is not None:
        raise session.CsrfRefused(problem)
    return token


def authenticate_request() -> None:
    """Before every route (after the query string's check): 401 for a required token missing or
    any token not valid, 403 for a token without the route's scope. Routes that read no token
    (registration, the catalogue) and pages outside the API are left alone."""
    endpoint = request.endpoint
    if endpoint is None:  # no such route: the 404 or 405 comes next
        return
    contract = contract_of(current_app.view_functions[endpoint])
    if contract is not None and contract.page:
        return _authenticate_page(contract)
    if contract is None or contract.auth == "none" or contract.scope is None:
        return
    token = _token()
    if token is None:
        if contract.auth == "required":
            raise NotAuthenticated("this call needs an 'Authorization: Bearer <token>' header")
        setattr(g, _CALLER, None)
        return
    player = current_platform().accounts.authenticate(token, save_checks=contract.save_checks)
    player.require(contract.scope)
    setattr(g, _CALLER, player)


def confirm_caller(response: Response) -> Response:
    """After every request: a move's token answered from what this process kept and not checked by
    a save (the move refused, or answered without one) is read now, and a token no longer live is
    answered 401 instead (``Accounts.confirm``)."""
    if save_guard.GUARD.get() is None:
        return response
    try:
        current_platform().accounts.confirm()
    except NotAuthenticated as refused:
        return current_app.make_response(errors.answer(*errors.to_response(refused)))
    return response


def forget_guard(_: BaseException | None) -> None:
    """At the end of every request, in whatever state it ended: a request thread answers the next
    request in the same context, which must not inherit a guard."""
    save_guard.GUARD.set(None)


def _authenticate_page(contract: Contract) -> None:
    """A page's or a form's caller (``api.parser.page_contract``): a form must come from this
    site's own pages, and with the session cookie carry its CSRF token; a form needing a token
    is refused as the API refuses (401, 403 ``insufficient_scope``). A page whose token is not
    valid, or lacks the page's scope, is read as by someone signed out: a ``play`` or ``account``
    token never reads what only its seat may."""
    if request.method not in session.SAFE_METHODS:
        problem = session.origin_problem(request)
        if problem is not None:
            raise session.CsrfRefused(problem)
    if contract.auth == "none":
        return
    player: Player | None = None
    try:
        token = _token()
        player = current_platform().accounts.authenticate(token) if token is not None else None
    except NotAuthenticated:
        if contract.auth == "required":
            raise
    if player is not None and contract.scope is not None and not player.may(contract.scope):
        if contract.auth == "required":
            player.require(contract.scope)
        player = None
    if player is None and contract.auth == "required":
        raise NotAuthenticated("sign in first")
    setattr(g, _CALLER, player)


def optional_player() -> Player | None:
    """The caller, or None when no token was sent."""
    if not hasattr(g, _CALLER):
        raise RuntimeError(f"{request.endpoint} reads the caller but declares no auth in its @blp.contract")
    player: Player | None = getattr(g, _CALLER)
    return player


def caller_id() -> str | None:
    """The caller's player id, or None when no token was sent."""
    player = optional_player()
    return player.id if player else None


def required_player() -> Player:
    """The caller (its route declares ``auth="required"``, so there is one)."""
    player = optional_player()
    if player is None:
        raise NotAuthenticated("this call needs an 'Authorization: Bearer <token>' header")
    return player
