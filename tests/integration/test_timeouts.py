"""Timeouts for real: a real clock, real workers, and (where named) a real Redis broker."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.play.aggregate import Game
from tests.support.names import fresh
from tests.support.processes import Proc, Server

pytestmark = pytest.mark.slow


def test_a_timed_out_human_is_played_by_a_bot_on_the_embedded_default(live_client: Any) -> None:
    me = live_client.player("sleeper")
    game = live_client.new_game(me["token"], time_control={"kind": "per_move", "seconds": 1, "timeout_policy": "auto"})
    live_client.seat(game["id"], me["token"])
    live_client.seat(game["id"], me["token"], bot="random")
    doc = live_client.wait_finished(game["id"], timeout=90)
    assert doc["outcome"]["winners"]
    timeouts = [e for e in live_client.platform.games.stored_events(game["id"]) if isinstance(e, Game.TurnTimedOut)]
    assert timeouts and all(t.seat == 0 and t.applied == "auto" and t.move for t in timeouts)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str], Path]]:
    """A server and a worker with the sweep, on a real Redis broker."""
    from tests.conftest import REDIS_URL, need_service

    need_service("Redis", REDIS_URL, 6379)
    tmp = tmp_path_factory.mktemp("redis-deployment")
    env = _env(tmp, REDIS_URL)
    server = Server(env, tmp)
    worker = Proc(["worker", "--concurrency", "4", "--beat"], env, tmp / "worker.log", tmp)
    yield server, env, tmp
    for proc in (server, worker):
        proc.stop()


def _env(tmp: Path, redis_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DRAGONHALL_DATA_DIR": str(tmp / "var"),
        "DRAGONHALL_STORE": "sqlite",
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_QUEUE_PREFIX": f"t{uuid.uuid4().hex[:8]}.",
        "DRAGONHALL_SWEEP_INTERVAL": "1",
        "DRAGONHALL_SECRET_KEY": "33" * 32,
    }
    env.pop("DRAGONHALL_DATABASE_URL", None)
    return env


def _human_and_bots(server: Server, tc: dict[str, Any], bots: int) -> tuple[str, str]:
    st, me = server.call("POST", "/api/v1/players", {"name": fresh("sleeper")})
    st, game = server.call(
        "POST", "/api/v1/games", {"game": "tarasque", "players": bots + 1, "time_control": tc}, me["token"]
    )
    assert st == 201, game
    server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, me["token"])
    for _ in range(bots):
        st, body = server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "random"}, me["token"])
        assert st == 201, body
    return game["id"], me["token"]


def _events(server: Server, gid: str, token: str | None = None) -> list[dict[str, Any]]:
    return server.call("GET", f"/api/v1/games/{gid}/events", token=token)[1]["events"]


def test_per_move_auto_plays_itself_to_the_end_with_redis_and_a_worker_process(deployment: Any) -> None:
    server = deployment[0]
    gid, _ = _human_and_bots(server, {"kind": "per_move", "seconds": 1, "timeout_policy": "auto"}, bots=1)
    doc = server.wait_status(gid, timeout=240)
    timeouts = [e for e in _events(server, gid) if e["type"] == "TurnTimedOut"]
    assert doc["outcome"]["winners"] and timeouts
    assert {(t["data"]["seat"], t["data"]["applied"]) for t in timeouts} == {(0, "auto")}


def test_a_forfeit_removes_the_seat_and_the_others_play_on(deployment: Any) -> None:
    server = deployment[0]
    gid, _ = _human_and_bots(server, {"kind": "per_move", "seconds": 1, "timeout_policy": "forfeit"}, bots=2)
    doc = server.wait_status(gid, timeout=240)
    events = _events(server, gid)
    timeouts = [e for e in events if e["type"] == "TurnTimedOut"]
    assert [(t["data"]["seat"], t["data"]["applied"]) for t in timeouts] == [(0, "forfeit")]
    moves_after = [e for e in events if e["type"] == "MoveMade" and e["version"] > timeouts[0]["version"]]
    assert moves_after, "the two bots played on after the forfeit"
    assert doc["outcome"]["places"][0] == 3


def test_a_bank_clock_adds_its_increment_and_respects_its_cap(deployment: Any) -> None:
    server = deployment[0]
    tc = {"kind": "bank", "initial": 2, "increment": 1, "cap": 3, "timeout_policy": "auto"}
    gid, token = _human_and_bots(server, tc, bots=1)
    deadline = time.time() + 120
    settled: list[dict[str, Any]] = []
    while time.time() < deadline and len(settled) < 3:
        settled = [e for e in _events(server, gid, token) if e["type"] == "ClockSettled" and "0" in e["data"]["banks"]]
        time.sleep(0.5)
    assert len(settled) >= 3
    bank = 2.0
    for e in settled:
        used, after = e["data"]["used"]["0"], e["data"]["banks"]["0"]
        assert after == round(min(3.0, max(0.0, bank - used) + 1.0), 3) and after <= 3.0
        bank = after
    assert any(e["data"]["used"]["0"] >= 1.0 for e in settled), "a turn that timed out used its whole bank"
    server.call("POST", f"/api/v1/games/{gid}/resign", {}, token)


def test_a_worker_killed_while_a_timeout_is_pending_fires_it_once_after_restart(tmp_path: Path, redis_url: str) -> None:
    env = {**_env(tmp_path, redis_url), "DRAGONHALL_BROKER_VISIBILITY_TIMEOUT": "6"}
    server = Server(env, tmp_path)
    first = Proc(["worker", "--concurrency", "2"], env, tmp_path / "first.log", tmp_path)
    second = None
    try:
        me = server.call("POST", "/api/v1/players", {"name": "a"})[1]
        other = server.call("POST", "/api/v1/players", {"name": "b"})[1]
        tc = {"kind": "per_move", "seconds": 4, "timeout_policy": "forfeit"}
        _, game = server.call(
            "POST", "/api/v1/games", {"game": "tarasque", "players": 2, "time_control": tc}, me["token"]
        )
        gid = game["id"]
        server.call("POST", f"/api/v1/games/{gid}/seats", {}, me["token"])
        server.call("POST", f"/api/v1/games/{gid}/seats", {}, other["token"])
        time.sleep(1.5)  # the deadline task now waits, unacknowledged, inside the first worker
        first.kill()
        second = Proc(["worker", "--concurrency", "2", "--beat"], env, tmp_path / "second.log", tmp_path)
        doc = server.wait_status(gid, timeout=60)
        time.sleep(8)  # long enough for the broker to redeliver the killed worker's task
        timeouts = [e for e in _events(server, gid) if e["type"] == "TurnTimedOut"]
        assert len(timeouts) == 1, second.tail()
        assert doc["outcome"]["places"][timeouts[0]["data"]["seat"]] == 2
    finally:
        for proc in (server, first, second):
            if proc is not None:
                proc.stop()


def test_many_games_timing_out_together_each_time_out_exactly_once(live_client: Any) -> None:
    """A small, fixed sample of bench/timeouts.py: 40 games whose deadlines fall within a second."""
    platform = live_client.platform
    games = []
    for i in range(40):
        a = platform.accounts.register(fresh(f"a{i}"), "human")[0].id
        b = platform.accounts.register(fresh(f"b{i}"), "human")[0].id
        g = platform.games.create_game(
            a, "dice-race", None, None, 2, time_control={"kind": "per_move", "seconds": 1, "timeout_policy": "forfeit"}
        )
        platform.games.take_seat(str(g.id), a, "a", "human")
        platform.games.take_seat(str(g.id), b, "b", "human")
        games.append(str(g.id))
    deadline = time.time() + 30
    while time.time() < deadline and any(platform.games.load(g).status == "active" for g in games):
        time.sleep(0.2)
    for gid in games:
        timeouts = [e for e in platform.games.stored_events(gid) if isinstance(e, Game.TurnTimedOut)]
        assert len(timeouts) == 1, gid
        assert platform.games.load(gid).status == "finished"


def _children(pid: int) -> list[int]:
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


def _one_child(pid: int, timeout: float = 30) -> int:
    deadline = time.time() + timeout
    while time.time() < deadline:
        kids = _children(pid)
        if len(kids) == 1:
            return kids[0]
        time.sleep(0.1)
    raise AssertionError(f"process {pid} has children {_children(pid)}")


def test_a_worker_that_dies_is_started_again_and_the_bots_play_on(tmp_path: Path, redis_url: str) -> None:
    import signal

    env = _env(tmp_path, redis_url)
    server = Server(env, tmp_path)
    worker = Proc(["worker", "--concurrency", "2"], env, tmp_path / "worker.log", tmp_path)
    try:
        first = _one_child(worker.popen.pid)
        os.kill(first, signal.SIGKILL)  # as kombu's unrecoverable error ends it, but harder
        second = _one_child(worker.popen.pid)
        deadline = time.time() + 30
        while second == first and time.time() < deadline:
            time.sleep(0.1)
            second = _one_child(worker.popen.pid)
        assert second != first and worker.alive(), worker.tail()
        gid, _ = server.bot_game("tarasque", 2)
        assert server.wait_status(gid, timeout=120)["outcome"]["winners"]
        assert "stopped with exit code -9; starting a new one" in worker.log.read_text()
        os.kill(worker.popen.pid, signal.SIGTERM)
        assert worker.popen.wait(30) == 0, worker.tail()
        assert not Path(f"/proc/{second}").exists() or "(Z)" in Path(f"/proc/{second}/stat").read_text()
    finally:
        server.stop()
        worker.stop()
