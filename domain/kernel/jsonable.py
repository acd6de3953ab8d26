"""Typed conversion between domain values and JSON-native data.

Every command, event and state in ``domain/`` is a frozen dataclass whose fields
are built from ``int``, ``float``, ``str``, ``bool``, ``None``, ``Enum``,
``tuple``, ``frozenset``, ``dict`` and other such dataclasses. This module turns
them into JSON-native values (``encode``) and back (``decode``), guided by the
type hints, so that:

* a move posted as JSON is checked field by field before the rules see it;
* events round-trip through the event store unchanged (tuples stay tuples);
* a state has one canonical JSON form, hence one hash (``state_hash``).

Conventions: tuples and frozensets become lists (frozensets sorted, so the form
is canonical); ``dict`` keys become strings and are converted back with the key
type; a dataclass that has a ``TYPE`` class attribute is tagged with it, which is
how a ``Union`` of records is decoded.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import hashlib
import json
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, overload

import orjson


class DecodeError(ValueError):
    """A value does not have the declared shape; ``path`` locates it."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or '<root>'}: {message}")
        self.path = path or "<root>"
        self.detail = message


# --------------------------------------------------------------------- encode


def encode(value: object) -> Any:
    """Returns the JSON-native form of a domain value (no type hints needed).

    Typed ``Any``, as ``json.loads`` is: which JSON value comes out (an object for a
    record, a list for a tuple) depends on the value, and callers know it."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _encoder_for(type(value))
    return encoder(value)


def _same(value: Any) -> Any:
    return value


def _encode_sequence(value: Any) -> list[Any]:
    return [encode(v) for v in value]


def _encode_set(value: Any) -> list[Any]:
    return sorted((encode(v) for v in value), key=_sort_key)


def _encode_mapping(value: Any) -> dict[str, Any]:
    return {_encode_key(k): encode(v) for k, v in value.items()}


def _encode_enum(value: Any) -> Any:
    return value.value


_ENCODERS: dict[type, typing.Callable[[Any], Any]] = {
    type(None): _same,
    bool: _same,
    int: _same,
    float: _same,
    str: _same,
    tuple: _encode_sequence,
    list: _encode_sequence,
    frozenset: _encode_set,
    set: _encode_set,
    dict: _encode_mapping,
    types.MappingProxyType: _encode_mapping,
}
"""The encoder of each exact type seen so far: ``encode`` runs for every value of
every state it hashes, so it looks its type up once instead of testing it."""


def _encoder_for(cls: type) -> typing.Callable[[Any], Any]:
    """Finds the encoder of a type not seen before (a subclass, an enum or a
    dataclass) and remembers it."""
    encoder: typing.Callable[[Any], Any]
    if issubclass(cls, enum.Enum):
        encoder = _encode_enum
    elif issubclass(cls, (bool, int, float, str)):
        encoder = _same
    elif issubclass(cls, (tuple, list)):
        encoder = _encode_sequence
    elif issubclass(cls, (frozenset, set)):
        encoder = _encode_set
    elif issubclass(cls, dict):
        encoder = _encode_mapping
    elif dataclasses.is_dataclass(cls):
        encoder = _dataclass_encoder(cls)
    else:
        raise TypeError(f"cannot encode {cls.__name__}")
    _ENCODERS[cls] = encoder
    return encoder


def _dataclass_encoder(cls: type) -> typing.Callable[[Any], dict[str, Any]]:
    tag = getattr(cls, "TYPE", None)
    names = _field_names(cls)

    def encode_dataclass(value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": tag} if isinstance(tag, str) else {}
        for name in names:
            item = getattr(value, name)
            encoder = _ENCODERS.get(type(item))
            out[name] = item if encoder is _same else encode(item)
        return out

    return encode_dataclass


def _encode_key(key: Any) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise TypeError(f"dict keys must be str, int or Enum, not {type(key).__name__}")
    return str(key)


def _sort_key(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


def canonical_json(value: object) -> str:
    """One compact, key-sorted JSON text for a domain value.

    The text is the standard library's (``sort_keys``, compact separators, ASCII
    escapes, no NaN). For a dataclass whose type hints admit no float, ``orjson``
    writes the same text several times faster, and is used when its output is
    ASCII; floats are left to ``json``, whose spelling of some of them differs."""
    cls: type = type(value)
    if dataclasses.is_dataclass(cls) and _float_free(cls):
        try:
            fast = orjson.dumps(value, default=_orjson_default, option=_ORJSON_OPTIONS)
        except TypeError:  # an int beyond 64 bits, or a dict key that is not a str
            pass
        else:
            if fast.isascii():
                return fast.decode()
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


_ORJSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS


def _orjson_default(value: Any) -> Any:
    """What ``orjson`` cannot write the way ``encode`` does, it asks for here: a
    dataclass (tagged, and with only its ``init`` fields), a set, a mapping proxy.
    The values inside are handed back to ``orjson``, so the walk stays in Rust
    except at these nodes."""
    cls: type = type(value)
    names = _field_names(cls) if dataclasses.is_dataclass(cls) else None
    if names is not None:
        tag = getattr(cls, "TYPE", None)
        out: dict[str, Any] = {"type": tag} if isinstance(tag, str) else {}
        for name in names:
            out[name] = getattr(value, name)
        return out
    if isinstance(value, (frozenset, set, types.MappingProxyType)):
        return encode(value)
    raise TypeError(f"cannot encode {cls.__name__}")


@cache
def _float_free(tp: Any) -> bool:
    """Whether no value of type hint ``tp`` can hold a float (unknown hints count as floats)."""
    return _holds_no_float(tp, frozenset())


def _holds_no_float(tp: Any, seen: frozenset[type]) -> bool:
    if tp in (int, str, bool, type(None), None) or tp in seen:
        return True
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return all(type(m.value) in (int, str, bool) for m in tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp)
        return all(_holds_no_float(hints[f.name], seen | {tp}) for f in dataclasses.fields(tp) if f.init)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return all(not isinstance(a, float) for a in args)
    if origin in (Union, types.UnionType, tuple, frozenset, set, list, dict, collections.abc.Mapping):
        return bool(args) and all(a is Ellipsis or a == () or _holds_no_float(a, seen) for a in args)
    return False


def state_hash(state: object) -> str:
    """SHA-256 of the canonical JSON of a state: what audits compare."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


# --------------------------------------------------------------------- decode


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
