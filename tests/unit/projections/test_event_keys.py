"""The read side's game ids and timestamps, each made once per event (``projections.event_keys``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from projections import event_keys
from projections.event_keys import game_of, stamp_of


@dataclass
class Event:
    originator_id: uuid.UUID
    timestamp: datetime


def test_an_event_is_named_as_str_and_isoformat_name_it() -> None:
    event = Event(uuid.uuid4(), datetime(2026, 11, 30, 10, 0, 0, 123456, tzinfo=UTC))
    assert game_of(event) == str(event.originator_id)
    assert stamp_of(event) == "2026-11-30T10:00:00.123456+00:00"
    assert (game_of(event), stamp_of(event)) == (str(event.originator_id), event.timestamp.isoformat())


def test_an_instant_written_in_another_time_zone_keeps_its_own_text() -> None:
    at = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    elsewhere = at.astimezone(timezone(timedelta(hours=1)))
    assert at == elsewhere and hash(at) == hash(elsewhere)
    gid = uuid.uuid4()
    assert stamp_of(Event(gid, at)) == "2026-11-30T10:00:00+00:00"
    assert stamp_of(Event(gid, elsewhere)) == "2026-11-30T11:00:00+01:00"


def test_the_caches_stay_bounded() -> None:
    for _ in range(event_keys.KEPT + 10):
        event = Event(uuid.uuid4(), datetime.now(UTC))
        assert game_of(event) == str(event.originator_id)
        assert stamp_of(event) == event.timestamp.isoformat()
    assert len(event_keys._games) <= event_keys.KEPT
    assert len(event_keys._stamps) <= event_keys.KEPT
