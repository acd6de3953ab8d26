"""deploy/requirements.lock pins every distribution the image installs, within pyproject.toml's ranges.

The workers' leases read two kombu internals (``workers/leases.py``), and a release of any dependency
can change what the server does: so the image installs the exact versions of the lock
(``pip install --constraint``), made with ``pip freeze`` from a fresh ``pip install .`` (the lock's
header says how), and this test holds the lock to what ``pyproject.toml`` declares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[3]
LOCK = ROOT / "deploy" / "requirements.lock"


def locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([\w.+!-]+)", line)
        assert match, f"not an exact pin: {line!r}"
        pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"]]


def test_every_declared_dependency_is_pinned_within_its_declared_range() -> None:
    pins = locked()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in deploy/requirements.lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{name}=={pins[name]} outside {requirement}"
        )


def test_the_lock_holds_the_server_s_dependencies_only() -> None:
    pins = locked()
    for tool in ("pytest", "mypy", "ruff", "hypothesis", "playwright", "dragonhall"):
        assert tool not in pins, f"{tool} is not the server's"
    assert {"kombu", "celery", "redis", "eventsourcing"} <= set(pins)
