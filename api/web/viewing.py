"""Who is looking at a page, and what every page's template needs to know."""

from __future__ import annotations

from typing import Any

from flask import Request, g, request, url_for

from api.context import current_platform
from api.web import session
from domain.kernel.rules import book_title
from services.accounts.player import Player
from services.accounts.scopes import READ
from services.common.errors import NotAuthenticated
from services.common.visibility import ENDED

_VIEWER = "dh_web_viewer"
_CALLER = "dh_caller"
"""Where ``api.auth`` keeps the request's caller."""


def viewer() -> Player | None:
    """The signed-in person of this request, as the pages may show them: None when signed out,
    with a cookie no longer valid, or with a token that lacks the ``read`` scope (a ``play`` or
    ``account`` token reads the pages as a spectator does, as the API would answer it 403).

    The caller is the one ``api.auth`` found from the page's contract; an error page of a path
    that is no route (no contract) reads the cookie itself."""
    if not hasattr(g, _VIEWER):
        caller = g.get(_CALLER) if _CALLER in g else _authenticate(request)
        setattr(g, _VIEWER, caller if caller is not None and caller.may(READ) else None)
    found: Player | None = getattr(g, _VIEWER)
    return found


def _authenticate(req: Request) -> Player | None:
    token = session.token_of(req)
    if token is None:
        return None
    try:
        return current_platform().accounts.authenticate(token)
    except NotAuthenticated:  # revoked or from another deployment: the page shows signed out
        return None


def csrf() -> str | None:
    """The session's CSRF token, printed in the page for its forms and scripts."""
    token = session.token_of(request)
    if token is None or viewer() is None:
        return None
    return session.csrf_token(current_platform().settings.secret_key, token)


def sign_out_csrf() -> str | None:
    """The CSRF token of a session whose token is valid but cannot read the pages (a ``play`` or
    ``account`` token signed in with the token form): the layout offers it a way to sign out."""
    token = session.token_of(request)
    if token is None or viewer() is not None or _authenticate(request) is None:
        return None
    return session.csrf_token(current_platform().settings.secret_key, token)


STATUS_WORDS = {"open": "open for players", "scheduled": "scheduled", "active": "running", "finished": "finished",
                "abandoned": "abandoned", "cancelled": "cancelled"}  # fmt: skip
"""A game's status as people read it."""


def base_context() -> dict[str, Any]:
    """What the layout template reads: the viewer, the CSRF token, the navigation."""
    person = viewer()
    return {
        "ended_statuses": ENDED,
        "book_title": book_title,
        "me": person,
        "csrf": csrf(),
        "sign_out_csrf": sign_out_csrf(),
        "nav": [
            ("Lobby", url_for("web.lobby")),
            *([("Inbox", url_for("web.inbox"))] if person else []),
            ("Leaderboards", url_for("web.leaderboards")),
            ("Tournaments", url_for("web.tournaments_page")),
        ],
    }
