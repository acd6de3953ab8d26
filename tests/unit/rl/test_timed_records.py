"""A finished server game whose seats timed out or resigned replays in the environments (issue 33):
a timed-out decision is read as the server took it (the stand-in bot's move under ``auto``, a lost
decision under ``skip``, the seat leaving under ``forfeit``), and a resignation as the seat leaving;
PettingZoo replays them all to the server's states, OpenSpiel the records whose every decision is a
move (a stand-in's move is one) and names the version of a decision it has no action for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain.kernel import find_game, state_hash
from rl import records
from rl.match import Match
from rl.openspiel_records import from_record
from rl.pettingzoo_env import env
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.unit.audit.sample_records import timed_record
from tests.unit.rl.test_from_record import hashes_after_moves
from wiring import bootstrap


@pytest.fixture(scope="module")
def platform() -> Iterator[Any]:
    platform = bootstrap(make_settings("memory"), work=NullWork())
    yield platform
    platform.close()


def hashes_after_decisions(record: dict[str, Any]) -> dict[int, str]:
    """The state hash after each decision (a move, a timed-out decision, a resignation), by its version."""
    out: dict[int, str] = {}
    decision = None
    for event in record["events"]:
        if event["type"] in ("MoveMade", "Resigned", *records.TIMED):
            decision = event["version"]
        elif event["source"] == "rules" and decision is not None:
            out[decision] = event["state_hash"]
    return out


def kinds_count(record: dict[str, Any], kind: str) -> int:
    return sum(e["type"] == kind for e in record["events"])


@pytest.mark.parametrize("policy", ["auto", "skip", "forfeit"])
@pytest.mark.parametrize("game", ["mekong", "drachenreiter", "tarasque"])
def test_a_game_with_timeouts_and_resignations_replays_in_pettingzoo_to_the_servers_states(
    platform: Any, game: str, policy: str
) -> None:
    record = timed_record(platform, game, moves=6, policy=policy)
    kinds = {e["type"] for e in record["events"]}
    assert "TurnTimedOut" in kinds and ("Resigned" in kinds or policy == "forfeit"), "a forfeit ends a game of two"
    expected = hashes_after_decisions(record)
    environment = env(from_record=record)
    environment.reset()
    hows, played = [], 0
    for _agent, action, decision in environment.replay():
        hows.append(decision.how)
        assert (action is None) == (decision.command is None)
        played += 1
    assert environment.match is not None and played == len(expected)
    assert state_hash(environment.match.state) == expected[max(expected)]
    assert all(environment.terminations.values())
    timed = [e["data"]["applied"] for e in record["events"] if e["type"] in records.TIMED]
    assert hows.count("skip") == timed.count("skip")
    assert hows.count("move") == kinds_count(record, "MoveMade") + timed.count("auto"), "a stand-in's move is a move"
    assert hows.count("leave") == kinds_count(record, "Resigned") + timed.count("forfeit")
    assert "leave" in hows


def test_a_stand_ins_move_replays_in_openspiel_and_a_resignation_is_named(platform: Any) -> None:
    record = timed_record(platform, "mekong", number=2, moves=6, policy="auto")
    recorded = records.read(record)
    timed = next(e for e in record["events"] if e["type"] == "TurnTimedOut")
    assert any(d.version == timed["version"] and d.how == "move" for d in recorded.decisions)
    resigned = next(e for e in record["events"] if e["type"] == "Resigned")
    with pytest.raises(ValueError, match=rf"version {resigned['version']}: a leave has no action in OpenSpiel"):
        from_record(record)
    assert hashes_after_moves(record), "the record's moves are read as before"


def test_a_table_changed_by_a_newcomer_is_refused_naming_the_event(platform: Any) -> None:
    record = timed_record(platform, "seven-dragons", moves=6)
    if not any(e["type"] == "Joined" for e in record["events"]):
        pytest.skip("no newcomer joined this game")
    with pytest.raises(ValueError, match=r"a Joined has no action in the environments"):
        records.read(record)


def test_a_skip_the_rules_do_not_allow_is_refused_and_changes_nothing() -> None:
    match = Match(find_game("tarasque"), None, 2, 1)
    seat, before = match.awaiting()[0], state_hash(match.state)
    with pytest.raises(ValueError, match="no decision of seat 1 be lost"):
        match.lose(seat, "skip")
    assert match.decisions == 0 and state_hash(match.state) == before
    match.lose(seat, "leave")
    assert match.decisions == 1 and seat not in match.awaiting()
