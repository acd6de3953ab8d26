"""The license in the current packaging form (PEP 639): an SPDX expression and the files that hold it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PEP_639_SETUPTOOLS = 77
"""The first setuptools release that reads ``license`` as an SPDX string and ``license-files``."""


def test_the_license_is_an_spdx_expression_not_a_table() -> None:
    license_ = PYPROJECT["project"]["license"]
    assert isinstance(license_, str), f"license = {license_!r}: PEP 639 deprecates the table form"
    assert re.fullmatch(r"[A-Za-z0-9.+-]+( (AND|OR|WITH) [A-Za-z0-9.+-]+)*", license_)


def test_every_license_file_pattern_names_a_file_that_states_that_license() -> None:
    patterns = PYPROJECT["project"]["license-files"]
    assert patterns
    for pattern in patterns:
        files = sorted(ROOT.glob(pattern))
        assert files, f"license-files: {pattern!r} matches no file"
        for path in files:
            assert PYPROJECT["project"]["license"] in path.read_text().splitlines()[0], path


def test_the_build_backend_is_one_that_reads_those_fields() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    setuptools = next(r for r in requires if re.match(r"setuptools\s*>=", r))
    assert int(re.search(r">=\s*(\d+)", setuptools).group(1)) >= PEP_639_SETUPTOOLS  # type: ignore[union-attr]
