"""What a request may hold, checked once for every route, and how each route documents its contract.

* Bodies: webargs reads them with ``ContractParser``, which speaks the contract (a schema error or
  bad JSON is our 400) and reads only JSON this API can store (``read_json``).
* Query strings: ``refuse_undeclared_query`` runs before every route and refuses any parameter the
  route does not declare (from the same ``@blp.arguments(..., location="query")`` schemas that
  parse and document them), so a misspelt parameter is an error rather than silently dropped.
* Documentation: ``ContractBlueprint.contract`` documents a route's bearer security and every
  status code it answers, each error with the one error body (``api.errors``).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, Literal, NoReturn

from flask import current_app, request
from flask_smorest import Blueprint
from flask_smorest.utils import resolve_schema_instance
from webargs import core
from webargs.flaskparser import FlaskParser

from api.errors import MalformedJSON, RequestInvalid

MAX_JSON_DEPTH = 32
"""How deeply a request body may nest arrays and objects (the body itself is level 1). Moves nest
three or four levels; Python's own recursion limit (about 1,000 frames) would otherwise fail a
deeper body with a 500 somewhere between parsing and storing."""
INT64 = 2**63
"""Integers in a body lie in [-2**63, 2**63): the stores and the event encoder hold 64-bit integers."""
MAX_INT_DIGITS = 4300
"""Python refuses to read longer integer literals (``sys.get_int_max_str_digits``); so do we, as a 400."""

Auth = Literal["none", "optional", "required"]
SECURITY: dict[str, list[dict[str, list[str]]]] = {
    "required": [{"bearer": []}],
    "optional": [{}, {"bearer": []}],  # OpenAPI's way to say "with or without a token"
}


class ContractParser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400

    def handle_error(self, error: Any, req: Any, schema: Any, *, error_status_code: Any,
                     error_headers: Any) -> NoReturn:
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


def read_json(data: bytes) -> Any:
    """The JSON value of a UTF-8 body, refused (``MalformedJSON``, a 400) unless this API can hold
    it: nested at most ``MAX_JSON_DEPTH`` levels, every string and key Unicode text (no lone
    surrogate such as ``"\\ud800"``, which no store can encode), every number finite and every
    integer within 64 bits. Checked here, before any route runs, so a refused body stores nothing."""
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as e:
        raise MalformedJSON(f"the body is not UTF-8 ({e.reason} at byte {e.start})") from None
    except RecursionError:
        raise MalformedJSON(_too_deep()) from None
    except json.JSONDecodeError as e:
        raise MalformedJSON(str(e)) from None
    except ValueError as e:  # Python's limit on integer literals, raised outside the decoder
        if "digits" in str(e):
            raise MalformedJSON(f"an integer has more than {MAX_INT_DIGITS} digits") from None
        raise MalformedJSON(str(e)) from None
    _check_value(value)
    return value


def _no_constant(name: str) -> NoReturn:
    raise MalformedJSON(f"{name} is not a JSON number")


def _too_deep() -> str:
    return f"the body nests arrays and objects more than {MAX_JSON_DEPTH} levels deep"


def _check_value(value: Any) -> None:
    """Walks the value without recursion; the path to a bad value is built only when one is found."""
    stack: list[tuple[Any, int, Any]] = [(value, 1, None)]
    while stack:
        item, depth, trail = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_JSON_DEPTH:
                raise MalformedJSON(_too_deep(), _path(trail))
            for key, child in item.items():
                if not _is_text(key):
                    raise MalformedJSON("a key holds a lone surrogate, which is not Unicode text", _path(trail))
                stack.append((child, depth + 1, (trail, key)))
        elif isinstance(item, list):
            if depth > MAX_JSON_DEPTH:
                raise MalformedJSON(_too_deep(), _path(trail))
            stack.extend((child, depth + 1, (trail, i)) for i, child in enumerate(item))
        elif isinstance(item, str):
            if not _is_text(item):
                raise MalformedJSON("a string holds a lone surrogate, which is not Unicode text", _path(trail))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not -INT64 <= item < INT64:
                raise MalformedJSON("an integer lies outside the 64-bit range [-2**63, 2**63)", _path(trail))
        elif isinstance(item, float) and not math.isfinite(item):
            raise MalformedJSON("a number is too large to be represented", _path(trail))


def _is_text(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _path(trail: Any) -> str | None:
    """``move.cards.0`` from the chain of (parent, key) pairs; None at the body itself."""
    parts: list[str] = []
    while trail is not None:
        trail, key = trail
        parts.append(str(key))
    return ".".join(reversed(parts))[:200] or None


# ------------------------------------------------------------------ query strings


def refuse_undeclared_query() -> None:
    """Before every route: a query parameter the route does not declare, or one given twice, is a
    400 naming it. Routes without query arguments (most of them) take none."""
    if not request.query_string:
        return
    endpoint = request.endpoint
    if endpoint is None:  # no such route: the 404 or 405 comes next
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

    def contract(self, *, auth: Auth, errors: Iterable[int] = (), store: bool = True) -> Callable[[Any], Any]:
        """Documents what a route answers besides its success: its bearer ``security``, and each
        error status with the error body. Put it under ``@blp.route`` and above ``@blp.arguments``.

        ``errors`` lists the route's own errors (403, 404, 409, 422); those every route of its kind
        answers are added here: 400 (an undeclared query parameter, and any schema error), 401
        with ``auth`` (a bad token is refused even where a token is optional), 413 with a JSON
        body, and 503 with ``store`` (a store that cannot be reached for now)."""
        def decorator(func: Any) -> Any:
            doc = func.__dict__.setdefault("_apidoc", {})
            has_body = any(p.get("in") == "json" for p in doc.get("arguments", {}).get("parameters", []))
            codes = {400, *errors}
            codes |= {401} if auth != "none" else set()
            codes |= {413} if has_body else set()
            codes |= {503} if store else set()
            responses = doc.setdefault("response", {}).setdefault("responses", {})
            for code in sorted(codes):
                responses.setdefault(code, []).append(HTTPStatus(code).name)
            if auth != "none":
                doc.setdefault("manual_doc", {})["security"] = SECURITY[auth]
            return func
        return decorator


def blueprint(name: str, description: str) -> ContractBlueprint:
    return ContractBlueprint(name, name, url_prefix="/api/v1", description=description)
