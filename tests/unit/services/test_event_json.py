"""The fast event reader reads every stored event exactly as eventsourcing's own reader does."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, JSONTranscoder, UUIDAsHex
from hypothesis import given, settings
from hypothesis import strategies as st

from infra.event_json import FastJSONTranscoder


def _both() -> tuple[JSONTranscoder, FastJSONTranscoder]:
    out = (JSONTranscoder(), FastJSONTranscoder())
    for t in out:
        for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
            t.register(transcoding)
    return out


_custom = st.one_of(
    st.uuids(),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.datetimes(timezones=st.just(UTC)),
)
_plain = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.text(),
    st.sampled_from(["_type_", "_data_", '"_type_"']),
)
_keys = st.sampled_from(["a", "_type_", "_data_", "b"]) | st.text()
_values = st.recursive(
    st.one_of(_plain, _custom),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _values, max_size=6))
def test_any_event_state_reads_the_same_as_with_eventsourcing(state: dict[str, Any]) -> None:
    standard, fast = _both()
    data = standard.encode(state)
    assert _same(_read(fast, data), _read(standard, data))


def _read(transcoder: JSONTranscoder, data: bytes) -> Any:
    """What a reader makes of ``data``: its value, or the type of its error."""
    try:
        return transcoder.decode(data)
    except Exception as e:
        return type(e)


def test_an_event_with_a_timestamp_and_plain_data_takes_the_fast_way_and_reads_the_same() -> None:
    standard, fast = _both()
    state = {
        "timestamp": datetime(2026, 11, 26, tzinfo=UTC) + timedelta(microseconds=7),
        "seat": 1,
        "data": {"dice": [1, 6], "note": 'a "_type_" in a string'},
        "player_id": "p-1",
    }
    data = standard.encode(state)
    assert data.count(b'"_type_"') == 1
    assert fast.decode(data) == standard.decode(data) == state


def test_nested_custom_types_and_odd_numbers_fall_back_to_the_standard_reader() -> None:
    standard, fast = _both()
    for state in (
        {"at": datetime(2026, 1, 1, tzinfo=UTC), "who": {"id": uuid.uuid4()}},
        {"x": Decimal("1.5"), "big": 2**80},
        {"nan": float("nan")},
    ):
        data = standard.encode(state)
        assert _same(fast.decode(data), standard.decode(data))


def _same(a: Any, b: Any) -> bool:
    """Equality that also holds for NaN, and tells types apart (1 is not True, a str is not a UUID)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_a_custom_type_object_whose_type_is_itself_an_object_reads_as_eventsourcing_reads_it() -> None:
    """Found by hypothesis: the fast reader failed with TypeError where the standard one refuses the
    unregistered type, because it looked the inner object up as a type name."""
    standard, fast = _both()
    data = standard.encode({"a": {"_type_": uuid.UUID(int=7), "_data_": None}})
    assert _read(fast, data) is _read(standard, data)
