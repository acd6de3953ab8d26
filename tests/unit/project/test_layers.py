"""The layers import only what DEVELOPERS.md says they may.

The rules know nothing of the platform; the write and read sides know the rules;
only the composition root (``wiring``) and the entry points (``api``) reach every
layer. A module that imports across these lines fails here, naming the import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
OURS = ("domain", "infra", "services", "projections", "workers", "api", "wiring", "rl", "dragonhall")
MAY_IMPORT = {
    "domain": {"domain"},
    "infra": {"infra"},
    "services": {"domain", "infra", "services"},
    "projections": {"domain", "infra", "services", "projections"},
    "workers": {"domain", "infra", "services", "workers"},
    "api": {"domain", "infra", "services", "workers", "api", "wiring", "dragonhall"},
    "wiring": set(OURS),
    "rl": {"domain", "rl", "dragonhall"},
    "dragonhall": {"dragonhall"},
}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("layer", OURS)
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    crossings = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top in OURS and top not in MAY_IMPORT[layer]:
                crossings.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not crossings, "\n".join(crossings)


def test_the_kernel_imports_no_game() -> None:
    """The registry receives the catalogue from the composition root; the kernel lists no game."""
    games = {p.name for p in (ROOT / "domain").iterdir() if p.is_dir() and (p / "__init__.py").exists()} - {"kernel"}
    for path in sorted((ROOT / "domain" / "kernel").rglob("*.py")):
        for line, module in _imports(path):
            parts = module.split(".")
            assert parts[0] != "domain" or parts[1] == "kernel", f"{path.relative_to(ROOT)}:{line} imports {module}"
            assert not set(parts) & games


def _modules(layer: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / layer).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports in ``graph`` (module -> modules it imports), or none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for other in sorted(graph[module]):
            found = visit(other, [*path, module])
            if found:
                return found
        done.add(module)
        return []

    return next((found for module in sorted(graph) if (found := visit(module, []))), [])


def _imported(module: str, name: str, modules: dict[str, Path]) -> str:
    """What ``from module import name`` imports: the submodule ``name``, or a name of ``module``."""
    return f"{module}.{name}" if f"{module}.{name}" in modules else module


@pytest.mark.parametrize("layer", OURS)
def test_the_modules_of_a_layer_import_each_other_in_no_circle(layer: str) -> None:
    """Every import counts, those made inside a function or for types only too: the JSON error
    handler once imported the pages when called, a game's bots imported its ruleset back at call
    time, and the client's streams imported the client for its type."""
    modules = _modules(layer)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                graph[name] |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                graph[name] |= {_imported(node.module, alias.name, modules) for alias in node.names}
        graph[name] &= set(modules) - {name}
    circle = _circle(graph)
    assert not circle, " -> ".join(circle)
