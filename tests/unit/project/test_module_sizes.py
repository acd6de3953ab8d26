"""No production module passes 400 lines (issue 34, "A house a newcomer can walk").

A module that long holds more than one idea: split it by what its parts hold, into
modules named for them (``api/game_schemas.py``, ``api/serve_command.py``,
``dragonhall/transport.py``), rather than raise the limit. The few modules not split yet
are listed below with the length they may not pass and why they wait; an entry goes
once its module is under the limit, and this test says when.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[3]
PRODUCTION = ("domain", "infra", "services", "projections", "workers", "api", "wiring", "rl", "dragonhall")
LIMIT = 400

WAITING: dict[str, int] = {}
"""Modules not split yet, each with the length it may not pass (its length when listed)."""


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def _modules() -> list[Path]:
    return [path for package in PRODUCTION for path in sorted((ROOT / package).rglob("*.py"))]


def test_no_production_module_passes_the_limit() -> None:
    too_long = []
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        allowed = WAITING.get(name, LIMIT)
        if (lines := _lines(path)) > allowed:
            too_long.append(f"{name}: {lines} lines, more than {allowed}")
    assert not too_long, "split these by what their parts hold:\n" + "\n".join(too_long)


def test_a_module_waiting_to_be_split_is_still_over_the_limit() -> None:
    """An entry whose module was split (or removed) goes, so the list says only what is left."""
    stale = [name for name in sorted(WAITING) if not (ROOT / name).exists() or _lines(ROOT / name) <= LIMIT]
    assert not stale, f"remove these entries from WAITING: {stale}"


def test_the_limit_sees_every_production_package() -> None:
    """A package added beside these is a production one too, unless it is one of the known others."""
    others = {"tests", "bench", "docs", "deploy", "examples"}
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - others <= set(PRODUCTION), sorted(packages - others - set(PRODUCTION))
