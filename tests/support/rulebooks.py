"""Where the rulebooks live: ``DRAGONHALL_RULES_DIR``, else ``shared/rules`` beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def find_rules_dir() -> Path | None:
    candidates = [os.environ.get("DRAGONHALL_RULES_DIR"), ROOT.parent / "shared" / "rules", "/work/shared/rules"]
    for c in candidates:
        if c and (Path(c) / "README.md").exists():
            return Path(c)
    return None
