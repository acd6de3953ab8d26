"""Metrics in prometheus_client's multiprocess mode: the processes of one command add up in one
scrape; a dead process's live gauges leave the sums and its counters stay; each command (a
Prometheus target) has a directory of its own, and only this machine's gone commands' are removed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from infra.metrics_dir import MULTIPROC, setup

ROOT = Path(__file__).resolve().parents[3]
COUNT = """
import sys
from infra import metrics
metrics.BOT_TURNS.labels("played").inc(int(sys.argv[1]))
metrics.OPEN_STREAMS.inc(int(sys.argv[1]))
"""
SCRAPE = "from infra import metrics; print(metrics.exposition()[0].decode())"


def _run(code: str, where: Path, *args: str) -> str:
    env = {**os.environ, MULTIPROC: str(where)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def _sample(text: str, name: str) -> float | None:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return None


@pytest.fixture
def no_multiproc() -> Iterator[None]:
    previous = os.environ.pop(MULTIPROC, None)
    yield
    os.environ.pop(MULTIPROC, None)
    if previous is not None:
        os.environ[MULTIPROC] = previous


def test_the_counts_of_several_processes_add_up_in_one_scrape(tmp_path: Path) -> None:
    where = tmp_path / "metrics"
    where.mkdir()
    _run(COUNT, where, "3")
    _run(COUNT, where, "4")
    text = _run(SCRAPE, where)
    assert _sample(text, 'dragonhall_bot_turns_total{outcome="played"}') == 7.0


def test_a_dead_process_s_open_streams_leave_the_sums_and_its_counts_stay(tmp_path: Path) -> None:
    """An HTTP process that crashed holding streams: they are no longer open, but the bot turns
    it counted stay counted, at every scrape after (a drop reads as a counter reset)."""
    where = tmp_path / "metrics"
    where.mkdir()
    _run(COUNT, where, "4")  # a process that ends with 4 streams "open"
    for _ in range(2):
        text = _run(SCRAPE, where)
        assert _sample(text, "dragonhall_open_streams") in (None, 0.0)
        assert _sample(text, 'dragonhall_bot_turns_total{outcome="played"}') == 4.0


def test_each_command_counts_in_a_directory_of_its_own_under_the_data_directory(
    tmp_path: Path, no_multiproc: None
) -> None:
    path = setup(tmp_path, "worker")
    assert path.parent == (tmp_path / "metrics").resolve()
    assert path.name == f"worker-{os.getpid()}@{socket.gethostname()}"
    assert os.environ[MULTIPROC] == str(path)
    assert path.stat().st_mode & 0o777 == 0o700 and path.parent.stat().st_mode & 0o777 == 0o700


def test_a_starting_command_removes_only_the_directories_of_this_machine_s_gone_commands(
    tmp_path: Path, no_multiproc: None
) -> None:
    """Containers sharing a volume repeat process ids: another machine's directory is never
    taken for a dead one, and a live command's is kept."""
    root = tmp_path / "metrics"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone_pid = int(dead.stdout)
    host = socket.gethostname()
    gone = root / f"worker-{gone_pid}@{host}"
    elsewhere = root / f"worker-{gone_pid}@another-{host}"
    live = root / f"serve-{os.getppid()}@{host}"
    for directory in (gone, elsewhere, live):
        directory.mkdir(parents=True)
        (directory / f"counter_{gone_pid}.db").write_bytes(b"")
    setup(tmp_path, "projections")
    assert not gone.exists()
    assert elsewhere.exists() and live.exists()


def test_a_directory_the_operator_chose_is_used_as_it_is(tmp_path: Path, no_multiproc: None) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "counter_1.db").write_bytes(b"")
    os.environ[MULTIPROC] = str(chosen)
    assert setup(tmp_path, "serve") == chosen
    assert (chosen / "counter_1.db").exists()
