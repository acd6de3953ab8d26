"""Whole deployments in real processes: the embedded default, and PostgreSQL + Redis + workers."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import Proc, Server

pytestmark = pytest.mark.slow

DUMP = """
import json, sys
from wiring import bootstrap
from services.common.ports import NullWork
from domain.kernel import state_hash, Viewer
p = bootstrap(projections=False, work=NullWork())
game = p.games.load(sys.argv[1])
print(json.dumps({"hash": state_hash(game.state), "view": game.ruleset.view(game.state, Viewer.everyone()),
                  "views": p.views.dump()}))
p.close()
"""


def _fresh_process(env: dict[str, str], cwd: Path, gid: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", DUMP, gid], env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(out.stdout)


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str]]]:
    import os

    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(tmp_path / "var"), "DRAGONHALL_STORE": "sqlite"}
    env.pop("DRAGONHALL_DATABASE_URL", None)
    env.pop("DRAGONHALL_BROKER_URL", None)
    server = Server(env, tmp_path)
    yield server, env
    server.stop()


def test_the_embedded_server_plays_a_bot_game_whose_history_agrees_with_itself(
    embedded: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    server, env = embedded
    gid, _ = server.bot_game("tarasque", 4)
    doc = server.wait_status(gid)
    st, body = server.call("GET", f"/api/v1/games/{gid}/events")
    events = body["events"]
    assert [e["version"] for e in events] == list(range(1, doc["version"] + 1))
    assert doc["outcome"]["winners"]
    st, final = server.call("GET", f"/api/v1/games/{gid}/replay?at={doc['version']}")
    assert final["view"] == doc["view"]
    for at in (4, doc["version"] // 3, doc["version"] // 2):
        st, past = server.call("GET", f"/api/v1/games/{gid}/replay?at={at}")
        assert st == 200 and past["version"] == at
    last_hash = [e for e in events if e["source"] == "rules"][-1]["state_hash"]
    server.stop()

    fresh = _fresh_process(env, tmp_path, gid)
    assert fresh["hash"] == last_hash
    assert fresh["view"] == doc["view"]


def test_the_read_models_run_in_their_own_process_and_an_http_process_takes_over_if_it_dies(tmp_path: Path) -> None:
    import os
    import signal

    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(tmp_path / "var"), "DRAGONHALL_STORE": "sqlite"}
    env.pop("DRAGONHALL_DATABASE_URL", None)
    env.pop("DRAGONHALL_BROKER_URL", None)
    server = Server(env, tmp_path, ("--workers", "2"))
    lock = tmp_path / "var" / "projections.lock"
    try:
        runner = int(lock.read_text())
        assert Path(f"/proc/{runner}/comm").read_text().strip() == "dh-projections"
        niceness = int(Path(f"/proc/{runner}/stat").read_text().rsplit(")", 1)[1].split()[16])
        assert niceness == os.getpriority(os.PRIO_PROCESS, 0) + 5  # requests come first
        first, _ = server.bot_game("tarasque", 2)
        server.wait_status(first)
        _wait_listed(server, first)

        os.kill(runner, signal.SIGKILL)
        second, _ = server.bot_game("tarasque", 2)
        server.wait_status(second)
        _wait_listed(server, second)
        heir = int(lock.read_text())
        assert heir != runner and Path(f"/proc/{heir}/comm").read_text().strip() != "dh-projections"
    finally:
        server.stop()


FAIL_FIRST_BATCH = """
from pathlib import Path
from projections.games import GameProjection

_real = GameProjection.process_batch
_marker = Path(__file__).with_name("failed-once")


def _fails_in_the_first_process(self, items):
    if not _marker.exists():
        _marker.write_text("")
        raise ConnectionError("the database went away")
    return _real(self, items)


