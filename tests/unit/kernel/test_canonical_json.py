"""The canonical JSON of a state is one text, whichever encoder writes it."""

from __future__ import annotations

import json
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


@given(st.builds(Plain, count=st.integers(-2**70, 2**70),
                 inner=st.lists(st.builds(Inner, st.text(), st.frozensets(st.integers(-9, 9)))).map(tuple),
                 by_key=st.dictionaries(st.text(), st.integers()), note=st.none() | st.text()))
def test_the_fast_encoder_writes_the_standard_text(value: Plain) -> None:
    assert canonical_json(value) == _reference(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_are_spelt_as_the_standard_library_spells_them(x: float) -> None:
    assert canonical_json(WithFloat(x)) == _reference(WithFloat(x))
