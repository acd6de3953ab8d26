"""deploy/systemd's units started as systemd would start them (systemd is not PID 1 here), on an
install made as deploy/README.md says (a virtual environment of the system's Python, the checkout
installed in it with the locked dependencies): each unit's ``ExecStart`` as its ``User=`` (a system user
made for it), in its ``WorkingDirectory`` (``/`` when it names none, as systemd does), with its
``StateDirectory`` made for that user and its ``UMask``, and the environment of its ``EnvironmentFile``
(deploy/dragonhall.env.example, on the test's PostgreSQL and Redis) and ``Environment=`` lines; each
port it names becomes a free one. The beat's sweep is observed, every unit answers its readiness, and a
bot game runs through them to its end.

Under the units first shipped the beat ran in ``/``, which its user cannot write: celery beat died at
start (its schedule file), nothing swept, and deadlines more than ten minutes away never fired."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.deployment import (
    DEPLOY,
    ROOT,
    environment_file,
    exec_start,
    json_lines,
    remap_ports,
    served_port,
    unit,
    wait_ready,
)
from tests.support.processes import Server

pytestmark = pytest.mark.slow
UNITS = {
    "dragonhall-projections.service": "",
    "dragonhall-beat.service": "",
    "dragonhall-worker@.service": "1",
    "dragonhall-web.service": "",
}
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class UnitProcess:
    """One unit's main process, started as its user, its output in a log file."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str, user: pwd.struct_passwd, umask: int, log: Path):
        self.log = log
        self._out = open(log, "w")  # noqa: SIM115 - closed in stop()
        drop = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--"]
        self.popen = subprocess.Popen(
            [*drop, *argv],
            env=env,
            cwd=cwd,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: os.umask(umask),
        )

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(15)
        self._out.close()


def _system_user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(name)


SYSTEM_PYTHON = "/usr/bin/python3"
"""The interpreter of the install: one every user can run (a developer's may live in a home of its own)."""


@pytest.fixture
def machine() -> Iterator[Path]:
    """A root for the units' paths that their user may reach (pytest's own is its owner's alone), with
    Dragonhall installed at ``opt/dragonhall/.venv`` as deploy/README.md installs it."""
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("useradd"):
        pytest.skip("starting units as their own user needs root, setpriv and useradd")
    if not Path(SYSTEM_PYTHON).exists():
        pytest.skip(f"no {SYSTEM_PYTHON} to install Dragonhall with")
    root = Path(tempfile.mkdtemp(prefix="dh-units-"))
    root.chmod(0o755)
    venv = root / "opt" / "dragonhall" / ".venv"
    readable = {"check": True, "capture_output": True, "preexec_fn": lambda: os.umask(0o022)}  # as root installs it
    try:
        subprocess.run([SYSTEM_PYTHON, "-m", "venv", str(venv)], timeout=120, **readable)
        constraint = ["--constraint", str(DEPLOY / "requirements.lock")]
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *constraint, str(ROOT)], timeout=600, **readable)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_shipped_units_run_as_their_user_and_the_beat_sweeps(
    machine: Path, pg_url: str, redis_url: str, pg_schema: str
) -> None:
    state = machine / "var" / "lib" / "dragonhall"
    env_file = machine / "dragonhall.env"
    shipped = environment_file(DEPLOY / "dragonhall.env.example")
    local = {
        "DRAGONHALL_DATABASE_URL": pg_url,
        "DRAGONHALL_POSTGRES_SCHEMA": pg_schema,
        "DRAGONHALL_BROKER_URL": redis_url,
        "DRAGONHALL_SECRET_KEY": "55" * 32,
        "DRAGONHALL_DATA_DIR": str(state),
        "DRAGONHALL_QUEUE_PREFIX": f"t{uuid.uuid4().hex[:8]}.",  # this test's own queues
        "DRAGONHALL_SWEEP_INTERVAL": "1",
    }
    env_file.write_text("".join(f"{k}={v}\n" for k, v in {**shipped, **local}.items()))
    paths = {
        "/opt/dragonhall/.venv/bin/dragonhall": str(machine / "opt" / "dragonhall" / ".venv" / "bin" / "dragonhall"),
        "/var/lib/dragonhall": str(state),
    }
    procs: dict[str, UnitProcess] = {}
    ports: dict[str, dict[str, int]] = {}
    try:
        for name, instance in UNITS.items():
            settings = unit(DEPLOY / "systemd" / name, instance)
            user = _system_user(settings["User"][0])
            assert settings["EnvironmentFile"] == ["/etc/dragonhall/dragonhall.env"]
            for directory in settings.get("StateDirectory", []):  # systemd makes it, the user's
                made = machine / "var" / "lib" / directory
                made.mkdir(parents=True, exist_ok=True)
                os.chown(made, user.pw_uid, user.pw_gid)
                made.chmod(int(settings.get("StateDirectoryMode", ["0755"])[0], 8))
            cwd = paths.get(settings.get("WorkingDirectory", ["/"])[0], settings.get("WorkingDirectory", ["/"])[0])
            env = {
                "PATH": SYSTEM_PATH,
                "HOME": user.pw_dir,
                "USER": user.pw_name,
                "LOGNAME": user.pw_name,
                "SHELL": user.pw_shell,
                **environment_file(env_file),
                **dict(line.partition("=")[::2] for line in settings.get("Environment", [])),
            }
            argv = remap_ports(exec_start(settings, paths), ports.setdefault(name, {}))
            umask = int(settings.get("UMask", ["0022"])[0], 8)
            procs[name] = UnitProcess(argv, env, cwd, user, umask, machine / f"{name}.log")
        for name, proc in procs.items():
            wait_ready(served_port(proc.popen.args[5:]), name, proc.log, timeout=120)
            uid = int(Path(f"/proc/{proc.popen.pid}/status").read_text().split("Uid:")[1].split()[0])
            assert uid == pwd.getpwnam("dragonhall").pw_uid, name

        beat = procs["dragonhall-beat.service"]
        swept = _wait_sweep(served_port(beat.popen.args[5:]), beat.log)
        assert swept["age_seconds"] is not None, swept
        schedules = list(state.glob("celerybeat-schedule*"))  # the beat's, in the data directory (dbm's suffixes)
        assert schedules and all(f.stat().st_uid == pwd.getpwnam("dragonhall").pw_uid for f in schedules)
        assert all(f.stat().st_mode & 0o077 == 0 for f in schedules)  # UMask=0077
        assert (state / "metrics").stat().st_mode & 0o777 == 0o700

        web = Server.__new__(Server)
        web.port = served_port(procs["dragonhall-web.service"].popen.args[5:])
        web.base, web.log = f"http://127.0.0.1:{web.port}", procs["dragonhall-web.service"].log
        gid, _ = web.bot_game("tarasque", 2)
        assert web.wait_status(gid, timeout=180)["outcome"]["winners"]
        assert all(p.alive() for p in procs.values()), [p.log.name for p in procs.values() if not p.alive()]
    finally:
        for proc in reversed(procs.values()):
            proc.stop()
    for proc in procs.values():
        json_lines(proc.log)


def _wait_sweep(port: int, log: Path, timeout: float = 60) -> dict[str, Any]:
    """The beat's sweep check, once a sweep has run."""
    deadline = time.time() + timeout
    check: dict[str, Any] = {}
    while time.time() < deadline:
        answer = wait_ready(port, "beat", log)
        check = next(c for c in answer["checks"] if c["name"] == "sweep")
        if check["age_seconds"] is not None:
            return check
        time.sleep(0.5)
    raise AssertionError(f"no sweep observed: {check}\n{log.read_text(errors='replace')[-3000:]}")
