"""A finished server game rebuilt in the PettingZoo environment from its record (issue 33): every
game of the regression corpus replays, decision by decision, to the states the server recorded
(``make test``: a game of each game's variants and seat counts, ``corpus_sample``; ``--thorough``: all)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from domain.kernel import state_hash
from rl.pettingzoo_env import env
from tests.support.runs import corpus_sample

CORPUS = Path(__file__).resolve().parents[2] / "regression" / "corpus"
RECORDS = sorted(CORPUS.glob("*/*.json.gz"))
WITH_ACTIONS = {
    next(p for p in RECORDS if p.parent.name == g) for g in ("tarasque", "seven-dragons", "mekong", "drachenreiter")
}
"""One game of each whose actions are found too (a legal-move table a step: slow in Mekong)."""


def load(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return dict(json.load(f))


def hashes_after_moves(record: dict[str, Any]) -> dict[int, str]:
    """The state hash the server recorded after each MoveMade (its last rule event), by the move's version."""
    out: dict[int, str] = {}
    move = None
    for event in record["events"]:
        if event["type"] == "MoveMade":
            move = event["version"]
        elif event["source"] == "rules" and move is not None:
            out[move] = event["state_hash"]
    return out


@pytest.mark.parametrize("path", corpus_sample(RECORDS), ids=lambda p: f"{p.parent.name}/{p.name[:-8]}")
def test_a_recorded_game_replays_in_the_environment_to_the_recorded_states(path: Path) -> None:
    record = load(path)
    expected = hashes_after_moves(record)
    game = env(from_record=record)
    game.reset(seed=12345)  # the record's seed wins
    played, previous = 0, None
    missing = 0
    for agent, action, decision in game.replay(actions=path in WITH_ACTIONS):
        assert game.match is not None
        if previous is not None:
            assert state_hash(game.match.state) == expected[previous.version], f"after version {previous.version}"
        listed = game.legal_commands(agent) if action is not None else {}
        assert action is None or listed.get(action, game.codec.exact_command(action)) == decision.command
        missing += path in WITH_ACTIONS and action is None
        previous, played = decision, played + 1
    assert game.match is not None and previous is not None
    assert played == len(expected) and state_hash(game.match.state) == expected[previous.version]
    outcome = game.ruleset.outcome(game.match.state)
    assert outcome is not None and list(outcome.places) == record["header"]["outcome"]["places"]
    assert all(game.terminations.values())
    if path in WITH_ACTIONS:
        assert missing == 0, "every recorded move has an action: a listed move's, or its exact numbering"
