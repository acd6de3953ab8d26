"""A backup of the SQLite store taken while the server runs, restored into a fresh data directory.

The procedure of docs/operations.md (Backups), its lines run as they are written: SQLite's online
backup for each database (a plain copy of a file in WAL mode can miss its log), and the server key
beside them, under ``umask 077``. The copies must be private, and hold every game, read model and
record as the running server does.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import Server

pytestmark = pytest.mark.slow
DATABASES = ("views.db", "service.db", "events.db")
"""In the order they are copied: the read models never ahead of the events (docs/operations.md)."""


def _env(data: Path) -> dict[str, str]:
    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(data), "DRAGONHALL_STORE": "sqlite"}
    env.pop("DRAGONHALL_DATABASE_URL", None)
    env.pop("DRAGONHALL_BROKER_URL", None)
    return env


def documented_backup() -> str:
    """The SQLite backup's shell lines of docs/operations.md."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    block = re.search(r"\*\*SQLite\*\* \(the embedded default\).*?```sh\n(.*?)```", text, re.DOTALL)
    assert block, "docs/operations.md shows no SQLite backup"
    return block.group(1)


def back_up(source: Path, target: Path) -> None:
    """Runs the documented lines, into ``target`` in place of ``/backups/today``."""
    if not shutil.which("sqlite3"):
        pytest.skip("the sqlite3 command is not installed (apt-get install sqlite3)")
    script = documented_backup().replace("/backups/today", str(target))
    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(source)}
    subprocess.run(["sh", "-c", script], env=env, check=True, timeout=120, capture_output=True)


def _contents(data: Path) -> dict[str, list[str]]:
    """Every row of every table of each database, as SQL; but the sweep's lease and its heartbeat,
    which the running server writes every few seconds (rows that are no game, read model or record)."""
    out = {}
    for name in DATABASES:
        conn = sqlite3.connect(data / name)
        try:
            out[name] = [
                line for line in conn.iterdump() if not any(t in line for t in ('"dh_leases"', '"dh_heartbeats"'))
            ]
        finally:
            conn.close()
    return out


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Server]:
    server = Server(_env(tmp_path / "var"), tmp_path)
    yield server
    server.stop()


def _read(server: Server, gid: str) -> dict[str, Any]:
    return {
        path: server.call("GET", f"/api/v1/games/{gid}{path}")
        for path in ("", "/events", "/record", "/audit", "/replay?at=5")
    }


def _listed(server: Server, games: list[str], timeout: float = 30) -> Any:
    """The list of finished games once it shows ``games``: a game's own document comes from the write
    model as soon as it ends, the list from the read models a moment later."""
    deadline = time.monotonic() + timeout
    while True:
        _, listed = server.call("GET", "/api/v1/games?status=finished")
        if {g["id"] for g in listed["games"]} >= set(games) or time.monotonic() > deadline:
            return listed
        time.sleep(0.1)


def test_a_backup_taken_while_the_server_runs_restores_every_game_read_model_and_record(
    running: Server, tmp_path: Path
) -> None:
    games = [running.bot_game("tarasque", 2)[0] for _ in range(2)]
    for gid in games:
        running.wait_status(gid)
    live = tmp_path / "var"
    listed = _listed(running, games)
    before = {gid: _read(running, gid) for gid in games}
    back_up(live, tmp_path / "restored")  # the server still runs, its files open
    assert _contents(tmp_path / "restored") == _contents(live)
    assert (tmp_path / "restored").stat().st_mode & 0o777 == 0o700
    assert {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "restored").iterdir()} == dict.fromkeys(
        [*DATABASES, "secret.key"], 0o600
    )
    running.stop()

    restored = Server(_env(tmp_path / "restored"), tmp_path)
    try:
        assert {gid: _read(restored, gid) for gid in games} == before
        assert restored.call("GET", "/api/v1/games?status=finished")[1] == listed
        more, _ = restored.bot_game("tarasque", 2)  # and it plays on
        assert restored.wait_status(more)["status"] == "finished"
    finally:
        restored.stop()
