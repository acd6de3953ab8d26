"""How many random games, examples or steps a test runs: a fixed sample in ``make test``, the
whole sweep with ``--thorough``.

``make test`` must stay under 15 minutes on two cores, so a property whose every run checks the
same rules on more random data runs a small fixed sample by default; ``--thorough`` (``tests/conftest.py``)
runs the larger counts. Every rule a test checks is checked in both runs: only the number of
repetitions changes.
"""

from __future__ import annotations

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
