"""The health model an on-call reads: a list of named checks, each ``ok`` or ``degraded`` and why.

``/healthz`` answered "ok" while no worker ran (bot turns and deadlines stopped) and
while the beat was dead (deadlines more than ten minutes away never fired). Now it
runs every check of ``HealthModel`` and says ``degraded`` when any fails, naming it:

* ``projections``: the read models' lag, degraded when events wait and the read
  models have not advanced for ``STALL`` seconds, or when more than ``MAX_LAG`` wait;
* ``workers``: with a broker, the Celery workers whose heartbeat is recent
  (``services.operations.heartbeats``), degraded when none is;
* ``sweep``: how long ago the deadline sweep last ran, degraded past ``sweep_silence``;
* ``projections.set_aside`` (added by ``wiring``): the games the game projection set aside
  because it cannot apply their events (``projections.set_aside``), degraded while there is one.

A check is any function returning a ``Check``; others add theirs with ``add`` (a
projection that sets aside a game it cannot apply reports it as one more check).
The same figures feed the gauges read at a scrape (``publish``), which the alert
rules of ``deploy/prometheus/alerts.yml`` watch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from infra import metrics
from services.common import clock
from services.common.config import Settings
from services.operations.heartbeats import SWEEP, WORKER_BEAT, Heartbeats

STALL = 30.0
"""Seconds the read models may stand still with events waiting before the check says degraded."""
MAX_LAG = 1000
"""Events waiting past which the read models are degraded however fast they move."""
WORKER_SILENCE = 3 * WORKER_BEAT
"""Seconds after a worker's last heartbeat when it no longer counts as live."""


def sweep_silence(settings: Settings) -> float:
    """Seconds without a sweep after which the sweep check says degraded: six missed intervals, at least 30 s."""
    return max(30.0, 6 * settings.sweep_interval)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    message: str
    detail: dict[str, Any] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        return {"name": self.name, "status": "ok" if self.ok else "degraded", "message": self.message, **self.detail}


class HealthModel:
    """Named checks, run in order; one that raises is degraded with its error."""

    def __init__(self) -> None:
        self._checks: list[tuple[str, Callable[[], Check]]] = []

    def add(self, name: str, check: Callable[[], Check]) -> None:
        self._checks.append((name, check))

    def checks(self, names: tuple[str, ...] | None = None) -> list[Check]:
        """The checks (those named, if given), run now."""
        out = []
        for name, check in self._checks:
            if names is not None and name not in names:
                continue
            try:
                out.append(check())
            except Exception as e:
                out.append(Check(name, False, f"the check could not run: {e}"))
        return out

    def report(self) -> dict[str, Any]:
        """``status`` (``ok``, or ``degraded`` when any check fails) and every check."""
        checks = self.checks()
        return {"status": "ok" if all(c.ok for c in checks) else "degraded", "checks": [c.dump() for c in checks]}


class ProjectionProgress:
    """The ``projections`` check: degraded while events wait and the tracked position has not
    moved for ``STALL`` seconds (a runner stopped, or no leader), or past ``MAX_LAG`` events."""

    def __init__(
        self, head: Callable[[], int], tracked: Callable[[], int], monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.head = head
        self.tracked = tracked
        self.monotonic = monotonic
        self._still: tuple[int, float] | None = None
        """The tracked position while events wait, and since when it has not moved."""
        self._lock = threading.Lock()

    def __call__(self) -> Check:
        head, tracked = self.head(), self.tracked()
        lag = max(0, head - tracked)
        detail = {"head": head, "tracked": tracked, "lag": lag}
        with self._lock:
            if lag == 0:
                self._still = None
            elif self._still is None or self._still[0] != tracked:
                self._still = (tracked, self.monotonic())
            still = 0.0 if self._still is None else self.monotonic() - self._still[1]
        if lag and still >= STALL:
            return Check(
                "projections",
                False,
                f"the read models have not advanced for {still:.0f} s with {lag} events to process: is a "
                "`dragonhall projections` leading (its log, pg_locks)?",
                detail,
            )
        if lag > MAX_LAG:
            return Check("projections", False, f"the read models are {lag} events behind", detail)
        return Check("projections", True, f"{lag} events to process", detail)


class Workers:
    """The ``workers`` check: with a broker, how many workers beat within ``WORKER_SILENCE``."""

    def __init__(self, settings: Settings, heartbeats: Heartbeats) -> None:
        self.settings = settings
        self.heartbeats = heartbeats

    def __call__(self) -> Check:
        if self.settings.embedded:
            return Check("workers", True, "the jobs run on threads of the server's processes", {"live": 1})
        live = self.heartbeats.seen_since("worker", clock.now() - timedelta(seconds=WORKER_SILENCE))
        if live:
            return Check("workers", True, f"{live} workers seen in the last {WORKER_SILENCE:.0f} s", {"live": live})
        last = self.heartbeats.last_seen("worker")
        since = f"since {last.isoformat(timespec='seconds')}" if last else "running (none has a heartbeat)"
        return Check(
            "workers",
            False,
            f"no worker seen {since}: bot turns, deadlines and webhooks wait (`dragonhall worker`, and its broker)",
            {"live": 0},
        )


class Sweep:
    """The ``sweep`` check: how long ago the deadline sweep ran; a process younger than the
    silence allowed waits for the first one."""

    def __init__(self, settings: Settings, heartbeats: Heartbeats, monotonic: Callable[[], float] = time.monotonic):
        self.settings = settings
        self.heartbeats = heartbeats
        self.monotonic = monotonic
        self.started = monotonic()

    def __call__(self) -> Check:
        silence = sweep_silence(self.settings)
        last = self.heartbeats.last_seen(SWEEP)
        age = None if last is None else max(0.0, (clock.now() - last).total_seconds())
        detail = {"age_seconds": None if age is None else round(age, 1)}
        if age is not None and age <= silence:
            return Check("sweep", True, f"the deadline sweep ran {age:.0f} s ago", detail)
        if age is None and self.monotonic() - self.started < silence:
            return Check("sweep", True, "waiting for the first deadline sweep", detail)
        where = "the server's sweep thread" if self.settings.embedded else "`dragonhall worker --beat` (exactly one)"
        ago = "in the last day" if age is None else f"for {age:.0f} s"
        return Check(
            "sweep", False, f"no deadline sweep {ago}: deadlines and scheduled games wait; check {where}", detail
        )


def publish(report: dict[str, Any]) -> None:
    """Sets the gauges read at a scrape from a health report: each check, the read models' lag,
    the games they set aside, the live workers and the sweep's age (infinite when none ran)."""
    for check in report["checks"]:
        metrics.HEALTH_CHECK.labels(check["name"]).set(1 if check["status"] == "ok" else 0)
        if check["name"] == "projections":
            metrics.PROJECTION_LAG.set(check["lag"])
        elif check["name"] == "workers":
            metrics.WORKERS_LIVE.set(check["live"])
        elif check["name"] == "projections.set_aside":
            metrics.GAMES_SET_ASIDE.set(check["count"])
        elif check["name"] == "sweep":
            age = check["age_seconds"]
            metrics.SWEEP_AGE.set(float("inf") if age is None else age)
