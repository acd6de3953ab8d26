"""Counts made on a request's path are queued and written by ``infra.metrics.flush``, the same as
counted at once."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, Counter, Histogram

from infra import metrics


def _value(registry: CollectorRegistry, name: str, labels: dict[str, str]) -> float | None:
    return registry.get_sample_value(name, labels)


def test_queued_counts_and_observations_read_as_direct_ones_once_flushed() -> None:
    registry = CollectorRegistry()
    buckets = (0.002, 0.005, 0.01)
    counter = Counter("queued_moves", "moves", ["game"], registry=registry)
    histogram = Histogram("queued_seconds", "seconds", ["route"], buckets=buckets, registry=registry)
    direct = Histogram("direct_seconds", "seconds", ["route"], buckets=buckets, registry=registry)
    moves, seconds = metrics.Deferred(counter), metrics.Deferred(histogram)
    observed = [0.001, 0.002, 0.0021, 0.005, 0.3, 0.004]
    for amount in observed:
        moves("tarasque").inc()
        seconds("/moves").observe(amount)
        direct.labels("/moves").observe(amount)
    metrics.flush()
    assert _value(registry, "queued_moves_total", {"game": "tarasque"}) == len(observed)
    for bound in ("0.002", "0.005", "0.01", "+Inf"):
        labels = {"route": "/moves", "le": bound}
        assert _value(registry, "queued_seconds_bucket", labels) == _value(registry, "direct_seconds_bucket", labels)
    assert _value(registry, "queued_seconds_sum", {"route": "/moves"}) == pytest.approx(sum(observed))
