"""JSON Schema of a game's moves, read from the type hints of its commands.

The hints of a command dataclass are what ``decoding.decode`` checks a posted move
against, so a schema made from them says what ``Ruleset.parse_move`` accepts, and
nothing else: no second description to keep in step. ``move_schema(codec)`` is one
schema for every move of a game: a ``oneOf`` of one schema per command type (under
``$defs``, named by the type), discriminated by ``type``.

The schemas use the JSON Schema 2020-12 keywords that OpenAPI 3.0.3 also has, plus
``const`` for the discriminator and ``anyOf`` with ``{"type": "null"}`` for an optional
value (``int | None``), which OpenAPI 3.0 spells ``enum`` and ``nullable``.

What the codec checks, the schema says: a field's JSON type, enum and literal values,
the length of a fixed tuple, required fields (those without a default) and that no
other field is allowed. Bounds the rules check in ``decide`` (a speed, a seat) are not
shape and are not in it. One difference of JSON: the schema's ``integer`` admits ``1.0``,
which the codec refuses as a float.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import inspect
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from domain.kernel.jsonable import encode
from domain.kernel.records import Codec, Command

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_SCALARS: dict[object, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}


def move_schema(codec: Codec[Command]) -> dict[str, Any]:
    """One schema that every move of ``codec``'s types satisfies, in the flat wire form
    ``{"type": ..., **fields}``: each command type's schema under ``$defs``, and a ``oneOf``
    of references to them, discriminated by ``type``."""
    defs = {name: command_schema(cls) for name, cls in codec.by_type.items()}
    refs = {name: f"#/$defs/{name}" for name in defs}
    return {
        "$schema": DIALECT,
        "$defs": defs,
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


def command_schema(cls: type[Command]) -> dict[str, Any]:
    """The schema of one command type: an object whose ``type`` is the command's wire name
    (required, as ``Codec.load`` requires it), with its fields and no other."""
    return _record(cls, tag_required=True)


def _record(cls: type, tag_required: bool) -> dict[str, Any]:
    hints = get_type_hints(cls)
    tag = getattr(cls, "TYPE", None)
    properties: dict[str, Any] = {}
    required: list[str] = []
    if isinstance(tag, str):
        properties["type"] = {"const": tag}
        if tag_required:
            required.append("type")
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        prop = hint_schema(hints[f.name])
        if f.default is not dataclasses.MISSING:
            prop = {**prop, "default": encode(f.default)}
        elif f.default_factory is dataclasses.MISSING:
            required.append(f.name)
        properties[f.name] = prop
    out: dict[str, Any] = {"type": "object"}
    doc = _docstring(cls)
    if doc:
        out["description"] = doc
    out["properties"] = properties
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def hint_schema(tp: object) -> dict[str, Any]:
    """The schema of the JSON form of values of type hint ``tp``, as ``jsonable`` writes
    and reads them. Raises ``TypeError`` for a hint the codec cannot decode either."""
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _values([m.value for m in tp])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _record(tp, tag_required=False)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return _values(list(args))
    if origin in (Union, types.UnionType):
        return _union(args)
    if origin is tuple:
        return _tuple(args)
    if origin in (list, frozenset, set):
        return {"type": "array", "items": hint_schema(args[0])}
    if origin in (dict, collections.abc.Mapping):
        return {"type": "object", "additionalProperties": hint_schema(args[1]) if args else {}}
    raise TypeError(f"no JSON Schema for type hint {tp!r}")


def _values(values: list[Any]) -> dict[str, Any]:
    """An enumeration, typed when all its values share one JSON type."""
    kinds = {_SCALARS.get(type(v)) for v in values}
    out: dict[str, Any] = {"type": kinds.pop()} if len(kinds) == 1 and None not in kinds else {}
    return {**out, "enum": values}


def _union(args: tuple[Any, ...]) -> dict[str, Any]:
    options = [hint_schema(a) for a in args if a is not type(None)]
    nullable = len(options) < len(args)
    if nullable:
        options.append({"type": "null"})
    return {"anyOf": options}


def _tuple(args: tuple[Any, ...]) -> dict[str, Any]:
    if len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": hint_schema(args[0])}
    if args in ((), ((),)):
        return {"type": "array"}
    items = [hint_schema(a) for a in args]
    distinct = [s for i, s in enumerate(items) if s not in items[:i]]
    # A fixed tuple of mixed items would take prefixItems, which OpenAPI 3.0 lacks: the
    # schema then admits any of its item types at each place, and the codec checks the order.
    one = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
    return {"type": "array", "items": one, "minItems": len(items), "maxItems": len(items)}


def _docstring(cls: type) -> str:
    """The class's own docstring; not the signature ``@dataclass`` writes for a class without one."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or doc.startswith(f"{cls.__name__}("):
        return ""
    return inspect.cleandoc(doc)
