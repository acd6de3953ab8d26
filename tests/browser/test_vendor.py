"""The vendored axe-core is the release its README names, unchanged, with its licence kept."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).parent / "vendor"
ROW = re.compile(r"^\| `([^`]+)` \| .+ \| ([\d.]+) \| `([0-9a-f]{64})` \|$", re.MULTILINE)


def listed() -> dict[str, tuple[str, str]]:
    """Each file the README's table lists: its version and sha256."""
    return {name: (version, digest) for name, version, digest in ROW.findall((VENDOR / "README.md").read_text())}


def test_every_vendored_file_has_the_sha256_its_readme_records() -> None:
    files = listed()
    assert set(files) == {"axe.min.js", "axe-core.LICENSE"}
    for name, (_, digest) in files.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_axe_core_keeps_its_licence_header_and_is_the_version_recorded() -> None:
    version, _ = listed()["axe.min.js"]
    head = (VENDOR / "axe.min.js").read_text()[:600]
    assert head.startswith(f"/*! axe v{version}\n")
    assert "Mozilla Public" in head and "This entire copyright notice must appear in every copy" in head
    assert (VENDOR / "axe-core.LICENSE").read_text().startswith("Mozilla Public License, version 2.0")
