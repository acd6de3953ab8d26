"""``api.json_bodies.read_json``: the text screen that skips the value check never skips a refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from api.errors import MalformedJSON
from api.json_bodies import INT64, MAX_JSON_DEPTH, _check, _Refused, read_json

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.text(alphabet=st.characters(categories=["Cs"]) | st.characters(), min_size=1, max_size=3),  # lone surrogates
)


def _nested(levels: int) -> Any:
    """``levels`` lists, one in another."""
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def _refused_by_the_full_check(value: Any) -> bool:
    try:
        _check([value], 0)  # the wrapping list is level 0: ``value`` is the body, level 1
    except _Refused:
        return True
    return False


@settings(max_examples=400, deadline=None)
@given(
    value=st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(scalars.filter(lambda v: isinstance(v, str)) | st.text(max_size=4), inner, max_size=3)
        ),
        max_leaves=12,
    ),
    depth=st.integers(min_value=1, max_value=40),
)
@example(value="a\udc00", depth=1)
@example(value={"\ud800": 1}, depth=1)
@example(value=[2**63], depth=1)
@example(value=[-(2**63)], depth=MAX_JSON_DEPTH - 1)
@example(value=None, depth=MAX_JSON_DEPTH)
def test_a_body_is_refused_exactly_when_the_full_check_refuses_it(value: Any, depth: int) -> None:
    body = {"v": value, "deep": _nested(depth)}
    text = json.dumps(body)  # ensure_ascii: every non-ASCII character, a surrogate too, is a \u escape
    refused = _refused_by_the_full_check(body)
    if refused:
        with pytest.raises(MalformedJSON):
            read_json(text.encode())
    else:
        assert read_json(text.encode()) == body


def test_the_limits_are_where_the_documentation_says() -> None:
    assert read_json(json.dumps(_nested(MAX_JSON_DEPTH)).encode()) == _nested(MAX_JSON_DEPTH)
    with pytest.raises(MalformedJSON):
        read_json(json.dumps(_nested(MAX_JSON_DEPTH + 1)).encode())
    assert read_json(json.dumps([INT64 - 1, -INT64]).encode()) == [INT64 - 1, -INT64]
    for bad in (INT64, -INT64 - 1):
        with pytest.raises(MalformedJSON):
            read_json(json.dumps({"n": bad}).encode())
    for text in ("NaN", "[Infinity]", '{"x": -Infinity}', "1e400", '"\\udc00"', '{"\\ud800": 1}'):
        with pytest.raises(MalformedJSON):
            read_json(text.encode())
