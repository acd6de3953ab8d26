"""The HTTP bench's yardsticks: targets scaled by this machine's speed on the run's day."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def http_load() -> Any:
    return importlib.import_module("bench.http_load")  # bench/ is a folder of scripts, not a package


def test_the_issues_figures_give_its_ceiling(http_load: Any) -> None:
    """Issue: 5,800 echo requests/s and 5,000 raw events/s put the ceiling near 2,700 moves/s."""
    assert http_load.ceiling(5800, 5000) == pytest.approx(2685, abs=1)


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_at_the_reference_speed_the_targets_stand(http_load: Any, store: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(http_load, "raw_writes_per_second", lambda *a: http_load.REFERENCE_WRITES[store])
    got = http_load.yardsticks(store, None, Path("."), http_load.REFERENCE_ECHO)
    assert got["speed_vs_reference"] == pytest.approx(1)
    assert got["scaled_target_moves_per_s"] == pytest.approx(http_load.TARGETS[store])
    assert got["scaled_target_p99_ms"] == pytest.approx(40)


def test_a_machine_half_as_fast_halves_the_target_and_doubles_the_bound(http_load: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(http_load, "raw_writes_per_second", lambda *a: 2500)
    got = http_load.yardsticks("sqlite", None, Path("."), 2900)
    assert got["ceiling_moves_per_s"] == pytest.approx(2685 / 2, abs=1)
    assert got["scaled_target_moves_per_s"] == pytest.approx(750)
    assert got["scaled_target_p99_ms"] == pytest.approx(80)


def _round(store: str, rate: float, p99: float, **extra: Any) -> dict[str, Any]:
    return {"store": store, "moves_per_s": rate, "post_p99_ms": p99, "code": "/src/main", **extra}


def test_a_round_meets_a_target_only_with_both_its_throughput_and_its_p99(http_load: Any) -> None:
    assert http_load.met(_round("sqlite", 1500, 39.9))["target"] is True
    assert http_load.met(_round("sqlite", 1499, 20))["target"] is False
    assert http_load.met(_round("sqlite", 2000, 40))["target"] is False
    assert http_load.met(_round("postgres", 800, 39))["target"] is True


def test_a_round_without_yardsticks_has_no_scaled_verdict(http_load: Any) -> None:
    assert http_load.met(_round("sqlite", 1500, 30))["scaled"] is None
    assert http_load.met(_round("sqlite", 1500, 30))["share"] is None
    slow_day = {"scaled_target_moves_per_s": 750, "scaled_target_p99_ms": 80}
    assert http_load.met(_round("sqlite", 800, 79, **slow_day))["scaled"] is True
    assert http_load.met(_round("sqlite", 800, 81, **slow_day))["scaled"] is False


def test_the_summary_gives_each_stores_medians_ranges_and_rounds_met(http_load: Any) -> None:
    day = {"scaled_target_moves_per_s": 1200, "scaled_target_p99_ms": 50}
    rounds = [
        _round("sqlite", 1540, 37.7, **day),
        _round("postgres", 880, 55, **day),
        _round("sqlite", 1340, 49.2, **day),
        _round("sqlite", 1430, 44, **day),
    ]
    got = http_load.summary(rounds, "sqlite", "/src/main")
    assert got["rounds"] == 3
    assert got["moves_per_s_median"] == 1430
    assert got["moves_per_s_range"] == [1340, 1540]
    assert got["post_p99_ms_median"] == 44
    assert got["post_p99_ms_range"] == [37.7, 49.2]
    assert got["rounds_meeting_targets"] == 1
    assert got["rounds_meeting_scaled_targets"] == 3
    assert http_load.summary(rounds, "postgres", "/src/main")["rounds_meeting_targets"] == 0


def test_the_summary_keeps_each_checkouts_rounds_apart(http_load: Any) -> None:
    rounds = [_round("sqlite", 1500, 30), _round("sqlite", 1000, 50, code="/tmp/dh-old")]
    assert http_load.summary(rounds, "sqlite", "/tmp/dh-old")["moves_per_s_median"] == 1000
    assert http_load.summary(rounds, "sqlite", "/src/main")["moves_per_s_median"] == 1500


@pytest.mark.parametrize(
    ("store", "share", "p99", "first", "past"),
    [
        ("sqlite", 0.56, 39, True, False),
        ("sqlite", 0.66, 39, True, True),
        ("sqlite", 0.66, 41, False, False),
        ("postgres", 0.76, 49, True, False),
        ("postgres", 0.81, 49, True, True),
        ("postgres", 0.74, 30, False, False),
    ],
)
def test_the_share_of_the_ceiling_is_met_with_its_p99(
    http_load: Any, store: str, share: float, p99: float, first: bool, past: bool
) -> None:
    """Issue 39: 55% of the ceiling on SQLite and 75% on PostgreSQL, p99 under 40 and 50 ms; then 65% and 80%."""
    verdict = http_load.met(_round(store, 1000, p99, share_of_ceiling=share))
    assert (verdict["share"], verdict["share_past"]) == (first, past)


def test_the_wal_watch_keeps_the_largest_size_of_each_log(http_load: Any, tmp_path: Path) -> None:
    watch = http_load.WalWatch(tmp_path)
    wal = tmp_path / "events.db-wal"
    wal.write_bytes(b"x" * 3 * 2**20)
    watch.sample()
    wal.write_bytes(b"x" * 2**20)
    watch.sample()
    assert watch.high_water_mb() == {"events.db-wal": 3.0}
    assert watch.settled() == {"events.db-wal": 1.0}
