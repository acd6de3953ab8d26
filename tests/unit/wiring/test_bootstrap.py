"""Building a platform: a step that fails leaves nothing running behind it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from services.common.ports import NullWork
from tests.conftest import make_settings
from wiring import platform as wiring


def _live_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.is_alive()}


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_failed_build_stops_the_projection_runner_it_started(store: str, tmp_path: Path, monkeypatch: Any) -> None:
    """A runner left running would keep the process alive after the error (its threads are not daemons)."""
    before = _live_threads()

    def broken(*_: Any) -> None:
        raise RuntimeError("the broker is unreachable")

    monkeypatch.setattr(wiring.Platform, "_attach_work", broken)
    with pytest.raises(RuntimeError, match="unreachable"):
        wiring.bootstrap(make_settings(store, tmp_path), projections=True)
    for t in _live_threads() - before:
        t.join(timeout=5)
    assert [t.name for t in _live_threads() - before] == []


def test_a_platform_that_was_built_keeps_what_it_started(tmp_path: Path) -> None:
    before = _live_threads()
    platform = wiring.bootstrap(make_settings("sqlite", tmp_path), projections=True, work=NullWork())
    try:
        assert platform.leader.runner is not None, "a lone process leads the projections"
        assert _live_threads() - before, "the projection runner's threads run"
        player, token = platform.accounts.register("ada", "human")
        assert platform.accounts.authenticate(token).id == player.id  # its database is still open
    finally:
        platform.close()


def test_table_creation_is_locked_per_store_unless_tables_are_made_elsewhere(tmp_path: Path) -> None:
    from contextlib import nullcontext

    assert isinstance(wiring.creating_tables(make_settings("memory")), nullcontext)
    assert not isinstance(wiring.creating_tables(make_settings("sqlite", tmp_path)), nullcontext)
    made_elsewhere = make_settings("postgres", tmp_path, database_url="postgresql://x/y", create_tables=False)
    assert isinstance(wiring.creating_tables(made_elsewhere), nullcontext)


def test_the_sqlite_table_lock_excludes_another_process(tmp_path: Path) -> None:
    import subprocess
    import sys

    probe = (
        "import fcntl, sys; f = open(sys.argv[1], 'a')\n"
        "try:\n    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB); print('free')\n"
        "except BlockingIOError:\n    print('held')"
    )
    lock = tmp_path / "tables.lock"

    def other_process_sees() -> str:
        return subprocess.run(
            [sys.executable, "-c", probe, str(lock)], capture_output=True, text=True, check=True
        ).stdout.strip()

    with wiring.creating_tables(make_settings("sqlite", tmp_path)):
        assert other_process_sees() == "held"
    assert other_process_sees() == "free"


@pytest.mark.parametrize("http_workers", [1, 2])
def test_the_read_models_recover_from_a_failed_batch(http_workers: int, tmp_path: Path, monkeypatch: Any) -> None:
    """The runner belongs to the projections' leader (in a lone server process too), which starts
    a new one when a batch fails; the new runner resumes at the failed batch (it wrote nothing)."""
    from projections import leader as leadership
    from projections.games import GameProjection

    monkeypatch.setattr(leadership, "RETRY", 0.05)
    real = GameProjection.process_batch
    failures = []

    def fails_once(self: Any, items: Any) -> None:
        if not failures:
            failures.append(len(items))
            raise ConnectionError("the database went away")
        real(self, items)

    monkeypatch.setattr(GameProjection, "process_batch", fails_once)
    platform = wiring.bootstrap(
        make_settings("sqlite", tmp_path, http_workers=http_workers), projections=True, work=NullWork()
    )
    try:
        leader = platform.leader
        deadline = time.time() + 10
        while leader.runner is None and time.time() < deadline:
            time.sleep(0.01)
        creator, _ = platform.accounts.register("ada", "human")
        game = platform.games.create_game(creator.id, "tarasque", None, None, 2)
        while time.time() < deadline and not platform.views.game_summary(str(game.id)):
            time.sleep(0.05)
        assert failures, "the first batch failed"
        assert platform.views.game_summary(str(game.id)) is not None
    finally:
        platform.close()
