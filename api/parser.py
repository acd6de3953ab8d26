"""What a request may hold, checked once for every route, and how each route documents its contract.

* Bodies: webargs reads them with ``ContractParser``, which speaks the contract (a schema error or
  bad JSON is our 400) and reads only JSON this API can store (``read_json``).
* Query strings: ``refuse_undeclared_query`` runs before every route and refuses any parameter the
  route does not declare (from the same ``@blp.arguments(..., location="query")`` schemas that
  parse and document them), so a misspelt parameter is an error rather than silently dropped.
* Documentation and access: ``ContractBlueprint.contract`` declares a route's authentication and
  the token scope it needs (``services.accounts.scopes``), which ``api.auth.authenticate_request`` enforces,
  and documents its bearer security, its scope and every status code it answers, each error with
  the one error body (``api.errors``).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Literal, NoReturn, TypeVar

from flask import current_app, request
from flask_smorest import Blueprint
from flask_smorest.utils import resolve_schema_instance
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import UnicodeConverter

from api.errors import MalformedJSON, RequestInvalid
from api.json_bodies import read_json
from services.common.errors import InvalidRequest

Auth = Literal["none", "optional", "required"]
Scope = Literal["read", "play", "account"]
RateLimit = Literal["register"]
View = TypeVar("View", bound=Callable[..., Any])
CONTRACT = "_dh_contract"
"""The attribute of a view function that holds its ``Contract``."""
SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "required": [{"bearer": []}],
    "optional": [{}, {"bearer": []}],  # OpenAPI's way to say "with or without a token"
}


@dataclass(frozen=True)
class Contract:
    """Who may call a route: ``auth`` says whether a token is needed, ``scope`` which scope the
    token must grant (None only where no token is read); ``rate_limit`` names the limit of a route
    called without a token (``api.limits``), where one applies. ``page`` marks a page or a form of
    the web client (``page_contract``), which the same hooks check with a person's leniency.
    ``save_checks`` marks a move, whose save checks its token (``Accounts.authenticate``)."""

    auth: Auth
    scope: Scope | None
    rate_limit: RateLimit | None = None
    page: bool = False
    save_checks: bool = False


def page_contract(*, auth: Auth, scope: Scope | None, rate_limit: RateLimit | None = None) -> Callable[[View], View]:
    """Declares a page's or a form's contract, as ``ContractBlueprint.contract`` declares an API
    route's, and checked by the same hooks (``api.auth.authenticate_request``, ``api.limits``):
    the token's scope, the rate limits, and for a form its origin and CSRF token. Put it under
    ``@web.route``. Every page and form must declare one (``api.web.site.install`` refuses to start
    otherwise), so a new page cannot forget a rule.

    The differences are a person's: a page (``auth="optional"``) whose cookie is not valid, or
    whose token lacks ``scope``, is shown as to a signed-out reader, where the API answers 401 or
    403; ``scope=None`` with ``auth="optional"`` (signing out) takes any valid token."""

    def decorator(func: View) -> View:
        setattr(func, CONTRACT, Contract(auth, scope, rate_limit, page=True))
        return func

    return decorator


def contract_of(view: Callable[..., Any] | None) -> Contract | None:
    """The contract a view declares with ``@blp.contract``; None for pages outside the API."""
    contract: Contract | None = getattr(view, CONTRACT, None)
    return contract


class ContractParser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400

    def handle_error(
        self, error: Any, req: Any, schema: Any, *, error_status_code: Any, error_headers: Any
    ) -> NoReturn:
        messages = error.messages
        if isinstance(messages, dict) and set(messages) <= {"json", "query", "querystring", "view_args"}:
            merged: dict[str, Any] = {}
            for part in messages.values():
                merged.update(part if isinstance(part, dict) else {"_schema": part})
            messages = merged
        raise RequestInvalid(messages)

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> NoReturn:
        raise MalformedJSON(str(error))

    def _raw_load_json(self, req: Any) -> Any:
        """Reads any non-empty body as JSON, whatever its declared content type. A body over the
        app's ``MAX_CONTENT_LENGTH`` is refused by Werkzeug (413) before a byte of it is parsed."""
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return read_json(data)


# ------------------------------------------------------------------ bodies of unknown length


