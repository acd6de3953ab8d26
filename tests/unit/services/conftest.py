"""Fixtures shared by the service tests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from services.common import clock
from services.common.clock import FakeClock
from services.common.ports import NullWork
from tests.conftest import make_settings

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
"""Where the fake clock starts: a Monday morning, so vacation days fall on known weekdays."""


@pytest.fixture
def fake_clock() -> Iterator[FakeClock]:
    """The platform's clock, under the test's control, from ``MONDAY``."""
    fake = FakeClock(MONDAY)
    previous = clock.use(fake)
    yield fake
    clock.use(previous)


@pytest.fixture
def two_writers(tmp_path: Path) -> Iterator[list[Any]]:
    """Two platforms on one SQLite store, as two server processes would have."""
    from wiring import bootstrap

    made = [
        bootstrap(make_settings("sqlite", tmp_path, http_workers=2), projections=False, work=NullWork())
        for _ in range(2)
    ]
    yield made
    for p in made:
        p.close()
