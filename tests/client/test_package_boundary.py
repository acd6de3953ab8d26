"""The client library is what a bot author installs: it imports none of the server's packages, and the
examples import only it and the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = {"domain", "services", "projections", "workers", "api", "wiring", "infra", "tests", "bench"}
CLIENT_DEPENDENCIES = {"httpx"}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_client_library_imports_none_of_the_servers_packages() -> None:
    crossings = {
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / "dragonhall").rglob("*.py"))
        for module in imports(path) & SERVER
    }
    assert not crossings


def test_the_client_library_needs_only_httpx_beside_the_standard_library() -> None:
    outside = {
        module
        for path in (ROOT / "dragonhall").rglob("*.py")
        for module in imports(path)
        if module not in sys.stdlib_module_names and module != "dragonhall"
    }
    assert outside <= CLIENT_DEPENDENCIES


def test_the_examples_use_only_the_client_library_and_the_standard_library() -> None:
    examples = sorted((ROOT / "examples").glob("*.py"))
    assert examples
    for path in examples:
        assert {m for m in imports(path) if m not in sys.stdlib_module_names} == {"dragonhall"}, path.name


def test_the_random_example_is_under_forty_lines() -> None:
    assert len((ROOT / "examples" / "random_bot.py").read_text().splitlines()) < 40
