"""The move schema is read from the command types' hints, as the codec reads moves."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

import pytest
from jsonschema import Draft202012Validator

from domain.kernel import Codec, Command
from domain.kernel.schema import command_schema, hint_schema, move_schema


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Spot:
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Paint(Command):
    """Paint the spots."""

    colour: Colour
    spots: tuple[Spot, ...]
    ends: tuple[str, str]
    layer: int | None = None
    mode: Literal["flat", "gloss"] = "flat"


@dataclass(frozen=True, slots=True)
class Pass(Command):
    pass


def test_each_field_type_has_its_json_type() -> None:
    assert hint_schema(int) == {"type": "integer"}
    assert hint_schema(float) == {"type": "number"}
    assert hint_schema(bool) == {"type": "boolean"}
    assert hint_schema(Colour) == {"type": "string", "enum": ["red", "blue"]}
    assert hint_schema(Literal[1, 2]) == {"type": "integer", "enum": [1, 2]}
    assert hint_schema(int | None) == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert hint_schema(tuple[str, str]) == {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
    assert hint_schema(tuple[int, ...]) == {"type": "array", "items": {"type": "integer"}}
    assert hint_schema(dict[str, bool]) == {"type": "object", "additionalProperties": {"type": "boolean"}}


def test_a_hint_the_codec_cannot_read_has_no_schema() -> None:
    with pytest.raises(TypeError, match="no JSON Schema"):
        hint_schema(bytes)


def test_a_command_requires_its_type_and_fields_without_default_and_takes_no_other() -> None:
    schema = command_schema(Paint)
    assert schema["properties"]["type"] == {"const": "paint"}
    assert schema["required"] == ["type", "colour", "spots", "ends"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["mode"] == {"type": "string", "enum": ["flat", "gloss"], "default": "flat"}
    assert schema["properties"]["spots"]["items"]["required"] == ["x", "y"]
    assert schema["description"] == "Paint the spots."


def test_a_command_without_docstring_has_no_description_rather_than_its_signature() -> None:
    assert "description" not in command_schema(Pass)


def test_the_move_schema_takes_what_the_codec_takes_and_refuses_what_it_refuses() -> None:
    codec: Codec[Command] = Codec([Paint, Pass])
    validator = Draft202012Validator(move_schema(codec))
    Draft202012Validator.check_schema(move_schema(codec))
    good = {"type": "paint", "colour": "red", "spots": [{"x": 1, "y": 2.5}], "ends": ["a", "b"], "layer": None}
    assert codec.load(good) and validator.is_valid(good)
    assert validator.is_valid({"type": "pass"})
    for bad in (
        {**good, "colour": "green"},
        {**good, "ends": ["a"]},
        {**good, "layer": "1"},
        {**good, "spots": [{"x": 1}]},
        {**good, "type": "paint_it"},
        {"type": "pass", "extra": 1},
    ):
        assert not validator.is_valid(bad), bad
        with pytest.raises(ValueError):
            codec.load(bad)


def test_the_discriminator_maps_each_wire_name_to_its_schema() -> None:
    schema = move_schema(Codec([Paint, Pass]))
    assert schema["discriminator"] == {
        "propertyName": "type",
        "mapping": {"paint": "#/$defs/paint", "pass": "#/$defs/pass"},
    }
    assert schema["oneOf"] == [{"$ref": "#/$defs/paint"}, {"$ref": "#/$defs/pass"}]