def bound_unsized_body() -> None:
    """Before every route: a body sent without ``Content-Length`` (chunked) is read here, up to
    one byte past ``MAX_CONTENT_LENGTH``, and refused as a 413 when it is longer, as a body that
    declares its length is (Werkzeug would otherwise cut it at the limit, and the truncated JSON
    answer a 400). A body within the limit is given its length, so every reader after this one
    (JSON, forms) reads it as any other."""
    environ = request.environ
    if environ.get("CONTENT_LENGTH") or not environ.get("wsgi.input_terminated"):
        return
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    data = environ["wsgi.input"].read(limit + 1 if limit is not None else -1)
    if limit is not None and len(data) > limit:
        raise RequestEntityTooLarge()
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))


# ------------------------------------------------------------------ bodies a route does not read

NUL_QUERY = "holds a NUL character (%00), which no store keeps in text"
NUL_FIELD = "holds a NUL character (an invisible control character), which no store keeps in text"
NO_BODY = "this call takes no body: send none, or {}"
_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


def refuse_unread_bodies(app: Any) -> None:
    """Has every API call that reads no body (``POST .../start``, a ``DELETE``) refuse one, as an
    unknown field is refused, rather than ignore it while the call acts: bad JSON a 400
    ``malformed_json``, any value but ``{}`` a 400 naming the body. Installed on those views alone,
    once every route is added, so a call that reads its body (a move) pays nothing for it. The web
    client's forms (endpoints ``web.*``) are not the API."""
    writes = {r.endpoint for r in app.url_map.iter_rules() if (r.methods or set()) - _BODILESS}
    for endpoint in writes:
        view = app.view_functions[endpoint]
        if not endpoint.startswith("web.") and not reads_body(view):
            app.view_functions[endpoint] = _reading_no_body(view)


def _reading_no_body(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)  # its contract and documentation too (``__dict__``)
    def checked(*args: Any, **kwargs: Any) -> Any:
        environ = request.environ
        sent = environ["REQUEST_METHOD"] not in _BODILESS and environ.get("CONTENT_LENGTH") not in (None, "", "0")
        if sent and read_json(request.get_data(cache=True)) != {}:
            raise RequestInvalid({"_schema": [NO_BODY]})
        return view(*args, **kwargs)

    return checked


@functools.cache
def reads_body(view: Callable[..., Any]) -> bool:
    """Whether a view declares a JSON body with ``@blp.arguments`` (the location ``json``)."""
    params = getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", [])
    return any(param.get("in") == "json" for param in params)


def refuse_nul_in_forms(app: Any) -> None:
    """Has every form of the web client (a ``web.*`` view that takes a POST) refuse a field holding
    a NUL (``%00``), as the API refuses one in a body: PostgreSQL keeps none in text, and SQLite
    would store it. A 400, shown as the site's error page; nothing is written."""
    forms = {r.endpoint for r in app.url_map.iter_rules() if "POST" in (r.methods or set())}
    for endpoint in forms:
        if endpoint.startswith("web."):
            app.view_functions[endpoint] = _without_nul(app.view_functions[endpoint])


def _without_nul(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)  # its page contract too (``__dict__``)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if request.method == "POST":
            held = sorted({k for k, v in request.form.items(multi=True) if "\x00" in k + v})
            if held:
                name = held[0].replace("\x00", "%00")
                raise InvalidRequest(f"the field “{name}” {NUL_FIELD}: remove it and send the form again", field=name)
        return view(*args, **kwargs)

    return checked


# ------------------------------------------------------------------ paths


