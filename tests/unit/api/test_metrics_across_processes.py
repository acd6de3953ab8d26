"""Metrics in prometheus_client's multiprocess mode: several processes' counts add up in one scrape,
and the files of processes that are gone are removed when a process of the deployment starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
COUNT = """
import sys
from infra import metrics
metrics.BOT_TURNS.labels("played").inc(int(sys.argv[1]))
"""
SCRAPE = "from infra import metrics; print(metrics.exposition()[0].decode())"


def _run(code: str, where: Path, *args: str) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(where)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def test_the_counts_of_several_processes_add_up_in_one_scrape(tmp_path: Path) -> None:
    where = tmp_path / "metrics"
    where.mkdir()
    _run(COUNT, where, "3")
    _run(COUNT, where, "4")
    text = _run(SCRAPE, where)
    assert 'dragonhall_bot_turns_total{outcome="played"} 7.0' in text


def test_a_starting_process_removes_the_files_of_processes_that_are_gone(tmp_path: Path) -> None:
    from infra.metrics_dir import MULTIPROC, setup

    where = tmp_path / "metrics"
    where.mkdir()
    _run(COUNT, where, "3")
    alive = where / f"counter_{os.getpid()}.db"
    alive.write_bytes(b"")
    previous = os.environ.get(MULTIPROC)
    os.environ[MULTIPROC] = str(where)
    try:
        assert setup(tmp_path) == where
    finally:
        if previous is None:
            del os.environ[MULTIPROC]
        else:
            os.environ[MULTIPROC] = previous
    assert sorted(p.name for p in where.iterdir()) == [alive.name]
