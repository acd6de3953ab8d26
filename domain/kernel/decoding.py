"""Typed conversion from JSON-native data back to domain values (``decode``), guided by the
type hints; ``domain.kernel.jsonable`` holds the way there (``encode``) and its conventions.

A move posted as JSON is checked here field by field before the rules see it, and a stored
event comes back as it was (tuples stay tuples). ``DecodeError`` names the first field
that does not fit.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, overload


class DecodeError(ValueError):
    """A value does not have the declared shape; ``path`` locates it."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '<root>'}: {message}")
        self.path = path or "<root>"
        self.detail = message


T = TypeVar("T")


@overload
def decode(tp: type[T], data: object, path: str = "") -> T: ...
@overload
def decode(tp: object, data: object, path: str = "") -> Any: ...
def decode(tp: object, data: object, path: str = "") -> Any:
    """Builds a value of type ``tp`` from JSON-native ``data``: a ``tp`` when it is a
    class, else (a hint such as ``tuple[int, ...]`` or ``int | None``) what it describes.

    Raises ``DecodeError`` naming the first field that does not fit. Unknown
    and missing dataclass fields are errors, as are bools given for ints.
    """
    return _decoder(tp)(data, path)


Decoder = typing.Callable[[Any, str], Any]


@cache
def _decoder(tp: Any) -> Decoder:
    if tp is Any:
        return lambda d, p: d
    if tp is type(None) or tp is None:
        return _none
    if tp in (int, float, str, bool):
        return _scalar(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return _literal(args)
    if origin in (Union, types.UnionType):
        return _union(args)
    if origin is tuple:
        return _tuple(args)
    if origin in (frozenset, set):
        inner = _decoder(args[0])
        return lambda d, p: frozenset(inner(v, f"{p}[{i}]") for i, v in enumerate(_list(d, p)))
    if origin in (dict, collections.abc.Mapping):
        return _dict(args)
    if origin is list:
        inner = _decoder(args[0])
        return lambda d, p: [inner(v, f"{p}[{i}]") for i, v in enumerate(_list(d, p))]
    raise TypeError(f"unsupported type hint {tp!r}")


def _none(d: Any, p: str) -> None:
    if d is not None:
        raise DecodeError(p, f"expected null, got {_show(d)}")


def _scalar(tp: type) -> Decoder:
    def dec(d: Any, p: str) -> Any:
        if tp is float and isinstance(d, int) and not isinstance(d, bool):
            return float(d)
        if isinstance(d, bool) and tp is not bool:
            raise DecodeError(p, f"expected {tp.__name__}, got a boolean")
        if not isinstance(d, tp):
            raise DecodeError(p, f"expected {tp.__name__}, got {_show(d)}")
        return d

    return dec


def _enum(tp: type[enum.Enum]) -> Decoder:
    def dec(d: Any, p: str) -> Any:
        try:
            return tp(d)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise DecodeError(p, f"expected one of {allowed}, got {_show(d)}") from None

    return dec


def _literal(args: tuple[Any, ...]) -> Decoder:
    def dec(d: Any, p: str) -> Any:
        for a in args:
            if d == a and type(d) is type(a):
                return a
        raise DecodeError(p, f"expected one of {', '.join(map(repr, args))}, got {_show(d)}")

    return dec


def _union(args: tuple[Any, ...]) -> Decoder:
    tagged: dict[str, type] = {}
    for a in args:
        tag = getattr(a, "TYPE", None)
        if isinstance(a, type) and dataclasses.is_dataclass(a) and isinstance(tag, str):
            tagged[tag] = a
    decoders = [_decoder(a) for a in args]

    def dec(d: Any, p: str) -> Any:
        if d is None and type(None) in args:
            return None
        if isinstance(d, dict) and d.get("type") in tagged:
            return _decoder(tagged[d["type"]])(d, p)
        errors = []
        for one in decoders:
            try:
                return one(d, p)
            except DecodeError as e:
                errors.append(e.detail)
        raise DecodeError(p, " or ".join(dict.fromkeys(errors)))

    return dec


def _tuple(args: tuple[Any, ...]) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        inner = _decoder(args[0])
        return lambda d, p: tuple(inner(v, f"{p}[{i}]") for i, v in enumerate(_list(d, p)))
    if args == ((),) or not args:
        return lambda d, p: tuple(_list(d, p))
    parts = [_decoder(a) for a in args]

    def dec(d: Any, p: str) -> tuple[Any, ...]:
        items = _list(d, p)
        if len(items) != len(parts):
            raise DecodeError(p, f"expected {len(parts)} items, got {len(items)}")
        return tuple(f(v, f"{p}[{i}]") for i, (f, v) in enumerate(zip(parts, items, strict=True)))

    return dec


def _dict(args: tuple[Any, ...]) -> Decoder:
    key_tp, val_tp = args if args else (str, Any)
    val = _decoder(val_tp)

    def key(k: str, p: str) -> Any:
        if key_tp is str:
            return k
        if key_tp is int:
            try:
                return int(k)
            except ValueError:
                raise DecodeError(p, f"expected an integer key, got {k!r}") from None
        return _decoder(key_tp)(k, p)

    def dec(d: Any, p: str) -> dict[Any, Any]:
        if not isinstance(d, dict):
            raise DecodeError(p, f"expected an object, got {_show(d)}")
        return {key(k, p): val(v, f"{p}.{k}") for k, v in d.items()}

    return dec


def _dataclass(cls: type) -> Decoder:
    hints = get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    required = {f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    decoders = {f.name: _decoder(hints[f.name]) for f in fields}
    tag = getattr(cls, "TYPE", None)

    def dec(d: Any, p: str) -> Any:
        if not isinstance(d, dict):
            raise DecodeError(p, f"expected an object, got {_show(d)}")
        if isinstance(tag, str) and "type" in d and d["type"] != tag:
            raise DecodeError(_join(p, "type"), f"expected {tag!r}, got {_show(d['type'])}")
        unknown = sorted(set(d) - set(decoders) - {"type"})
        if unknown:
            raise DecodeError(_join(p, unknown[0]), "unknown field")
        missing = sorted(required - set(d))
        if missing:
            raise DecodeError(_join(p, missing[0]), "missing field")
        kwargs = {k: decoders[k](v, _join(p, k)) for k, v in d.items() if k != "type"}
        return cls(**kwargs)

    return dec


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _list(d: Any, p: str) -> list[Any]:
    if not isinstance(d, (list, tuple)):
        raise DecodeError(p, f"expected a list, got {_show(d)}")
    return list(d)


def _show(d: Any) -> str:
    text = json.dumps(d) if isinstance(d, (int, float, str, bool, type(None))) else type(d).__name__
    return text if len(text) <= 40 else text[:37] + "..."
