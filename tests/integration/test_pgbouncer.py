"""Dragonhall behind PgBouncer in transaction mode, as docs/operations.md (Behind PgBouncer) sets it up:
``DRAGONHALL_DATABASE_URL`` through the pooler, ``DRAGONHALL_DATABASE_DIRECT_URL`` to the server for what
holds a session (the leader lock, the tables' lock, the runner's LISTEN). Debian's PgBouncer 1.18 keeps no
prepared statement across transactions and refuses a ``search_path`` given at connection: a bot game
still runs to its end through it, listed by the read models, and the pooler saw the web and worker
processes by name. ``tests/ensure_packages.sh`` installs it (``make test``, ``.ci/run``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.support.processes import BIN, Proc, Server, free_port

pytestmark = pytest.mark.slow
PGBOUNCER = "/usr/sbin/pgbouncer"


@pytest.fixture
def bouncer(pg_url: str) -> Iterator[str]:
    """A PgBouncer in transaction mode in front of the test's database: its URL."""
    if not Path(PGBOUNCER).exists():
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"no {PGBOUNCER} (.ci/run installs it: tests/ensure_packages.sh)")
        pytest.skip(f"no {PGBOUNCER}: apt-get install pgbouncer (tests/ensure_packages.sh) to run this")
    u = urlparse(pg_url)
    user, port = u.username or "postgres", free_port()
    home = Path(tempfile.mkdtemp(prefix="dh-pgbouncer-"))
    home.chmod(0o700)
    (home / "users.txt").write_text(f'"{user}" ""\n')
    (home / "pgbouncer.ini").write_text(
        f"[databases]\n{u.path.lstrip('/')} = host={u.hostname} port={u.port or 5432} dbname={u.path.lstrip('/')}\n"
        f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {home}/users.txt\nadmin_users = {user}\npool_mode = transaction\n"
        f"max_client_conn = 400\ndefault_pool_size = 20\nignore_startup_parameters = extra_float_digits\n"
        f"logfile = {home}/pgbouncer.log\n"
    )
    as_user = []
    if os.geteuid() == 0:  # it will not run as root: as PostgreSQL's user, its files that user's
        import pwd

        postgres = pwd.getpwnam("postgres")
        for path in (home, *home.iterdir()):
            os.chown(path, postgres.pw_uid, postgres.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    process = subprocess.Popen([*as_user, PGBOUNCER, str(home / "pgbouncer.ini")], stdout=subprocess.DEVNULL)
    url = u._replace(netloc=f"{user}@127.0.0.1:{port}").geturl()
    try:
        deadline = time.time() + 30
        while subprocess.run(["pg_isready", "-q", "-d", url]).returncode != 0:
            assert time.time() < deadline and process.poll() is None, (home / "pgbouncer.log").read_text()
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(15)
        shutil.rmtree(home, ignore_errors=True)


def _admin(bouncer: str, command: str) -> str:
    u = urlparse(bouncer)
    admin = u._replace(path="/pgbouncer").geturl()
    return subprocess.run(["psql", admin, "-Atc", command], capture_output=True, text=True, check=True).stdout


def test_a_bot_game_runs_through_pgbouncer_in_transaction_mode(
    tmp_path: Path, bouncer: str, pg_url: str, redis_url: str, pg_schema: str
) -> None:
    env = {
        **os.environ,
        "DRAGONHALL_DATABASE_URL": bouncer,
        "DRAGONHALL_DATABASE_DIRECT_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_QUEUE_PREFIX": f"t{uuid.uuid4().hex[:8]}.",
        "DRAGONHALL_EMBEDDED_PROJECTIONS": "0",
        "DRAGONHALL_CREATE_TABLES": "0",
        "DRAGONHALL_DATA_DIR": str(tmp_path / "var"),
        "DRAGONHALL_SECRET_KEY": "66" * 32,
    }
    init = subprocess.run([str(BIN), "init"], env={**env, "DRAGONHALL_CREATE_TABLES": "1"}, capture_output=True)
    assert init.returncode == 0, init.stderr
    procs: list[Proc] = []
    try:
        procs.append(Proc(["projections"], env, tmp_path / "projections.log", tmp_path))
        procs.append(Proc(["worker", "--concurrency", "2"], env, tmp_path / "worker.log", tmp_path))
        web = Server(env, tmp_path, ("--workers", "1"))
        procs.append(web)
        gid, _ = web.bot_game("tarasque", 2)
        assert web.wait_status(gid, timeout=180)["outcome"]["winners"]
        clients = _admin(bouncer, "SHOW CLIENTS")  # while they are connected
        deadline = time.time() + 60
        while True:
            _st, listing = web.call("GET", "/api/v1/games?status=finished")
            if [g["id"] for g in listing["games"]] == [gid]:
                break
            assert time.time() < deadline, procs[0].tail()
            time.sleep(0.2)
        assert all(p.alive() for p in procs), [p.tail() for p in procs if not p.alive()]
    finally:
        for proc in reversed(procs):
            proc.stop()
    assert "dragonhall-web" in clients and "dragonhall-worker" in clients, clients
    for proc in procs:
        assert "prepared statement" not in proc.log.read_text(), proc.tail()
