"""Leases on the real Redis: a live worker keeps its tasks, a killed worker's tasks go to another.

Each test uses a small Celery app with Dragonhall's lease step (``tests.support.lease_app``)
and a lease of ``VISIBILITY`` seconds; nothing else (no beat, no sweep) sends a task again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker

from tests.support.lease_app import VISIBILITY, make_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def broker(redis_url: str) -> Iterator[tuple[str, str, redis.Redis]]:
    prefix = f"lease{uuid.uuid4().hex[:8]}."
    client = redis.Redis.from_url(redis_url)
    yield redis_url, prefix, client
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


def _runs(client: redis.Redis, prefix: str) -> list[str]:
    return [r.decode() for r in client.lrange(prefix + "runs", 0, -1)]


def _wait_for(client: redis.Redis, prefix: str, label: str, timeout: float = 30) -> list[str]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = _runs(client, prefix)
        if label in runs:
            return runs
        time.sleep(0.05)
    raise AssertionError(f"{label} not run within {timeout} s: {_runs(client, prefix)}")


def test_a_live_worker_keeps_a_task_it_holds_longer_than_the_lease(broker: tuple[str, str, Any]) -> None:
    """An ETA task waits in its worker, unacknowledged, for four leases: without renewals Redis
    would queue it again after one, and it would run twice."""
    url, prefix, client = broker
    app = make_app(url, prefix)
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=10):
        app.tasks["lease_test.record"].apply_async(("late",), countdown=4 * VISIBILITY)
        app.tasks["lease_test.record"].apply_async(("after",), countdown=6 * VISIBILITY)
        runs = _wait_for(client, prefix, "after")
    assert runs == ["late", "after"]


def test_the_task_of_a_killed_worker_is_run_by_another(broker: tuple[str, str, Any]) -> None:
    url, prefix, client = broker
    app = make_app(url, prefix)
    doomed = subprocess.Popen(
        [sys.executable, "-m", "tests.support.lease_app", url, prefix],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        app.tasks["lease_test.hold"].delay("turn")
        _wait_for(client, prefix, "turn:started")
    finally:
        os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait(10)
    client.set(prefix + "release", "1")
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=10):
        runs = _wait_for(client, prefix, "turn:done")  # the lease ran out: Redis queued it again
    assert runs == ["turn:started", "turn:started", "turn:done"]
