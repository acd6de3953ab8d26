"""The Dockerfile, deploy/compose.yaml and the Prometheus files beside it, checked where containers
cannot run: they parse; every command they run (services and healthchecks) exists in the CLI with
those options; every variable they set is one the code reads (and docs/operations.md lists); every
service has a healthcheck, rotated logs and resource limits; web ports are bound for a reverse proxy
on this machine; the secrets are files; Prometheus scrapes every Dragonhall process on the port it
serves; and the image installs the locked dependencies. tests/integration/test_production_topology.py
runs every command once."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.cli import command_line
from tests.unit.project.test_configuration_documented import documented, read_by_code

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"
PROMETHEUS = ROOT / "deploy" / "prometheus"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def dragonhall_services() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose()["services"].items() if str(s.get("image", "")).startswith("dragonhall")}


def parses(argv: list[str]) -> Any:
    try:
        return command_line().parse_args(argv)
    except SystemExit:
        pytest.fail(f"`dragonhall {' '.join(argv)}` is not a command of the CLI")


def served_port(args: Any) -> int | None:
    """The port a command answers ``/readyz`` on: serve's, or its ``--metrics-port``."""
    return args.port if args.command == "serve" else getattr(args, "metrics_port", None)


def test_every_command_of_the_compose_file_exists_in_the_cli_with_its_options() -> None:
    services = dragonhall_services()
    commands = {name: parses([str(a) for a in s["command"]]) for name, s in services.items()}
    kinds = sorted(args.command for args in commands.values())
    assert kinds == ["init", "projections", "projections", "serve", "serve", "worker", "worker"]
    assert [name for name, args in commands.items() if args.command == "worker" and args.beat] == ["beat"]
    assert {"postgres", "redis", "prometheus"} <= set(compose()["services"])


def test_every_service_has_a_healthcheck_that_asks_the_port_it_serves() -> None:
    for name, service in compose()["services"].items():
        check = service.get("healthcheck", {})
        if name == "init":  # a job that ends: compose waits for its success instead
            assert check.get("disable") is True and service["restart"] == "no"
            continue
        assert check.get("test"), f"{name} has no healthcheck"
        if name in dragonhall_services():
            probe = parses(check["test"][2:])
            assert check["test"][:2] == ["CMD", "dragonhall"] and probe.command == "ready", name
            assert probe.port == served_port(parses(service["command"])), name


def test_every_service_rotates_its_logs_and_has_resource_limits() -> None:
    for name, service in compose()["services"].items():
        options = service["logging"]["options"]
        assert service["logging"]["driver"] == "json-file" and options["max-size"] and options["max-file"], name
        limits = service["deploy"]["resources"]["limits"]
        assert limits["memory"] and limits["cpus"], name


def test_published_ports_are_bound_to_this_machine_for_a_reverse_proxy() -> None:
    published = [p for s in compose()["services"].values() for p in s.get("ports", [])]
    assert published and all(p.startswith("127.0.0.1:") for p in published), published


def test_the_dragonhall_services_wait_for_the_schema_job_and_read_their_secrets_from_files(tmp_path: Path) -> None:
    secrets = compose()["secrets"]
    for name, service in dragonhall_services().items():
        env = service["environment"]
        assert "DRAGONHALL_SECRET_KEY" not in env, f"{name}: the key belongs in a file, not the environment"
        for variable in ("DRAGONHALL_SECRET_KEY_FILE", "DRAGONHALL_DATABASE_PASSWORD_FILE"):
            secret = Path(env[variable]).name
            assert env[variable] == f"/run/secrets/{secret}" and secret in service["secrets"], (name, variable)
        if name != "init":
            assert service["depends_on"]["init"]["condition"] == "service_completed_successfully", name
            assert env["DRAGONHALL_CREATE_TABLES"] == "0", name
    assert (
        compose()["services"]["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres-password"
    )
    script = tmp_path / "make-secrets.sh"
    script.write_text((ROOT / "deploy" / "make-secrets.sh").read_text())
    subprocess.run(["sh", str(script)], check=True, capture_output=True, timeout=30)
    first = {name: (tmp_path / s["file"]).read_text() for name, s in secrets.items()}
    assert re.fullmatch(r"[0-9a-f]{64}", first["secret-key"]), first
    assert (tmp_path / "secrets").stat().st_mode & 0o777 == 0o700
    subprocess.run(["sh", str(script)], check=True, capture_output=True, timeout=30)
    assert {name: (tmp_path / s["file"]).read_text() for name, s in secrets.items()} == first, "made again"


def test_every_variable_the_compose_file_sets_is_read_by_the_code_and_documented() -> None:
    read, listed = read_by_code(), documented()
    for name, service in dragonhall_services().items():
        for variable in service["environment"]:
            assert variable in read, f"{name} sets {variable}, which no code reads"
            assert variable in listed, f"{name} sets {variable}, which docs/operations.md does not list"


def test_the_compose_file_configures_the_processes_as_the_production_section_does() -> None:
    section = (ROOT / "docs" / "operations.md").read_text().split("## Production", 1)[1].split("\n## ", 1)[0]
    exported = dict(re.findall(r"(DRAGONHALL_\w+)=(\S+)", section.split("```sh", 1)[1].split("```", 1)[0]))
    for name, service in dragonhall_services().items():
        env = service["environment"]
        missing = {v for v in exported if v not in env and f"{v}_FILE" not in env}
        assert not missing, f"{name} misses {missing}"
        assert env["DRAGONHALL_EMBEDDED_PROJECTIONS"] == exported["DRAGONHALL_EMBEDDED_PROJECTIONS"] == "0"


def test_prometheus_scrapes_every_dragonhall_process_where_it_serves_its_metrics() -> None:
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    targets = {t for job in config["scrape_configs"] for c in job["static_configs"] for t in c["targets"]}
    expected = set()
    for name, service in dragonhall_services().items():
        port = served_port(parses(service["command"]))
        if service.get("restart") != "no":
            assert port, f"{name} serves no metrics"
            expected.add(f"{name}:{port}")
    assert targets == expected
    mount = next(v for v in compose()["services"]["prometheus"]["volumes"] if v.startswith("./prometheus:"))
    assert all(f.startswith(mount.split(":")[1] + "/") for f in config["rule_files"])
    assert {Path(f).name for f in config["rule_files"]} == {"alerts.yml"}


def test_the_dockerfile_is_pinned_runs_as_a_user_and_starts_a_cli_command() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    bases = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert bases and all(re.fullmatch(r"[\w./-]+:\d+\.\d+\.\d+[\w.-]*", b) for b in bases), bases
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0"), users
    entry = json.loads(next(line for line in lines if line.startswith("ENTRYPOINT ")).split(" ", 1)[1])
    cmd = json.loads(next(line for line in lines if line.startswith("CMD ")).split(" ", 1)[1])
    assert entry == ["dragonhall"]
    assert parses(cmd).command == "serve"
    for line in lines:
        if line.startswith("COPY ") and "--from" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
    installs = DOCKERFILE.read_text().replace("\\\n", " ")
    assert re.search(r"pip install [^\n]*--constraint deploy/requirements\.lock", installs), (
        "not installed from the lock"
    )
