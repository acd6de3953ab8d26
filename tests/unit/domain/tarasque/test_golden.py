"""Golden playthroughs: fixed seeds give the same events on every run and machine.

If one of these fails after a change to the rules, recorded games would replay
differently: bump ``engine_version`` in ``domain/tarasque/ruleset.py``, then
update the digests.
"""

from __future__ import annotations

import hashlib

import pytest

from domain.kernel import Codec, canonical_json
from tests.unit.domain.tarasque.test_properties import play_random

GOLDEN = [
    ("dragon-dice", 2, 2026, 158, "37203d7d6132cc5a572ba315c931567e1d908b17a94ec9a67e2256461f74eb64"),
    ("numbered", 4, 2008, 487, "6c91212245ffe336e762cf22ded197bfbc6567be303dc435fd780a5bb63edd63"),
]


@pytest.mark.parametrize(("variant", "seats", "seed", "decisions", "digest"), GOLDEN)
def test_a_fixed_seed_game_replays_the_same_events(
    variant: str, seats: int, seed: int, decisions: int, digest: str
) -> None:
    """Determinism (engine_version "2"): the SHA-256 of the events of a fixed-seed random game."""
    _, events, made = play_random(variant, seats, seed)
    assert made == decisions
    assert hashlib.sha256(canonical_json([Codec.dump(e) for e in events]).encode()).hexdigest() == digest
