"""The guard on a move's cost: the instructions a fixed set of moves takes through the WSGI app,
counted under callgrind (``bench/request_cost.py --instructions``), may not grow more than
``TOLERANCE`` over the count recorded in ``bench/move_cost.json``.

Instructions repeat on a busy machine where time does not, so this is a count, never a time. The
record changes only on purpose, in a commit that says why (``bench/README.md``): a surface a move
pays for is worth its instructions, or it is made cheaper.
"""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

RECORD = Path(__file__).resolve().parents[3] / "bench" / "move_cost.json"
TOLERANCE = 0.05


@pytest.mark.slow
@pytest.mark.xdist_group("callgrind")
def test_a_move_costs_no_more_instructions_than_recorded() -> None:
    missing = [tool for tool in ("valgrind", "callgrind_control") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed: the move's instructions cannot be counted")
    record = json.loads(RECORD.read_text())
    request_cost: Any = importlib.import_module("bench.request_cost")  # bench/ is a folder of scripts
    got = request_cost.instructions_per_move(record["moves"], record["store"], None)["instructions_per_move"]
    recorded = record["instructions_per_move"]
    assert got <= recorded * (1 + TOLERANCE), (
        f"a move now costs {got / 1e6:.3f} M instructions, {got / recorded - 1:+.1%} over the "
        f"{recorded / 1e6:.3f} M recorded in bench/move_cost.json ({record['measured']}). Make it cheaper, "
        f"or record the new count there on purpose, saying why in the commit."
    )
