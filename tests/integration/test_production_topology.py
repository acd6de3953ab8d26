"""The production topology of deploy/compose.yaml as local processes on the real PostgreSQL and Redis:
two HTTP processes, the projections' leader and a standby, two workers and the beat. Bot games and a
scheduled game run to their end; the leader is killed on the way and the standby takes over."""

from __future__ import annotations

import os
import signal
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.support.names import fresh
from tests.support.processes import Proc, Server

pytestmark = pytest.mark.slow


def _listed_finished(server: Server, ids: set[str], timeout: float = 60) -> None:
    deadline = time.time() + timeout
    listed: set[str] = set()
    while time.time() < deadline:
        st, body = server.call("GET", "/api/v1/games?status=finished&limit=100")
        listed = {g["id"] for g in body["games"]} if st == 200 else set()
        if ids <= listed:
            return
        time.sleep(0.2)
    raise AssertionError(f"not listed as finished: {ids - listed}")


def test_bot_games_and_a_scheduled_game_end_on_the_production_topology(
    tmp_path: Path, pg_url: str, redis_url: str, pg_schema: str
) -> None:
    env = {
        **os.environ,
        "DRAGONHALL_DATABASE_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_QUEUE_PREFIX": f"t{uuid.uuid4().hex[:8]}.",
        "DRAGONHALL_EMBEDDED_PROJECTIONS": "0",
        "DRAGONHALL_DATA_DIR": str(tmp_path / "var"),
        "DRAGONHALL_SECRET_KEY": "44" * 32,
        "DRAGONHALL_SWEEP_INTERVAL": "1",
    }
    procs: list[Any] = []
    try:
        leader = Proc(["projections"], env, tmp_path / "leader.log", tmp_path)
        procs.append(leader)
        time.sleep(2)  # the first to start leads
        standby = Proc(["projections"], env, tmp_path / "standby.log", tmp_path)
        procs.append(standby)
        for name, args in (
            ("worker-1", ["worker", "--concurrency", "2"]),
            ("worker-2", ["worker", "--concurrency", "2"]),
            ("beat", ["worker", "--queues", "timers", "--concurrency", "1", "--beat"]),
        ):
            procs.append(Proc(args, env, tmp_path / f"{name}.log", tmp_path))
        web = [Server(env, tmp_path, ("--workers", "1")), Server(env, tmp_path, ("--workers", "1"))]
        procs.extend(web)

        first, _ = web[0].bot_game("tarasque", 2)
        web[1].wait_status(first, timeout=180)  # moves by one process, read through the other
        _listed_finished(web[1], {first})
        leader.kill(signal.SIGKILL)  # the standby leads from here

        at = (datetime.now(UTC) + timedelta(seconds=3)).isoformat()
        _st, owner = web[1].call("POST", "/api/v1/players", {"name": fresh("owner")})
        st, scheduled = web[1].call(
            "POST", "/api/v1/games", {"game": "tarasque", "players": 2, "starts_at": at}, owner["token"]
        )
        assert st == 201 and scheduled["status"] == "scheduled", scheduled
        games = {first, scheduled["id"], web[1].bot_game("seven-dragons", 3)[0], web[0].bot_game("tarasque", 2)[0]}
        for gid in games - {first}:
            doc = web[0].wait_status(gid, timeout=240)
            assert doc["outcome"]["winners"]
        _listed_finished(web[0], games)  # the standby keeps the read models now
        alive = [p for p in procs if p is not leader]
        assert all(p.alive() for p in alive), [p.log.name for p in alive if not p.alive()]
    finally:
        for proc in reversed(procs):
            proc.stop()
