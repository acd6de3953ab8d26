"""Rules versions: every recorded game of the corpus must replay to identical events.

The corpus (``tests/regression/corpus/``) holds finished games of every game and
variant, played by bots and exported as records. Verifying a record re-decides
every decision with today's rules and requires exactly the recorded events and
state hashes, so a change of rules that would alter history fails here before it
ships. A change meant to alter history bumps the game's ``engine_version`` and
rebuilds the corpus (``python -m tests.regression.build_corpus``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from domain.kernel import all_games
from services.audits.verification import verify_record

CORPUS = Path(__file__).parent / "corpus"
RECORDS = sorted(CORPUS.glob("*/*.json.gz"))


def test_the_corpus_holds_at_least_twenty_games_of_every_game() -> None:
    for ruleset in all_games():
        if ruleset.slug == "dice-race":
            continue
        assert len(list((CORPUS / ruleset.slug).glob("*.json.gz"))) >= 20, ruleset.slug


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name[:-8]}")
def test_a_recorded_game_replays_to_identical_events(path: Path) -> None:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        record = json.load(f)
    report = verify_record(record)
    assert report["ok"], report["verdict"]
