"""deploy/compose.yaml's topology as local processes on the real PostgreSQL and Redis: every command the
compose file names is run once as its service runs it (its environment, its secrets made by
deploy/make-secrets.sh, a data directory per container, a free port for each port it names): the schema's
init job, two HTTP processes, the projections' leader and a standby, a worker and the beat, each
healthcheck, and the documented backup. Bot games and a scheduled game run to their end; one bot turn is
followed from its HTTP request to the worker's log lines and back; the leader is killed on the way and the
standby takes over; a rebuild refuses, naming the leader's kind; every line every process writes is JSON."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.support.deployment import (
    DEPLOY,
    compose,
    documented_pg_dump,
    json_lines,
    ready,
    remap_ports,
    served_port,
    wait_ready,
)
from tests.support.names import fresh
from tests.support.processes import BIN, Proc, Server

pytestmark = pytest.mark.slow

SECRETS = "/run/secrets/"


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


class Web(Server):
    """A compose web service, on the port its command was given."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, cwd: Path) -> None:
        self.port = served_port(argv)
        self.base = f"http://127.0.0.1:{self.port}"
        Proc.__init__(self, argv, env, log, cwd)

    def request(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
        req = urllib.request.Request(self.base + path, method=method, data=body, headers=headers)
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers


def _environment(service: dict[str, Any], tmp: Path, name: str, services: dict[str, str]) -> dict[str, str]:
    """A service's environment, its hosts and files mapped to this machine's."""
    env = {k: str(v) for k, v in service["environment"].items()}
    for key, value in env.items():
        if value.startswith(SECRETS):
            env[key] = str(tmp / "secrets" / value.removeprefix(SECRETS))
    env.update(services)
    env["DRAGONHALL_DATA_DIR"] = str(tmp / name)  # each container has its own filesystem
    return env


def test_the_compose_topology_runs_as_shipped_and_one_bot_turn_is_traced_to_the_worker(
    tmp_path: Path, pg_url: str, redis_url: str, pg_schema: str
) -> None:
    script = tmp_path / "make-secrets.sh"
    shutil.copy(DEPLOY / "make-secrets.sh", script)
    subprocess.run(["sh", str(script)], check=True, capture_output=True, timeout=30)
    key = (tmp_path / "secrets" / "secret-key").read_text()
    local = {
        "DRAGONHALL_DATABASE_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_QUEUE_PREFIX": f"t{uuid.uuid4().hex[:8]}.",
        "DRAGONHALL_SWEEP_INTERVAL": "1",
    }
    services = compose()["services"]
    ports: dict[str, dict[str, int]] = {name: {} for name in services}  # each container has its own ports
    procs: dict[str, Any] = {}

    def argv(name: str) -> list[str]:
        return remap_ports([str(a) for a in services[name]["command"]], ports[name])

    def healthcheck(name: str) -> int:
        """The port the service's healthcheck asks, mapped as its command's ports were."""
        return served_port(remap_ports([str(a) for a in services[name]["healthcheck"]["test"]], ports[name]))

    def env(name: str, **extra: str) -> dict[str, str]:
        return {**os.environ, **_environment(services[name], tmp_path, name, local), **extra}

    def start(name: str, **extra: str) -> Any:
        command, log = argv(name), tmp_path / f"{name}.log"
        kind = Web if command[0] == "serve" else Proc
        procs[name] = kind(command, env(name, **extra), log, tmp_path)
        assert healthcheck(name) == served_port(command), name
        return procs[name]

    try:
        init = subprocess.run(
            [str(BIN), *argv("init")], env=env("init"), cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert init.returncode == 0, init.stderr
        for check in (services["postgres"]["healthcheck"]["test"], services["redis"]["healthcheck"]["test"]):
            probe = [*check[1:], "-h", "127.0.0.1"]
            assert subprocess.run(probe, capture_output=True, timeout=30).returncode == 0, probe
        leader = start("projections-leader", DRAGONHALL_LOG_LEVEL="INFO")
        leads = wait_ready(served_port(argv("projections-leader")), "leader", leader.log)
        assert leads["checks"][0]["role"] == "leader"
        standby = start("projections-standby")
        start("worker", DRAGONHALL_LOG_LEVEL="INFO")  # its tasks' lines, for the trace
        start("beat")  # WARNING, as compose has it: Celery's lines per task stay out
        web = [start("web-1"), start("web-2")]
        for name, proc in procs.items():
            wait_ready(healthcheck(name), name, proc.log)  # each healthcheck passes
        assert wait_ready(served_port(argv("projections-standby")), "standby", standby.log)["checks"][0]["role"] == (
            "standby"
        )

        # One bot turn, from the request that starts the game to the worker's lines and back.
        trace = f"trace-{uuid.uuid4().hex[:12]}"
        _st, owner = web[0].call("POST", "/api/v1/players", {"name": fresh("owner")})
        _st, game = web[0].call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, owner["token"])
        web[0].call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "random"}, owner["token"])
        status, headers = web[0].request(
            "POST",
            f"/api/v1/games/{game['id']}/seats",
            b'{"bot": "random"}',
            {"Authorization": f"Bearer {owner['token']}", "Content-Type": "application/json", "X-Request-Id": trace},
        )
        assert status == 201 and headers["X-Request-Id"] == trace
        doc = web[1].wait_status(game["id"], timeout=180)  # moved by the worker, read through the other process
        assert doc["outcome"]["winners"]
        traced = [e for e in json_lines(procs["worker"].log) if e.get("request_id") == trace]
        assert traced and {e.get("game_id") for e in traced} == {game["id"]}, traced[:3]
        assert {e.get("account") for e in traced} == {owner["id"]}
        assert any(e["logger"] == "celery.app.trace" and "succeeded" in e["message"] for e in traced)

        _a_crashed_http_process_leaves_its_streams_out_and_its_counts_in(web[0], owner["token"])

        rebuild = subprocess.run(
            [str(BIN), "rebuild-projections"], env=env("init"), cwd=tmp_path, capture_output=True, text=True, timeout=99
        )
        assert rebuild.returncode == 3
        refusal = rebuild.stderr
        assert "(dragonhall-projections)" in refusal and "every standby" in refusal and "serve" not in refusal

        leader.kill(signal.SIGKILL)  # the standby leads from here
        at = (datetime.now(UTC) + timedelta(seconds=3)).isoformat()
        _st, owner = web[1].call("POST", "/api/v1/players", {"name": fresh("owner")})
        st, scheduled = web[1].call(
            "POST", "/api/v1/games", {"game": "tarasque", "players": 2, "starts_at": at}, owner["token"]
        )
        assert st == 201 and scheduled["status"] == "scheduled", scheduled
        games = {game["id"], scheduled["id"], web[1].bot_game("seven-dragons", 3)[0]}
        for gid in games - {game["id"]}:
            assert web[0].wait_status(gid, timeout=240)["outcome"]["winners"]
        _listed_finished(web[0], games)  # the standby keeps the read models now
        assert ready(served_port(argv("projections-standby")))[1]["checks"][0]["role"] == "leader"

        worker_metrics = urllib.request.urlopen(f"http://127.0.0.1:{served_port(argv('worker'))}/metrics").read()
        assert b'dragonhall_bot_turns_total{outcome="played"}' in worker_metrics
        _backup(tmp_path, pg_url, pg_schema, services)
        roles = {"dragonhall-web", "dragonhall-worker", "dragonhall-beat", "dragonhall-projections"}
        assert roles <= set(_application_names(pg_url)), _application_names(pg_url)
        alive = [p for n, p in procs.items() if n != "projections-leader"]
        assert all(p.alive() for p in alive), [p.log.name for p in alive if not p.alive()]
    finally:
        for proc in reversed(procs.values()):
            proc.stop()
    beat = json_lines(procs["beat"].log)  # every line of every process: JSON
    assert not [e for e in beat if e["logger"].startswith("celery") and e["level"] == "INFO"], beat[:5]
    for proc in procs.values():
        for entry in json_lines(proc.log):
            assert key not in str(entry), f"{proc.log.name} logs the server key"


