"""Installs the web client on the app: its pages and forms, the headers that protect every
answer, and HTML error pages for the pages (the API keeps its JSON errors)."""

from __future__ import annotations

from flask import Flask, Response, render_template, request, send_from_directory
from werkzeug.exceptions import default_exceptions

from api.context import current_platform
from api.parser import contract_of
from api.web import (  # noqa: F401  (register their routes on the blueprint)
    account_forms,
    audit_pages,
    competition_pages,
    forms,
    inbox_page,
    invitation_forms,
    rules_page,
    tournament_forms,
)
from api.web.page_words import said
from api.web.pages import web
from api.web.session import COOKIE, forget, token_of
from api.web.viewing import STATUS_WORDS, base_context, viewer
from infra.http_responses import DefaultHeaders
from services.common.errors import NotAuthenticated

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""Scripts only from this site's own files (no inline script, no ``eval``): an injected
``<script>`` does not run. Inline styles are allowed for the boards' SVG attributes."""


PROTECTING_HEADERS = [
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
]
"""Headers for every answer, unless it sets its own: the CSP and its companions (harmless on JSON)."""


def install(app: Flask) -> None:
    app.register_blueprint(web)
    pages = {e: view for e, view in app.view_functions.items() if e.startswith("web.") and e != "web.static"}
    undeclared = sorted(e for e, view in pages.items() if contract_of(view) is None)
    if undeclared:  # each page and form is checked by its contract: one without would skip every rule
        raise RuntimeError(f"pages without a @page_contract (api.parser): {', '.join(undeclared)}")
    app.jinja_env.globals["status_words"] = STATUS_WORDS  # the macros' too, which see no page's context
    app.add_url_rule("/favicon.ico", "favicon", _favicon)
    app.after_request(forget_refused_session)
    app.wsgi_app = DefaultHeaders(app.wsgi_app, PROTECTING_HEADERS)  # type: ignore[method-assign]


def forget_refused_session(response: Response) -> Response:
    """Forgets a session cookie whose token no longer signs anyone in (signed out in another tab,
    revoked, or another deployment's), with the API's 401 that met it. The API refuses a token not
    valid rather than reading it as none, so a page that kept that cookie would have its scripts
    refused every read a watcher may make (the log, the stream); without it they read as a
    watcher's do. Every answer passes here, so all but a 401 leave at once (a move pays one
    comparison)."""
    if response.status_code == 401:
        _forget_if_dead(response)
    return response


@web.after_request
def forget_dead_page_session(response: Response) -> Response:
    """The same for a page, which reads a dead cookie as someone signed out (``viewer``)."""
    if request.endpoint != "web.static" and viewer() is None:
        _forget_if_dead(response)
    return response


def _forget_if_dead(response: Response) -> None:
    """Drops the request's session cookie if its token signs no one in. A cookie the answer sets
    (signing in) is left alone, as is a live token that only lacks the pages' scope."""
    token = token_of(request)
    if token is None or any(c.startswith(COOKIE + "=") for c in response.headers.getlist("Set-Cookie")):
        return
    try:
        current_platform().accounts.authenticate(token)
    except NotAuthenticated:
        forget(response)


def _favicon() -> Response:
    """The icon browsers ask for on their own, for pages that name none (the API's reference)."""
    return send_from_directory(web.static_folder or "", "favicon.svg", mimetype="image/svg+xml", max_age=86400)


def is_page_request() -> bool:
    """Whether the current request is for a page (not the API, not a file): its errors are pages."""
    path = request.path
    return not path.startswith(("/api/", "/assets/", "/healthz", "/readyz", "/metrics"))


PLAIN_WORDS = {
    404: "There is no page at this address: it may be mistyped, or the link that led here is out of date.",
    405: "This page cannot be used that way: open it from a link instead.",
}
"""What a page says in place of Werkzeug's own description of an error (a path that is no route's:
"The requested URL was not found on the server..."), which speaks to a web developer."""


def error_page(status: int, code: str, message: str) -> Response:
    """An error as a page, for a person's browser."""
    title = {404: "Not found", 401: "Sign in first", 403: "Not allowed", 409: "Not now"}.get(status, "Error")
    werkzeugs = default_exceptions.get(status)
    if status in PLAIN_WORDS and werkzeugs is not None and message == werkzeugs.description:
        message = PLAIN_WORDS[status]
    html = render_template("error.html", status=status, title=title, message=said(message), code=code, **base_context())
    return Response(html, status=status, mimetype="text/html")
