"""How many random games, examples or steps a test runs: a fixed sample in ``make test``, the
whole sweep with ``--thorough``.

``make test`` must stay under 15 minutes on two cores, so a property whose every run checks the
same rules on more random data runs a small fixed sample by default; ``--thorough`` (``tests/conftest.py``)
runs the larger counts. Every rule a test checks is checked in both runs: only the number of
repetitions changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

N = TypeVar("N", int, float)

_thorough = False


def set_thorough(on: bool) -> None:
    """Called by ``tests/conftest.py`` from ``pytest_configure``, before any test module is imported."""
    global _thorough
    _thorough = on


def thorough() -> bool:
    """Whether this run is ``--thorough``."""
    return _thorough


def count(default: N, thorough: N) -> N:
    """``default`` in ``make test``, ``thorough`` with ``--thorough``."""
    return thorough if _thorough else default


def corpus_sample(paths: list[Path]) -> list[Path]:
    """The records of the regression corpus a test replays: all of them with ``--thorough``; in
    ``make test`` the first record (in sorted order) of each game's variants and seat counts, so that
    every game, variant and seat count of the corpus is replayed (``mekong/classic-2p-1000.json.gz``
    is of ``("mekong", "classic")`` and ``("mekong", "2p")``): the others replay the same code on
    other deals."""
    if thorough():
        return paths
    seen: set[tuple[str, str]] = set()
    kept = []
    for path in paths:
        variant, seats, _ = path.name.rsplit("-", 2)
        kinds = {(path.parent.name, variant), (path.parent.name, seats)}
        if kinds - seen:
            seen |= kinds
            kept.append(path)
    return kept
