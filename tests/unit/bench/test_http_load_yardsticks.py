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
