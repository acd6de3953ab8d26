"""The kernel's JSON codec on the shapes games use."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from domain.kernel import DecodeError, decode, encode


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Holder:
    where: Point | None
    tags: frozenset[str]
    counts: dict[int, tuple[int, ...]]


def test_an_optional_untagged_dataclass_round_trips() -> None:
    value = Holder(Point(1.5, -2.0), frozenset({"b", "a"}), {3: (1, 2)})
    assert encode(value) == {"where": {"x": 1.5, "y": -2.0}, "tags": ["a", "b"], "counts": {"3": [1, 2]}}
    assert decode(Holder, encode(value)) == value
    assert decode(Holder, {"where": None, "tags": [], "counts": {}}).where is None


def test_decoding_names_the_field_at_fault() -> None:
    with pytest.raises(DecodeError) as err:
        decode(Holder, {"where": {"x": "far", "y": 0}, "tags": [], "counts": {}})
    assert "where" in err.value.path
    with pytest.raises(DecodeError) as err:
        decode(Holder, {"where": None, "tags": [], "counts": {}, "extra": 1})
    assert err.value.path == "extra" and err.value.detail == "unknown field"
    with pytest.raises(DecodeError):
        decode(Point, {"x": True, "y": 0})
