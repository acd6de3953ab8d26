"""The per-request cost bench drives real games through the app, in this process."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def request_cost() -> Any:
    return importlib.import_module("bench.request_cost")  # bench/ is a folder of scripts, not a package


@pytest.fixture
def environ_kept() -> Iterator[None]:
    """``measure`` sets the environment as ``dragonhall serve`` would, ``PROMETHEUS_MULTIPROC_DIR``
    among it: left set, every later scrape of this process would read that directory.
    (``monkeypatch.delenv`` of a variable that is not set records nothing to undo.)"""
    kept = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(kept)


def test_it_measures_the_moves_it_was_asked_for(
    request_cost: Any, tmp_path: Path, monkeypatch: Any, environ_kept: None
) -> None:
    monkeypatch.setattr(request_cost, "WARM_UP", 5)
    got = request_cost.measure(30, "sqlite", tmp_path)
    assert got["moves"] == 30
    assert got["post_cpu_ms_mean"] > 0 and got["gets_per_move"] > 0
    assert got["cpu_ms_per_move"] >= got["post_cpu_ms_mean"]


def test_a_game_stops_where_it_is_told(request_cost: Any, platform: Any) -> None:
    """The driver both benches share plays legal moves only, and stops at the count it is given."""
    from api.app import create_app
    from bench.game_driver import play_game

    call = request_cost.wsgi_caller(create_app(platform))
    played = play_game(call, random.Random(3), lambda in_game: in_game < 7)
    assert len(played.moves) == 7 and played.errors == 0
    assert played.acked == sorted(played.acked) and len(set(played.acked)) == 7
    _, events, _ = call("GET", f"/api/v1/games/{played.game_id}/events")
    assert {e["version"] for e in events["events"]} >= set(played.acked)
