"""What the projections' tests share: a platform whose read models no runner keeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.common.ports import NullWork
from tests.conftest import make_settings
from wiring import bootstrap


@pytest.fixture(params=["sqlite", "postgres"])
def deployment(request: Any, tmp_path: Path) -> Iterator[Any]:
    """A platform whose read models run elsewhere: the test feeds its events to projections itself."""
    if request.param == "sqlite":
        cfg = make_settings("sqlite", tmp_path, embedded_projections=False)
    else:
        url, schema = request.getfixturevalue("pg_url"), request.getfixturevalue("pg_schema")
        cfg = make_settings("postgres", tmp_path, database_url=url, postgres_schema=schema, embedded_projections=False)
    platform = bootstrap(cfg, projections=False, work=NullWork())
    yield platform
    platform.close()