class Segment(UnicodeConverter):
    """A path's ``<name>`` (the default converter): one segment, as Werkzeug's, but never holding a
    NUL (``%00``), which no store keeps in text (PostgreSQL refuses it): such a path matches no
    route, a 404, before any route asks a store about it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]", 1)


def install_segments(app: Any) -> None:
    """Makes ``Segment`` the converter of every route added after this call."""
    app.url_map.converters["default"] = Segment
    app.url_map.converters["string"] = Segment


# ------------------------------------------------------------------ query strings


def refuse_undeclared_query() -> None:
    """Before every route: a query parameter the route does not declare, or one given twice, is a
    400 naming it. Routes without query arguments (most of them) take none. The web client's pages
    (endpoints ``web.*``) are not the API: they read their own filters and pages, and ignore the rest."""
    if not request.query_string:
        return
    if b"%00" in request.query_string:  # a NUL, which no store keeps in text: refused on pages too
        raise RequestInvalid(_nul_parameters())
    endpoint = request.endpoint
    if endpoint is None or endpoint.startswith("web."):  # no such route: the 404 or 405 comes next
        return
    declared = declared_query(current_app.view_functions[endpoint])
    refused: dict[str, list[str]] = {}
    for name, values in request.args.lists():
        if name not in declared:
            takes = ", ".join(sorted(declared)) or "no query parameters"
            refused[name] = [f"unknown query parameter; this endpoint takes {takes}"]
        elif len(values) > 1:
            refused[name] = ["given more than once"]
    if refused:
        raise RequestInvalid(refused)


def _nul_parameters() -> dict[str, list[str]]:
    """Each query parameter holding a NUL in its name or value, named with ``%00`` for the NUL."""
    found = {name.replace("\x00", "%00") for name, value in request.args.items(multi=True) if "\x00" in name + value}
    return {name: [NUL_QUERY] for name in sorted(found)} or {"_query": [NUL_QUERY]}


@functools.cache
def declared_query(view: Callable[..., Any]) -> frozenset[str]:
    """The query parameter names a view declares with ``@blp.arguments(..., location="query")``."""
    names: set[str] = set()
    for param in getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", []):
        if param.get("in") == "query":
            schema = resolve_schema_instance(param["schema"])
            names.update(f.data_key or name for name, f in schema.load_fields.items())
    return frozenset(names)


# ------------------------------------------------------------------ documentation


class ContractBlueprint(Blueprint):
    ARGUMENTS_PARSER = ContractParser()

    def contract(
        self,
        *,
        auth: Auth,
        scope: Scope | None,
        errors: Iterable[int] = (),
        store: bool = True,
        rate_limit: RateLimit | None = None,
        save_checks: bool = False,
    ) -> Callable[[View], View]:
        """Declares who may call a route, and documents what it answers besides its success: its
        bearer ``security`` and the ``scope`` its token needs (``x-scope``, and a line of its
        description), and each error status with the error body. Put it under ``@blp.route`` and
        above ``@blp.arguments``.

        ``scope`` is None exactly when ``auth`` is ``"none"``. ``errors`` lists the route's own
        errors (403, 404, 409, 422); those every route of its kind answers are added here: 400 (an
        undeclared query parameter, and any schema error), 401 and 403 (a token without the scope)
        with ``auth`` (a bad token is refused even where a token is optional), 429 with ``auth`` or
        ``rate_limit``, 413 with a JSON body, and 503 with ``store`` (a store that cannot be reached
        for now). ``save_checks``: the route saves a move, whose save checks the caller's token
        (``Accounts.authenticate``)."""
        if (scope is None) != (auth == "none"):
            raise ValueError(
                f"a route with auth={auth!r} needs scope={'None' if auth == 'none' else 'read|play|account'}"
            )

        def decorator(func: View) -> View:
            setattr(func, CONTRACT, Contract(auth, scope, rate_limit, save_checks=save_checks))
            doc = func.__dict__.setdefault("_apidoc", {})
            has_body = any(p.get("in") == "json" for p in doc.get("arguments", {}).get("parameters", []))
            codes = {400, *errors}
            codes |= {401, 403, 429} if auth != "none" else set()
            codes |= {429} if rate_limit else set()
            codes |= {413} if has_body else set()
            codes |= {503} if store else set()
            responses = doc.setdefault("response", {}).setdefault("responses", {})
            for code in sorted(codes):
                responses.setdefault(code, []).append(HTTPStatus(code).name)
            if auth != "none":
                manual = doc.setdefault("manual_doc", {})
                manual["security"] = SECURITY[auth]
                manual["x-scope"] = scope
                optional = " (when a token is sent)" if auth == "optional" else ""
                func.__doc__ = f"{(func.__doc__ or '').rstrip()}\n\nToken scope{optional}: `{scope}`."
            return func

        return decorator


def blueprint(name: str, description: str) -> ContractBlueprint:
    return ContractBlueprint(name, name, url_prefix="/api/v1", description=description)
