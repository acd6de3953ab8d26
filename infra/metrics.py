"""Prometheus metrics of every Dragonhall process, served by ``GET /metrics`` and ``--metrics-port``.

Each ``dragonhall`` command runs several processes (``serve``: HTTP processes and a
projection process; ``worker``: a supervised Celery worker and its beat), so the
official client runs in its multiprocess mode: each process writes its samples to
files in the command's own directory (``PROMETHEUS_MULTIPROC_DIR``, set by the command
before anything imports the client, ``infra.metrics_dir``), and the process that
answers a scrape adds up that directory's files (``exposition``): an HTTP process of
``serve`` on ``/metrics``, the others on their metrics port (``infra.metrics_server``).
Gauges count only live processes; a dead process's counters stay in the sums.
Without the variable (tests, a process built by hand) each process keeps its own.

The metrics are listed, with their labels, in ``docs/metrics.md``.

The two counted on every request (``MOVES_BY``, ``REQUEST_SECONDS_BY``) are ``Deferred``: in
multiprocess mode each count takes the client's lock, asks the system for the process id and
writes to a memory-mapped file (10-20 µs on this machine), so a request only appends its count to
a queue, and a thread of this process writes what has queued once a second (``FLUSH_SECONDS``),
one write per label and bucket, and at once before this process answers a scrape.
"""

from __future__ import annotations

import atexit
import bisect
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from infra.metrics_dir import MULTIPROC, forget_dead

MOVES = Counter(
    "dragonhall_moves", "Moves submitted through the API, by game and outcome (accepted, or the refusal's code)",
    ["game", "outcome"],
)  # fmt: skip
REQUEST_SECONDS = Histogram(
    "dragonhall_request_seconds", "Time to answer a request, by route (the URL rule) and method",
    ["route", "method"], buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)  # fmt: skip
PROJECTION_LAG = Gauge(
    "dragonhall_projection_lag_events", "Events saved that the read models have not yet processed (at the scrape)",
    multiprocess_mode="livemostrecent",
)  # fmt: skip
TIMER_LATENESS = Histogram(
    "dragonhall_timer_lateness_seconds", "How late a deadline fired after it passed",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
)  # fmt: skip
BOT_TURNS = Counter(
    "dragonhall_bot_turns", "Bot tasks run, by outcome: played, or wasted (the decision was made already)",
    ["outcome"],
)  # fmt: skip
REMINDERS = Counter("dragonhall_reminders", "Reminders recorded for players whose turn is about to time out")
WEBHOOKS = Counter("dragonhall_webhook_deliveries", "Webhook delivery attempts, by result", ["result"])
OPEN_STREAMS = Gauge(
    "dragonhall_open_streams", "Streams and long polls held open now", multiprocess_mode="livesum",
)  # fmt: skip
WORKERS_LIVE = Gauge(
    "dragonhall_workers_live", "Celery workers whose heartbeat is recent (at the scrape; 1 in the embedded default)",
    multiprocess_mode="livemostrecent",
)  # fmt: skip
SWEEP_AGE = Gauge(
    "dragonhall_sweep_age_seconds", "Seconds since the deadline sweep last ran (at the scrape)",
    multiprocess_mode="livemostrecent",
)  # fmt: skip
GAMES_SET_ASIDE = Gauge(
    "dragonhall_games_set_aside", "Games the read models set aside, unable to apply their events (at the scrape)",
    multiprocess_mode="livemostrecent",
)  # fmt: skip
HEALTH_CHECK = Gauge(
    "dragonhall_health_check_ok", "1 while a check of /healthz passes, 0 while it says degraded (at the scrape)",
    ["check"], multiprocess_mode="livemostrecent",
)  # fmt: skip


