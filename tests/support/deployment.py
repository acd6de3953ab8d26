"""The shipped deployment files, run here as they would run there: deploy/compose.yaml's services and
deploy/systemd's units, as local processes on the test's PostgreSQL and Redis.

Each service or unit runs its own command line, with its own environment, on a free port in place of
the one it names (the machine runs other tests), and writes its log to a file of the test."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from tests.support.processes import BIN, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PORT_OPTIONS = ("--port", "--metrics-port")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def remap_ports(argv: list[str], ports: dict[str, int]) -> list[str]:
    """``argv`` with each port option's value replaced by a free port (the same one for the same value)."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in PORT_OPTIONS:
            out[i + 1] = str(ports.setdefault(out[i + 1], free_port()))
    return out


def served_port(argv: list[str]) -> int:
    """The port a command line answers ``/readyz`` on: ``--metrics-port``, else ``--port``."""
    for option in ("--metrics-port", "--port"):
        if option in argv:
            return int(argv[argv.index(option) + 1])
    raise AssertionError(f"{argv} serves no port")


def ready(port: int) -> tuple[int, dict[str, Any]]:
    """Runs ``dragonhall ready --port PORT``, as a healthcheck does: its exit code and answer."""
    done = subprocess.run([str(BIN), "ready", "--port", str(port)], capture_output=True, text=True, timeout=30)
    return done.returncode, json.loads(done.stdout or "{}")


def wait_ready(port: int, what: str, log: Path, timeout: float = 90) -> dict[str, Any]:
    deadline = time.time() + timeout
    answer: dict[str, Any] = {}
    while time.time() < deadline:
        code, answer = ready(port)
        if code == 0:
            return answer
        time.sleep(0.5)
    raise AssertionError(f"{what} not ready after {timeout} s: {answer}\n{log.read_text(errors='replace')[-3000:]}")


def json_lines(log: Path) -> list[dict[str, Any]]:
    """Every line of a process's log, each of which must be one JSON object."""
    entries = []
    lines = log.read_text(errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
        except ValueError:
            around = "\n".join(lines[max(0, number - 3) : number + 25])  # a traceback follows its first line
            raise AssertionError(f"{log.name}:{number} is not a JSON line: {line!r}\n{around}") from None
        assert isinstance(entry, dict), (log.name, number, line)
        entries.append(entry)
    return entries


def unit(path: Path, instance: str = "") -> dict[str, list[str]]:
    """A systemd unit's ``[Service]`` settings, each key with its values in order (``%i`` filled in)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section == "Service":
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip().replace("%i", instance))
    return settings


def environment_file(path: Path) -> dict[str, str]:
    """The variables of an ``EnvironmentFile`` as systemd reads it (``KEY=value`` lines, comments skipped)."""
    env = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";")) and "=" in line:
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip().strip('"')
    return env


def exec_start(settings: dict[str, list[str]], paths: dict[str, str]) -> list[str]:
    """A unit's ``ExecStart`` as an argument list, with the shipped paths mapped to this checkout's."""
    (line,) = settings["ExecStart"]
    argv = shlex.split(line)
    return [paths.get(arg, arg) for arg in argv]


def venv_binary() -> str:
    return str(Path(sys.executable).parent / "dragonhall")


def documented_pg_dump() -> str:
    """The compose backup command of docs/operations.md (the line that runs ``pg_dump``)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    match = re.search(r"^.*docker compose[^\n]*pg_dump[^\n]*$", text, re.MULTILINE)
    assert match, "docs/operations.md shows no pg_dump through compose"
    return match.group(0)