GameProjection.process_batch = _fails_in_the_first_process
"""


def test_a_single_server_process_replaces_its_failed_runner_and_its_read_models_catch_up(tmp_path: Path) -> None:
    """A lone HTTP process leads the projections: when its runner fails, it starts a new one,
    which resumes where the first stopped, and no request fails. The first runner's first batch
    fails (a ``sitecustomize`` that every Python process of the server imports)."""
    import os

    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(FAIL_FIRST_BATCH)
    env = {
        **os.environ,
        "DRAGONHALL_DATA_DIR": str(tmp_path / "var"),
        "DRAGONHALL_STORE": "sqlite",
        "PYTHONPATH": os.pathsep.join([str(hooks), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    env.pop("DRAGONHALL_DATABASE_URL", None)
    env.pop("DRAGONHALL_BROKER_URL", None)
    server = Server(env, tmp_path, ("--workers", "1"))
    try:
        gid, _ = server.bot_game("tarasque", 2)
        server.wait_status(gid)
        _wait_listed(server, gid)
        assert (hooks / "failed-once").exists(), "the first batch failed"
        assert "the projection runner stopped on an error; starting a new one" in server.tail(50_000)
        assert server.alive()
    finally:
        server.stop()


def _wait_listed(server: Server, gid: str, timeout: float = 30) -> None:
    """Until the game list (a read model) shows ``gid`` finished."""
    import time

    deadline = time.time() + timeout
    while time.time() < deadline:
        st, body = server.call("GET", "/api/v1/games?status=finished")
        if st == 200 and gid in [g["id"] for g in body["games"]]:
            return
        time.sleep(0.2)
    raise AssertionError(f"game {gid} is not listed as finished after {timeout} s")


def test_rebuilding_the_projections_ends_with_the_same_content(
    embedded: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    server, env = embedded
    games = [server.bot_game("tarasque", 2)[0] for _ in range(2)]
    for gid in games:
        server.wait_status(gid)
    server.stop()
    before = _fresh_process(env, tmp_path, games[0])["views"]
    assert len(before["dh_games"]) == 2
    subprocess.run(
        [str(Path(sys.executable).parent / "dragonhall"), "rebuild-projections"],
        env=env,
        cwd=tmp_path,
        check=True,
        timeout=300,
        capture_output=True,
    )
    after = _fresh_process(env, tmp_path, games[0])["views"]
    assert after == before


def test_a_bot_game_runs_on_postgres_with_redis_and_separate_processes(
    tmp_path: Path, pg_url: str, redis_url: str, pg_schema: str
) -> None:
    import os

    prefix = f"t{uuid.uuid4().hex[:8]}."
    env = {
        **os.environ,
        "DRAGONHALL_DATABASE_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_QUEUE_PREFIX": prefix,
        "DRAGONHALL_EMBEDDED_PROJECTIONS": "0",
        "DRAGONHALL_DATA_DIR": str(tmp_path / "var"),
        "DRAGONHALL_SECRET_KEY": "22" * 32,
    }
    server = Server(env, tmp_path)
    worker = Proc(["worker", "--concurrency", "2"], env, tmp_path / "worker.log", tmp_path)
    projections = Proc(["projections"], env, tmp_path / "projections.log", tmp_path)
    try:
        gid, _ = server.bot_game("tarasque", 2)
        doc = server.wait_status(gid, timeout=180)
        assert doc["outcome"]["winners"]
        for _ in range(100):
            _st, listing = server.call("GET", "/api/v1/games?status=finished")
            if [g["id"] for g in listing["games"]] == [gid]:
                break
            import time

            time.sleep(0.1)
        assert [g["id"] for g in listing["games"]] == [gid], projections.tail()
        assert worker.alive() and projections.alive()
    finally:
        for proc in (server, worker, projections):
            proc.stop()


def test_the_new_command_creates_a_bot_game_on_a_running_server(
    embedded: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    server, env = embedded
    cli = Path(sys.executable).parent / "dragonhall"
    out = subprocess.run(
        [str(cli), "new", "seven-dragons", "--players", "3", "--bot", "greedy,random", "--server", server.base],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    game_id, url = out.stdout.split()
    assert url == f"{server.base}/api/v1/games/{game_id}"
    doc = server.wait_status(game_id)
    assert [s["bot"] for s in doc["seats"]] == ["greedy", "random", "greedy"]
    bad = subprocess.run(
        [str(cli), "new", "no-such-game", "--server", server.base],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and "400" in bad.stderr


def test_on_postgres_a_standby_projection_process_on_another_machine_takes_over_when_the_leader_dies(
    tmp_path: Path, pg_url: str, pg_schema: str
) -> None:
    """Two ``dragonhall projections`` processes with data directories of their own, as on two
    machines: the database's advisory lock lets one lead, and the other once the leader dies."""
    import os
    import time

    env = {
        **os.environ,
        "DRAGONHALL_DATABASE_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_EMBEDDED_PROJECTIONS": "0",
        "DRAGONHALL_DATA_DIR": str(tmp_path / "web"),
        "DRAGONHALL_SECRET_KEY": "33" * 32,
        "DRAGONHALL_LOG_LEVEL": "INFO",  # "projection runner started" is an INFO line
    }
    env.pop("DRAGONHALL_BROKER_URL", None)
    server = Server(env, tmp_path)
    standbys = [
        Proc(
            ["projections"],
            {**env, "DRAGONHALL_DATA_DIR": str(tmp_path / f"host{i}")},
            tmp_path / f"projections{i}.log",
            tmp_path,
        )
        for i in range(2)
    ]
    leads, stands_by = "projection runner started", "this one stands by"
    try:
        first, _ = server.bot_game("tarasque", 2)
        server.wait_status(first)
        _wait_listed(server, first)
        deadline = time.time() + 60
        while not all(leads in p.tail(50_000) or stands_by in p.tail(50_000) for p in standbys):
            assert time.time() < deadline, [p.tail() for p in standbys]
            time.sleep(0.1)
        leaders = [p for p in standbys if leads in p.tail(50_000)]
        assert len(leaders) == 1, [p.tail() for p in standbys]
        heir = next(p for p in standbys if p is not leaders[0])
        leaders[0].kill()
        second, _ = server.bot_game("tarasque", 2)
        server.wait_status(second)
        _wait_listed(server, second)
        took_over = time.time() + 30  # its log line may come after the game it listed
        while leads not in heir.tail(50_000):
            assert time.time() < took_over, heir.tail()
            time.sleep(0.1)
    finally:
        for proc in (server, *standbys):
            proc.stop()
