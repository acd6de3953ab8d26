"""The moves of every game in the OpenAPI document, from each game's own move schema.

Each game's ``Ruleset.move_schema()`` (JSON Schema 2020-12, made from its command types) becomes
components of the document: ``Move.<game>.<type>`` per command type, ``Move.<game>`` for one
game's moves (a ``oneOf`` discriminated by ``type``), and ``Move`` for a move of any game, which
``schema_fields.MoveField`` refers to wherever a move appears.

``Move`` is a ``oneOf`` discriminated by ``type`` while no two games share a move type; once
two do, the type alone no longer names the schema (two games' moves may even look alike), and
``Move`` is an ``anyOf`` of the games' ``Move.<game>``, each still discriminated by ``type``.

OpenAPI 3.0 has neither ``const`` nor the ``null`` type: ``const`` becomes a one-value ``enum``,
and ``anyOf`` with ``{"type": "null"}`` becomes ``nullable``. An integer is an ``int64`` within the
64-bit range unless the game bounds it more tightly: the server refuses any integer beyond it in
any body (400 ``malformed_json``), before the game reads the move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask_smorest import Api

from api.json_bodies import INT64
from domain.kernel import Ruleset, all_games

MOVE = "Move"
NULL = {"type": "null"}
_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}


def register(api: Api) -> None:
    """Adds the move components of every registered game to ``api``'s document."""
    spec = api.spec
    games = all_games()
    every: dict[str, str] = {}
    for ruleset in games:
        mapping = _register_game(spec, ruleset)
        every.update({f"{ruleset.slug}.{t}": ref for t, ref in mapping.items()})
    types = Counter(t for ruleset in games for t in ruleset.commands.types)
    shared = sorted(t for t, n in types.items() if n > 1)
    if not shared:
        move: dict[str, Any] = {
            "description": "A move of any game: its `type` names the command, and the game that has it.",
            "oneOf": [{"$ref": ref} for ref in every.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {name.split(".", 1)[1]: ref for name, ref in every.items()},
            },
        }
    else:
        move = {
            "description": (
                "A move of one of the games (GET /api/v1/catalog has each game's `move_schema`). "
                f"Several games have moves of type {', '.join(map(repr, shared))}: each game's moves "
                "are discriminated by `type`, the games are not."
            ),
            "anyOf": [{"$ref": _ref(f"{MOVE}.{ruleset.slug}")} for ruleset in games],
        }
    spec.components.schema(MOVE, move)


def _register_game(spec: Any, ruleset: Ruleset[Any]) -> dict[str, str]:
    """Adds ``Move.<game>.<type>`` for each type and ``Move.<game>``; returns type to reference."""
    schema = ruleset.move_schema()
    prefix = f"{MOVE}.{ruleset.slug}"
    refs = {f"#/$defs/{name}": _ref(f"{prefix}.{name}") for name in schema["$defs"]}
    for name, sub in schema["$defs"].items():
        spec.components.schema(f"{prefix}.{name}", openapi_schema(sub, refs))
    spec.components.schema(
        prefix,
        {
            "description": f"A move of {ruleset.title}: `type` names the command.",
            **openapi_schema({k: v for k, v in schema.items() if k in ("oneOf", "discriminator")}, refs),
        },
    )
    return {name: refs[f"#/$defs/{name}"] for name in schema["$defs"]}


def _ref(component: str) -> str:
    return f"#/components/schemas/{component}"


def openapi_schema(schema: Any, refs: dict[str, str]) -> Any:
    """``schema`` (the JSON Schema subset of ``domain.kernel.schema``) in OpenAPI 3.0's
    dialect, its references (and discriminator mapping) renamed by ``refs``."""
    if isinstance(schema, list):
        return [openapi_schema(s, refs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$schema":
            continue
        if key == "$ref":
            out[key] = refs[value]
        elif key == "const":
            out.update({"type": _JSON_TYPES[type(value)], "enum": [value]})
        elif key == "mapping":
            out[key] = {name: refs[ref] for name, ref in value.items()}
        elif key in ("properties", "$defs"):
            out[key] = {name: openapi_schema(sub, refs) for name, sub in value.items()}
        elif key in ("default", "enum"):
            out[key] = value
        else:
            out[key] = openapi_schema(value, refs)
    if NULL in out.get("anyOf", ()):
        out.update(_nullable([s for s in out.pop("anyOf") if s != NULL]))
    if out.get("type") == "integer":  # every body's integers lie within 64 bits (``api.parser.read_json``)
        out = {
            **out,
            "format": "int64",
            "minimum": out.get("minimum", -INT64),
            "maximum": out.get("maximum", INT64 - 1),
        }
    return out


def _nullable(options: list[dict[str, Any]]) -> dict[str, Any]:
    """OpenAPI 3.0's ``nullable`` applies to a schema with a ``type``, not to a reference."""
    if len(options) == 1 and "type" in options[0]:
        return {**options[0], "nullable": True}
    return {"anyOf": options, "nullable": True}
