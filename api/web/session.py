"""The web session: an account's token kept in an ``HttpOnly``, ``SameSite=Lax`` cookie.

Bots send their token in the ``Authorization`` header; a browser sends this cookie instead. A
cookie is sent by the browser on any request to this site, including one a foreign page makes
it send, so a write that authenticates by the cookie must also carry the session's CSRF token
(the ``X-CSRF-Token`` header from scripts, the ``csrf`` field from forms), which a foreign page
cannot read: it is an HMAC of the token under the server's secret key, printed only in our own
pages. A request the browser marks as cross-site (``Sec-Fetch-Site``) is refused as well.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Request, Response

from services.common.errors import ServiceError

COOKIE = "dragonhall_session"
HEADER = "X-CSRF-Token"
FIELD = "csrf"
MAX_AGE = 30 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class CsrfRefused(ServiceError):
    """A write authenticated by the session cookie without its CSRF token, or cross-site (403)."""

    code = "csrf_failed"


def token_of(request: Request) -> str | None:
    """The token of the request's session cookie, if it has one."""
    token = request.cookies.get(COOKIE, "").strip()
    return token or None


def csrf_token(secret_key: bytes, token: str) -> str:
    """The CSRF token of a session: derived from its token, so it needs no storage."""
    return hmac.new(secret_key, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()[:40]


def csrf_problem(request: Request, secret_key: bytes, token: str) -> str | None:
    """Why a cookie-authenticated request may not write (None: it may)."""
    if request.method in SAFE_METHODS:
        return None
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return "a cross-site request may not act with the session cookie"
    given = request.headers.get(HEADER) or (request.form.get(FIELD) if request.form else None) or ""
    if not hmac.compare_digest(given, csrf_token(secret_key, token)):
        return f"a write made with the session cookie needs its CSRF token ({HEADER} header or '{FIELD}' field)"
    return None


def origin_problem(request: Request) -> str | None:
    """Why a form may not be posted (None: it may): it comes from another site. A form needs no
    session to be at risk (signing in), so every form is checked, signed in or not."""
    site = request.headers.get("Sec-Fetch-Site", "same-origin")
    origin = request.headers.get("Origin")
    if site not in ("same-origin", "none") or (origin is not None and origin != request.host_url.rstrip("/")):
        return "a form may only be posted from this site's own pages"
    return None


def remember(response: Response, token: str, secure: bool) -> None:
    """Sets the session cookie on ``response``."""
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, httponly=True, samesite="Lax", secure=secure, path="/")


def forget(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax")
