"""A backup of the SQLite store taken while the server runs, restored into a fresh data directory.

The procedure of docs/operations.md (Backups): SQLite's online backup API for each database
(a plain copy of a file in WAL mode can miss its log), and the server key beside them. The
copies must hold every game, read model and record as the running server does.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
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


def back_up(source: Path, target: Path) -> None:
    """Copies each database with SQLite's backup API (consistent while others write), and the key."""
    target.mkdir(parents=True)
    for name in DATABASES:
        src, dst = sqlite3.connect(source / name), sqlite3.connect(target / name)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    shutil.copy2(source / "secret.key", target / "secret.key")


def _contents(data: Path) -> dict[str, list[str]]:
    """Every row of every table of each database, as SQL; but the sweep's lease, which the running
    server takes every few seconds (a row that is no game, read model or record)."""
    out = {}
    for name in DATABASES:
        conn = sqlite3.connect(data / name)
        try:
            out[name] = [line for line in conn.iterdump() if '"dh_leases"' not in line]
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


def test_a_backup_taken_while_the_server_runs_restores_every_game_read_model_and_record(
    running: Server, tmp_path: Path
) -> None:
    games = [running.bot_game("tarasque", 2)[0] for _ in range(2)]
    for gid in games:
        running.wait_status(gid)
    live = tmp_path / "var"
    _, listed = running.call("GET", "/api/v1/games?status=finished")
    before = {gid: _read(running, gid) for gid in games}
    back_up(live, tmp_path / "restored")  # the server still runs, its files open
    assert _contents(tmp_path / "restored") == _contents(live)
    running.stop()

    restored = Server(_env(tmp_path / "restored"), tmp_path)
    try:
        assert {gid: _read(restored, gid) for gid in games} == before
        assert restored.call("GET", "/api/v1/games?status=finished")[1] == listed
        more, _ = restored.bot_game("tarasque", 2)  # and it plays on
        assert restored.wait_status(more)["status"] == "finished"
    finally:
        restored.stop()
