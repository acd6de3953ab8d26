"""The canonical JSON of a state is one text, whichever encoder writes it."""

from __future__ import annotations

import enum
import json
import types
from collections.abc import Mapping
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.jsonable import _float_free, canonical_json, encode


@dataclass(frozen=True)
class Inner:
    name: str
    marks: frozenset[int]


@dataclass(frozen=True)
class Plain:
    count: int
    inner: tuple[Inner, ...]
    by_key: dict[str, int]
    note: str | None = None


@dataclass(frozen=True)
class WithFloat:
    x: float


def _reference(value: object) -> str:
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


def test_only_types_without_floats_take_the_fast_encoder() -> None:
    assert _float_free(Plain) and _float_free(Inner)
    assert not _float_free(WithFloat)


@given(
    st.builds(
        Plain,
        count=st.integers(-(2**70), 2**70),
        inner=st.lists(st.builds(Inner, st.text(), st.frozensets(st.integers(-9, 9)))).map(tuple),
        by_key=st.dictionaries(st.text(), st.integers()),
        note=st.none() | st.text(),
    )
)
def test_the_fast_encoder_writes_the_standard_text(value: Plain) -> None:
    assert canonical_json(value) == _reference(value)


def test_a_delete_character_is_escaped_as_the_standard_library_escapes_it() -> None:
    """Hypothesis found it: ``orjson`` writes DEL (0x7f) raw, ``json`` as ``\\u007f``."""
    value = Plain(0, (Inner("\x7f", frozenset()),), {"\x7f": 0}, "\x7f")
    assert canonical_json(value) == _reference(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_are_spelt_as_the_standard_library_spells_them(x: float) -> None:
    assert canonical_json(WithFloat(x)) == _reference(WithFloat(x))


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Rank(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Tagged:
    TYPE = "tagged"
    colour: Colour
    rank: Rank
    by_number: dict[int, str]
    frozen: frozenset[str]
    view: Mapping[str, int]
    children: tuple[Inner, ...] = ()


@given(
    st.builds(
        Tagged,
        colour=st.sampled_from(Colour),
        rank=st.sampled_from(Rank),
        by_number=st.dictionaries(st.integers(-5, 5), st.text(max_size=3)),
        frozen=st.frozensets(st.text(max_size=3)),
        view=st.dictionaries(st.text(max_size=3), st.integers()).map(types.MappingProxyType),
        children=st.lists(st.builds(Inner, st.text(max_size=3), st.frozensets(st.integers(0, 3))), max_size=3).map(
            tuple
        ),
    )
)
def test_tags_enums_sets_int_keys_and_mapping_proxies_are_written_as_encode_writes_them(value: Tagged) -> None:
    assert _float_free(Tagged)
    assert canonical_json(value) == _reference(value)
