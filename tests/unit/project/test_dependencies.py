"""Dependencies declared as used: every import is a declared distribution, and every declared one is used.

The server's packages (those ``pyproject.toml`` installs) may import only what ``[project].dependencies``
declares: a package that merely arrives through another one (``webargs`` through flask-smorest,
``numpy`` through shapely) can leave with that one's next release. The tests and the benchmarks may
import those and the ``dev`` extra. Each import is mapped to the distribution that installs it with
``importlib.metadata.packages_distributions``. The other way round, a declared distribution that
nothing imports is dead weight, unless it is a tool the project runs rather than imports
(``USED_WITHOUT_IMPORT``, each with the place that shows it is used).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DEV_TREES = ("tests", "bench")

USED_WITHOUT_IMPORT: dict[str, tuple[tuple[str, ...], str]] = {
    "pytest-xdist": (("Makefile",), "pytest -n"),
    "pytest-timeout": (("pyproject.toml",), "timeout = "),
    "ruff": (("Makefile", ".ci/run"), "ruff "),
    "mypy": (("Makefile", ".ci/run"), "mypy"),
    "pycryptodome": (("tests/integration/test_postgres_events.py",), "from eventsourcing.tests"),
}
"""Development distributions the project runs or needs without importing them, and where that shows:
pytest plugins (``-n``, the ``timeout`` option), command-line tools, and pycryptodome, whose
``Crypto`` package eventsourcing's recorder test cases import (``eventsourcing.cipher``). An entry
is checked only while it is declared."""


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them: ``Flask_Smorest`` is ``flask-smorest``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The distribution a requirement string names: ``celery[redis]>=5.4,<6`` names ``celery``."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, f"not a requirement: {requirement!r}"
    return normalise(match.group())


OPTIONAL_PACKAGES = {"rl": "rl"}
"""Optional extras and the one package each serves: ``rl`` (the learning environments) may import
its extra beside the server's dependencies; no other package may."""


def declared(group: str | None = None, expand: bool = True) -> set[str]:
    """The distributions ``[project].dependencies`` declares, or those of an optional group. A group
    that names the project itself (``dragonhall[rl]``) declares that extra's distributions (unless
    not ``expand``: then only the group's own)."""
    project = PYPROJECT["project"]
    requirements = project["dependencies"] if group is None else project["optional-dependencies"][group]
    out: set[str] = set()
    for r in requirements:
        name = requirement_name(r)
        if name == normalise(project["name"]):
            if not expand:
                continue
            extras = re.search(r"\[(.*)\]", r)
            assert extras, f"{r!r}: the project names itself without an extra"
            out |= {d for extra in extras.group(1).split(",") for d in declared(extra.strip())}
        else:
            out.add(name)
    return out


def server_packages() -> list[str]:
    """The top-level packages and modules ``pyproject.toml`` installs: the server's code."""
    setuptools = PYPROJECT["tool"]["setuptools"]
    packages = [p.rstrip("*").rstrip(".") for p in setuptools["packages"]["find"]["include"]]
    return [*packages, *setuptools.get("py-modules", [])]


def first_party() -> set[str]:
    return {*server_packages(), *DEV_TREES}


