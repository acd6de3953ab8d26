"""What a JSON body may hold: read once, before any route runs, and refused (a 400) unless every
store and encoder of this API can hold it (``read_json``)."""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn

from api.errors import MalformedJSON

MAX_JSON_DEPTH = 32
"""How deeply a request body may nest arrays and objects (the body itself is level 1). Moves nest
three or four levels; Python's own recursion limit (about 1,000 frames) would otherwise fail a
deeper body with a 500 somewhere between parsing and storing."""
INT64 = 2**63
"""Integers in a body lie in [-2**63, 2**63): the stores and the event encoder hold 64-bit integers."""
MAX_INT_DIGITS = 4300
"""Python refuses to read longer integer literals (``sys.get_int_max_str_digits``); so do we, as a 400."""


def read_json(data: bytes) -> Any:
    """The JSON value of a UTF-8 body, refused (``MalformedJSON``, a 400) unless this API can hold
    it: nested at most ``MAX_JSON_DEPTH`` levels, every string and key Unicode text (no lone
    surrogate such as ``"\\ud800"``, which no store can encode) without a NUL (``"\\u0000"``,
    which PostgreSQL refuses in text), every number finite and every integer within 64 bits.
    Checked here, before any route runs, so a refused body stores nothing.

    The decoder checks numbers as it reads them. Strings and depth are walked only when the text
    could hold a refused one: a lone surrogate or a NUL comes only from a ``\\u`` escape (UTF-8
    cannot encode the one, and JSON refuses the other unescaped), and deep nesting needs that many
    opening brackets (counted inside strings too, so an upper bound). Most bodies are not walked
    at all."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MalformedJSON(f"the body is not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        value = _decode(_DECODER, text)
    except _Refused:  # a number out of range: read it again, unchecked, to say where it is
        value = _decode(_PLAIN_DECODER, text)
        _walk(value)
    if b"\\u" in data or data.count(b"[") + data.count(b"{") > MAX_JSON_DEPTH:
        _walk(value)
    return value


def _decode(decoder: json.JSONDecoder, text: str) -> Any:
    try:
        return decoder.decode(text)
    except RecursionError:
        raise MalformedJSON(_TOO_DEEP) from None
    except json.JSONDecodeError as e:
        raise MalformedJSON(str(e)) from None
    except ValueError as e:  # Python's limit on integer literals, raised outside the decoder
        if "digits" in str(e):
            raise MalformedJSON(f"an integer has more than {MAX_INT_DIGITS} digits") from None
        raise MalformedJSON(str(e)) from None


def _walk(value: Any) -> None:
    try:
        _check(value, 1)
    except _Refused as e:
        raise MalformedJSON(e.message, ".".join(reversed(e.path))[:200] or None) from None


def _int(literal: str) -> int:
    """An integer literal of the body, refused beyond 64 bits (before Python reads a long one)."""
    if len(literal) > 18:
        value = int(literal) if len(literal) <= 20 else INT64
        if not -INT64 <= value < INT64:
            raise _Refused(_BEYOND_INT64)
        return value
    return int(literal)


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _Refused(_INFINITE)
    return value


def _no_constant(name: str) -> NoReturn:
    raise MalformedJSON(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_int=_int, parse_float=_float)
"""Made once: ``json.loads`` with any option builds a new decoder per call."""
_PLAIN_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_TOO_DEEP = f"the body nests arrays and objects more than {MAX_JSON_DEPTH} levels deep"
_SURROGATE = "a string holds a lone surrogate, which is not Unicode text"
_KEY_SURROGATE = "a key holds a lone surrogate, which is not Unicode text"
_NUL = "a string holds a NUL character (U+0000), which no store keeps in text"
_KEY_NUL = "a key holds a NUL character (U+0000), which no store keeps in text"
_BEYOND_INT64 = "an integer lies outside the 64-bit range [-2**63, 2**63)"
_INFINITE = "a number is too large to be represented"


class _Refused(Exception):
    """A value ``read_json`` refuses; ``path`` collects the keys above it, innermost first."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.path: list[str] = []


def _check(container: dict[str, Any] | list[Any], depth: int) -> None:
    """Checks a decoded container at ``depth``. The values are the decoder's exact builtin types,
    so ``is`` compares classes. The recursion stops at ``MAX_JSON_DEPTH``, however deep the body."""
    cls = container.__class__
    if cls is not dict and cls is not list:
        return _check_scalar(container)
    if depth > MAX_JSON_DEPTH:
        raise _Refused(_TOO_DEEP)
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, child in items:
        if key.__class__ is str:
            _check_key(key)
        child_cls = child.__class__
        try:
            if child_cls is dict or child_cls is list:
                _check(child, depth + 1)
            elif child_cls is str:
                _check_text(child)
            elif child_cls is int:
                if not -INT64 <= child < INT64:
                    raise _Refused(_BEYOND_INT64)
            elif child_cls is float and not math.isfinite(child):
                raise _Refused(_INFINITE)
        except _Refused as e:
            e.path.append(str(key))
            raise
    return None


def _check_key(key: str) -> None:
    if "\x00" in key:
        raise _Refused(_KEY_NUL)
    if not key.isascii() and not _is_text(key):
        raise _Refused(_KEY_SURROGATE)


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise _Refused(_NUL)
    if not text.isascii() and not _is_text(text):
        raise _Refused(_SURROGATE)


def _check_scalar(value: Any) -> None:
    """A body that is a lone scalar (the schema refuses it next, but it must not reach a store)."""
    try:
        _check([value], 1)
    except _Refused as e:
        e.path.clear()
        raise


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
