"""Typed conversion between domain values and JSON-native data.

Every command, event and state in ``domain/`` is a frozen dataclass whose fields
are built from ``int``, ``float``, ``str``, ``bool``, ``None``, ``Enum``,
``tuple``, ``frozenset``, ``dict`` and other such dataclasses. This module turns
them into JSON-native values (``encode``) and back (``decode``, in
``domain.kernel.decoding``), guided by the type hints, so that:

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
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import orjson


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
    printable ASCII (``json`` escapes DEL, ``orjson`` does not); floats are left to
    ``json``, whose spelling of some of them differs."""
    cls: type = type(value)
    if dataclasses.is_dataclass(cls) and _float_free(cls):
        try:
            fast = orjson.dumps(value, default=_orjson_default, option=_ORJSON_OPTIONS)
        except TypeError:  # an int beyond 64 bits, or a dict key that is not a str
            pass
        else:
            if fast.isascii() and b"\x7f" not in fast:  # json escapes DEL; orjson writes it raw
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