class Children:
    """The labelled children of a metric, kept once made: ``labels()`` checks and joins its
    values on every call, which cost more than the count itself on a request's path."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self._made: dict[tuple[str, ...], Any] = {}

    def __call__(self, *values: str) -> Any:
        child = self._made.get(values)
        if child is None:
            child = self._made.setdefault(values, self.metric.labels(*values))
        return child


FLUSH_SECONDS = 1.0
_queue: deque[tuple[Any, bool, float]] = deque()
"""(child, whether it observes, amount): appended by request threads, taken by ``flush``."""
_flusher: list[threading.Thread] = []
_flushing = threading.Lock()


class Deferred:
    """The labelled children of a metric counted on a request's path: ``inc`` and ``observe`` append to
    a queue (``deque.append`` needs no lock), and ``flush`` writes them."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self.observes = isinstance(metric, Histogram)
        self._made: dict[tuple[str, ...], _Queued] = {}

    def __call__(self, *values: str) -> _Queued:
        child = self._made.get(values)
        if child is None:
            child = self._made.setdefault(values, _Queued(self.metric.labels(*values), self.observes))
        return child


class _Queued:
    __slots__ = ("child", "observes")

    def __init__(self, child: Any, observes: bool) -> None:
        self.child = child
        self.observes = observes

    def inc(self, amount: float = 1.0) -> None:
        _queue.append((self.child, False, amount))
        if not _flusher:
            _start_flusher()

    def observe(self, amount: float) -> None:
        _queue.append((self.child, True, amount))
        if not _flusher:
            _start_flusher()


def flush() -> None:
    """Writes the queued counts and observations: one ``inc`` per labelled child and bucket."""
    with _flushing:
        counts: dict[Any, float] = {}
        observed: dict[Any, list[float]] = {}
        while _queue:
            child, observes, amount = _queue.popleft()
            if observes:
                observed.setdefault(child, []).append(amount)
            else:
                counts[child] = counts.get(child, 0.0) + amount
        for child, total in counts.items():
            child.inc(total)
        for child, amounts in observed.items():
            _observe_all(child, amounts)


def _observe_all(child: Any, amounts: list[float]) -> None:
    """``child.observe`` of each amount, in one write per bucket (prometheus_client keeps a
    histogram's sum and the count of each bucket, the first whose bound is at least the amount)."""
    bounds = child._upper_bounds
    buckets = [0] * len(bounds)
    for amount in amounts:
        buckets[bisect.bisect_left(bounds, amount)] += 1
    child._sum.inc(sum(amounts))
    for i, n in enumerate(buckets):
        if n:
            child._buckets[i].inc(n)


def _start_flusher() -> None:
    with _flushing:
        if _flusher:
            return
        thread = threading.Thread(target=_flush_every_second, name="dragonhall-metrics", daemon=True)
        _flusher.append(thread)
        thread.start()


def _flush_every_second() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        flush()


def _forget_flusher() -> None:
    """In a forked child the thread is gone: the next count starts one."""
    _flusher.clear()


os.register_at_fork(after_in_child=_forget_flusher)
atexit.register(flush)

MOVES_BY = Deferred(MOVES)
REQUEST_SECONDS_BY = Deferred(REQUEST_SECONDS)
BOT_TURNS_BY = Children(BOT_TURNS)
WEBHOOKS_BY = Children(WEBHOOKS)


def exposition(update: Callable[[], object] | None = None) -> tuple[bytes, str]:
    """The text of every metric of this command's processes, and its content type: ``update``
    first sets the gauges read at the scrape, then the live gauges of processes that died are
    dropped, their counters kept (``infra.metrics_dir``)."""
    if update is not None:
        try:
            update()
        except Exception as e:  # the store is down, say: the scrape still answers, without that news
            logging.getLogger("dragonhall.metrics").warning("the gauges read at the scrape could not be read: %s", e)
    flush()
    path = os.environ.get(MULTIPROC)
    if not path:
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    from prometheus_client import multiprocess

    forget_dead(Path(path))
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=path)
    return generate_latest(registry), CONTENT_TYPE_LATEST
