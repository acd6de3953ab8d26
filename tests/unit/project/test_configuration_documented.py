"""Every configuration variable the code reads is documented in docs/operations.md, and only those.

The code is searched as text, comments and docstrings included: a ``DRAGONHALL_`` name anywhere in
the server's packages, the benchmarks, the tests or ``.ci/run`` is a variable some process reads or
sets for another. A name ending in ``_`` is a prefix (eventsourcing reads its own settings under
``DRAGONHALL_``), not a variable. The documentation lists each variable as a table row that starts
with the name in backticks.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OPERATIONS = ROOT / "docs" / "operations.md"
NAME = re.compile(r"DRAGONHALL_[A-Z0-9_]*")
ROW = re.compile(r"^\| `(DRAGONHALL_[A-Z0-9_]+)` \|", re.MULTILINE)
HERE = Path(__file__).resolve().parent


def code_trees() -> list[Path]:
    """The server's packages (as ``pyproject.toml`` installs them), the benchmarks, the tests and CI."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = [p.rstrip("*").rstrip(".") for p in setuptools["packages"]["find"]["include"]]
    modules = [f"{m}.py" for m in setuptools.get("py-modules", [])]
    return [ROOT / name for name in [*packages, *modules, "bench", "tests", ".ci/run"]]


def code_files() -> Iterator[Path]:
    for tree in code_trees():
        if tree.is_file():
            yield tree
        else:
            yield from (p for p in sorted(tree.rglob("*.py")) if HERE not in p.parents)


def names_in(text: str) -> set[str]:
    """The ``DRAGONHALL_`` variable names in ``text``; prefixes such as ``DRAGONHALL_VIEWS_`` are left out."""
    return {name for name in NAME.findall(text) if not name.endswith("_")}


def read_by_code() -> dict[str, set[str]]:
    """Each variable name, with the files that spell it."""
    found: dict[str, set[str]] = {}
    for path in code_files():
        for name in names_in(path.read_text()):
            found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def documented() -> set[str]:
    return set(ROW.findall(OPERATIONS.read_text()))


def read_by_eventsourcing(name: str) -> bool:
    """Whether ``name`` is an eventsourcing setting under the application's prefix whose key the
    server's code spells (``DRAGONHALL_SQLITE_SYNCHRONOUS`` is ``"SQLITE_SYNCHRONOUS"`` there)."""
    key = f'"{name.removeprefix("DRAGONHALL_")}"'
    return any(key in path.read_text() for path in code_files() if ROOT / "tests" not in path.parents)


def test_every_variable_the_code_reads_is_in_the_configuration_tables() -> None:
    missing = {name: files for name, files in read_by_code().items() if name not in documented()}
    assert not missing, "document these in docs/operations.md:\n" + "\n".join(
        f"{name} ({', '.join(sorted(files))})" for name, files in sorted(missing.items())
    )


def test_every_documented_variable_is_one_the_code_reads() -> None:
    stale = sorted(n for n in documented() - set(read_by_code()) if not read_by_eventsourcing(n))
    assert not stale, f"docs/operations.md documents variables nothing reads: {stale}"


def test_the_deployment_example_sets_only_documented_variables() -> None:
    example = (ROOT / "deploy" / "dragonhall.env.example").read_text()
    assert names_in(example) <= documented(), sorted(names_in(example) - documented())


def test_a_prefix_is_not_taken_for_a_variable() -> None:
    text = 'app, views = "DRAGONHALL_", "DRAGONHALL_VIEWS_"\nos.environ["DRAGONHALL_DATA_DIR"]'
    assert names_in(text) == {"DRAGONHALL_DATA_DIR"}


def test_a_variable_counts_as_documented_only_as_a_row_of_a_table() -> None:
    rows = ROW.findall("| `DRAGONHALL_STORE` | `sqlite` | ... |\nSet `DRAGONHALL_DATA_DIR` to move it.\n")
    assert rows == ["DRAGONHALL_STORE"]
