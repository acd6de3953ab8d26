"""The Dockerfile and deploy/compose.yaml, checked where containers cannot run: they parse, every
command they run exists in the CLI with those options, and every variable they set is one the code
reads (and docs/operations.md lists), as the README's production section sets them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.cli import command_line
from tests.unit.project.test_configuration_documented import documented, read_by_code

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def _dragonhall_services() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in _compose()["services"].items() if str(s.get("image", "")).startswith("dragonhall")}


def _parses(argv: list[str]) -> Any:
    try:
        return command_line().parse_args(argv)
    except SystemExit:
        pytest.fail(f"`dragonhall {' '.join(argv)}` is not a command of the CLI")


def test_every_command_of_the_compose_file_exists_in_the_cli_with_its_options() -> None:
    services = _dragonhall_services()
    commands = {name: _parses([str(a) for a in s["command"]]) for name, s in services.items()}
    kinds = sorted(args.command for args in commands.values())
    assert kinds == ["projections", "projections", "serve", "serve", "worker", "worker"]
    assert [name for name, args in commands.items() if args.command == "worker" and args.beat] == ["beat"]
    assert {"postgres", "redis"} <= set(_compose()["services"])


def test_every_variable_the_compose_file_sets_is_read_by_the_code_and_documented() -> None:
    read, listed = read_by_code(), documented()
    for name, service in _dragonhall_services().items():
        for variable in service["environment"]:
            assert variable in read, f"{name} sets {variable}, which no code reads"
            assert variable in listed, f"{name} sets {variable}, which docs/operations.md does not list"


def test_the_compose_file_configures_the_processes_as_the_readme_production_section_does() -> None:
    section = (ROOT / "docs" / "operations.md").read_text().split("## Production", 1)[1].split("\n## ", 1)[0]
    exported = dict(re.findall(r"(DRAGONHALL_\w+)=(\S+)", section.split("```sh", 1)[1].split("```", 1)[0]))
    for name, service in _dragonhall_services().items():
        env = service["environment"]
        assert set(exported) <= set(env), f"{name} misses {set(exported) - set(env)}"
        assert env["DRAGONHALL_EMBEDDED_PROJECTIONS"] == exported["DRAGONHALL_EMBEDDED_PROJECTIONS"] == "0"


def test_the_dockerfile_is_pinned_runs_as_a_user_and_starts_a_cli_command() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    bases = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert bases and all(re.fullmatch(r"[\w./-]+:\d+\.\d+\.\d+[\w.-]*", b) for b in bases), bases
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0"), users
    entry = json.loads(next(line for line in lines if line.startswith("ENTRYPOINT ")).split(" ", 1)[1])
    cmd = json.loads(next(line for line in lines if line.startswith("CMD ")).split(" ", 1)[1])
    assert entry == ["dragonhall"]
    assert _parses(cmd).command == "serve"
    for line in lines:
        if line.startswith("COPY ") and "--from" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