def _samples(web: Web) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    text = urllib.request.urlopen(web.base + "/metrics", timeout=30).read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[sample.name] = out.get(sample.name, 0.0) + sample.value  # summed over labels
    return out


def _a_crashed_http_process_leaves_its_streams_out_and_its_counts_in(web: Web, token: str) -> None:
    """Streams held by an HTTP process that is killed are no longer counted as open once Granian has
    started another; the requests it counted stay counted (no drop, which Prometheus reads as a reset)."""

    def stream() -> Any:
        req = urllib.request.Request(web.base + "/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"})
        return urllib.request.urlopen(req, timeout=30)

    held = [stream(), stream()]
    before = _samples(web)
    assert before["dragonhall_open_streams"] == 2
    (child,) = _http_processes(web.popen.pid)
    os.kill(child, signal.SIGKILL)
    for response in held:
        response.close()
    deadline = time.time() + 60
    while _http_processes(web.popen.pid) in ([], [child]) or ready(web.port)[0] != 0:  # Granian starts another
        assert time.time() < deadline, web.tail()
        time.sleep(0.2)
    again = stream()
    after = _samples(web)
    again.close()
    assert after["dragonhall_open_streams"] == 1, after["dragonhall_open_streams"]
    assert after["dragonhall_request_seconds_count"] >= before["dragonhall_request_seconds_count"]


def _http_processes(serve: int) -> list[int]:
    """The live HTTP processes Granian runs for ``serve``: its children (but multiprocessing's resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except (OSError, NotADirectoryError):
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[1] == str(serve) and fields[0] != "Z" and b"resource_tracker" not in command:
            found.append(int(entry.name))
    return found


def _application_names(pg_url: str) -> list[str]:
    """The application names of the sessions open on PostgreSQL now."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT DISTINCT application_name FROM pg_stat_activity").fetchall()
    return [r[0] for r in rows]


def _backup(tmp_path: Path, pg_url: str, pg_schema: str, services: dict[str, Any]) -> None:
    """The documented compose backup: its schema is compose's, and pg_dump with its options (on this
    machine's PostgreSQL, in the test's schema) writes a private, restorable dump of every table."""
    line = documented_pg_dump()
    assert f"--schema={services['web-1']['environment']['DRAGONHALL_POSTGRES_SCHEMA']}" in line, line
    assert "umask 077" in line and "-Fc" in line
    dump = tmp_path / "today.dump"
    command = f"umask 077 && pg_dump -d '{pg_url}' -Fc --schema={pg_schema} > '{dump}'"
    subprocess.run(["sh", "-c", command], check=True, timeout=120)
    assert dump.stat().st_mode & 0o777 == 0o600
    listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True).stdout
    assert "TABLE DATA" in listing and "dh_games" in listing and "dh_heartbeats" in listing