def imported_modules(source: str) -> Iterator[str]:
    """The top-level names of every absolute import in ``source``, wherever it stands (a function's
    lazy import counts the same as one at the top of the module)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def python_files(names: Iterable[str]) -> Iterator[Path]:
    for name in names:
        path = ROOT / name
        if path.is_dir():
            yield from sorted(path.rglob("*.py"))
        elif path.with_suffix(".py").is_file():
            yield path.with_suffix(".py")


@cache
def _distributions_of_modules() -> dict[str, list[str]]:
    return packages_distributions()


def third_party_imports(names: Iterable[str]) -> dict[str, set[str]]:
    """Each third-party module imported under ``names``, with the files that import it."""
    ours = first_party()
    found: dict[str, set[str]] = {}
    for path in python_files(names):
        for module in imported_modules(path.read_text()):
            if module not in sys.stdlib_module_names and module not in ours:
                found.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    return found


def distributions(module: str) -> set[str]:
    """The installed distributions that provide the top-level ``module``."""
    return {normalise(d) for d in _distributions_of_modules().get(module, [])}


def undeclared(imports: dict[str, set[str]], allowed: set[str]) -> list[str]:
    problems = []
    for module, files in sorted(imports.items()):
        dists = distributions(module)
        if not dists:
            problems.append(f"{module} (imported by {', '.join(sorted(files))}) comes from no installed distribution")
        elif not dists & allowed:
            problems.append(f"{module} (from {', '.join(sorted(dists))}) is imported by {', '.join(sorted(files))}")
    return problems


def imported_distributions(names: Iterable[str]) -> set[str]:
    return {d for module in third_party_imports(names) for d in distributions(module)}


def test_the_server_imports_only_declared_dependencies() -> None:
    core = [p for p in server_packages() if p not in OPTIONAL_PACKAGES.values()]
    problems = undeclared(third_party_imports(core), declared())
    assert not problems, "declare these in [project].dependencies:\n" + "\n".join(problems)


def test_an_optional_package_imports_only_the_servers_dependencies_and_its_extra() -> None:
    for extra, package in OPTIONAL_PACKAGES.items():
        problems = undeclared(third_party_imports([package]), declared() | declared(extra))
        assert not problems, f"declare these in the {extra} extra:\n" + "\n".join(problems)


def test_every_dependency_of_an_optional_extra_is_imported_by_its_package() -> None:
    for extra, package in OPTIONAL_PACKAGES.items():
        unused = declared(extra) - declared() - imported_distributions([package])
        assert not unused, f"declared in the {extra} extra but imported by no module of {package}/: {sorted(unused)}"


def test_the_tests_and_benchmarks_import_only_declared_dependencies_or_dev_tools() -> None:
    problems = undeclared(third_party_imports(DEV_TREES), declared() | declared("dev"))
    assert not problems, "declare these in [project].dependencies or the dev extra:\n" + "\n".join(problems)


def test_every_declared_dependency_is_imported_by_the_server() -> None:
    unused = declared() - imported_distributions(server_packages())
    assert not unused, f"declared in [project].dependencies but imported by no server package: {sorted(unused)}"


def test_every_dev_dependency_is_imported_by_the_tests_or_benchmarks_or_run_as_a_tool() -> None:
    unused = declared("dev", expand=False) - imported_distributions(DEV_TREES)
    unexplained = sorted(unused - set(USED_WITHOUT_IMPORT))
    assert not unexplained, f"dev dependencies nothing imports (or list them in USED_WITHOUT_IMPORT): {unexplained}"
    for name in sorted(unused):
        files, evidence = USED_WITHOUT_IMPORT[name]
        texts = [(ROOT / f).read_text() for f in files if (ROOT / f).is_file()]
        assert any(evidence in text for text in texts), f"{name}: {evidence!r} is in none of {files}"


def test_an_import_inside_a_function_counts_as_an_import() -> None:
    source = "import json\nfrom os import path\n\ndef later():\n    from psycopg_pool import ConnectionPool\n"
    assert list(imported_modules(source)) == ["json", "os", "psycopg_pool"]


def test_a_relative_import_is_not_taken_for_a_third_party_one() -> None:
    assert list(imported_modules("from . import rules\nfrom .events import Moved\n")) == []


def test_an_undeclared_import_is_reported_with_its_distribution_and_files() -> None:
    problems = undeclared({"numpy": {"domain/drachenreiter/track.py"}}, {"shapely"})
    assert problems == ["numpy (from numpy) is imported by domain/drachenreiter/track.py"]


def test_requirement_names_are_compared_as_pep_503_normalises_them() -> None:
    assert requirement_name("Flask_Smorest>=0.46.1,<0.48") == "flask-smorest"
    assert requirement_name("celery[redis]>=5.4,<6") == "celery"
    assert requirement_name("psycopg-pool>=3.2,<4  ") == "psycopg-pool"
