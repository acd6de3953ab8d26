"""Processes that start at once on a fresh store: the server, its workers and the projection
process each create the tables they use, and none may fail for it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

pytestmark = pytest.mark.slow

START = """
import sys, time
from wiring import bootstrap
from services.common.ports import NullWork
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))  # all begin creating tables at the same moment
bootstrap(projections=sys.argv[2] == "1", work=NullWork()).close()
"""
PROCESSES = 4
ROUNDS = 2


def _start_together(env: dict[str, str]) -> list[str]:
    """Starts ``PROCESSES`` bootstraps at one moment (half with a projection runner); their errors."""
    at = time.time() + 4
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", START, str(at), str(i % 2)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    failures = []
    try:
        for p in procs:
            _, err = p.communicate(timeout=120)
            if p.returncode != 0:
                failures.append(err.strip().splitlines()[-1] if err.strip() else f"exit {p.returncode}")
    finally:
        for p in procs:
            p.kill()  # one that hung (a runner left running) must not outlive the test
    return failures


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "DRAGONHALL_SECRET_KEY": "33" * 32, **extra}
    env.pop("DRAGONHALL_BROKER_URL", None)
    return env


@pytest.fixture
def schemas(pg_url: str) -> Iterator[list[str]]:
    made = [f"t_{uuid.uuid4().hex[:12]}" for _ in range(ROUNDS)]
    yield made
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for schema in made:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_processes_starting_together_on_a_fresh_postgres_schema_all_come_up(
    pg_url: str, schemas: list[str], tmp_path: Path
) -> None:
    """Unlocked, two sessions creating one table both find it missing and one fails on a
    duplicate key; two replacing one function fail with "tuple concurrently updated"."""
    for schema in schemas:
        env = _env(
            DRAGONHALL_STORE="postgres",
            DRAGONHALL_DATABASE_URL=pg_url,
            DRAGONHALL_POSTGRES_SCHEMA=schema,
            DRAGONHALL_DATA_DIR=str(tmp_path / schema),
        )
        assert _start_together(env) == [], schema


def test_processes_starting_together_on_a_fresh_sqlite_directory_all_come_up(tmp_path: Path) -> None:
    """Unlocked, eventsourcing's SQLite tracking table is created by two processes at once and
    the second fails with "Failed to record tracking for __migration__ 1"."""
    for n in range(ROUNDS):
        env = _env(DRAGONHALL_STORE="sqlite", DRAGONHALL_DATA_DIR=str(tmp_path / f"var{n}"))
        env.pop("DRAGONHALL_DATABASE_URL", None)
        assert _start_together(env) == [], n
