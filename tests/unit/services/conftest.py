"""Fixtures shared by the service tests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from services import clock
from services.clock import FakeClock

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
"""Where the fake clock starts: a Monday morning, so vacation days fall on known weekdays."""


@pytest.fixture
def fake_clock() -> Iterator[FakeClock]:
    """The platform's clock, under the test's control, from ``MONDAY``."""
    fake = FakeClock(MONDAY)
    previous = clock.use(fake)
    yield fake
    clock.use(previous)
