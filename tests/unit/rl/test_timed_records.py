"""A finished server game whose seats timed out or resigned replays in the environments (issue 33):
a timed-out decision is read as the server took it (the stand-in bot's move under ``auto``, a lost
decision under ``skip``, the seat leaving under ``forfeit``), a resignation as the seat leaving, and
a newcomer joining a running Seven Dragons game as a decision that adds a seat. Every decision has an
action (``codec.skip``, ``codec.leave(seat)``, ``codec.join`` for those without a move), and both
environments replay them all to the server's states, from the record or from the actions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyspiel
import pytest

from domain.kernel import find_game, state_hash
from rl import records
from rl.match import Match
from rl.openspiel_records import from_history, from_record
from rl.pettingzoo_env import env
from rl.specs import codec_for
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
        if event["type"] in ("MoveMade", "Resigned", "Joined", *records.TIMED):
            decision = event["version"]
        elif event["source"] == "rules" and decision is not None:
            out[decision] = event["state_hash"]
    return out


def kinds_count(record: dict[str, Any], kind: str) -> int:
    return sum(e["type"] == kind for e in record["events"])


GAMES = ["mekong", "drachenreiter", "tarasque", "seven-dragons"]


@pytest.mark.parametrize("policy", ["auto", "skip", "forfeit"])
@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_timeouts_and_resignations_replays_in_pettingzoo_to_the_servers_states(
    platform: Any, game: str, policy: str
) -> None:
    record = timed_record(platform, game, moves=6, policy=policy)
    kinds = {e["type"] for e in record["events"]}
    assert "TurnTimedOut" in kinds and ("Resigned" in kinds or policy == "forfeit"), "a forfeit ends a game of two"
    expected = hashes_after_decisions(record)
    environment = env(from_record=record)
    environment.reset()
    hows, played, codec = [], 0, environment.codec
    for _agent, action, decision in environment.replay():
        hows.append(decision.how)
        assert action is not None, f"version {decision.version}: every decision has an action"
        assert (
            codec.without(action)
            == {
                "move": None,
                "skip": ("skip", None),
                "leave": ("leave", decision.seat),
                "join": ("join", None),
            }[decision.how]
        )
        played += 1
    assert environment.match is not None and played == len(expected)
    assert state_hash(environment.match.state) == expected[max(expected)]
    assert all(environment.terminations.values())
    timed = [e["data"]["applied"] for e in record["events"] if e["type"] in records.TIMED]
    assert hows.count("skip") == timed.count("skip")
    assert hows.count("move") == kinds_count(record, "MoveMade") + timed.count("auto"), "a stand-in's move is a move"
    assert hows.count("leave") == kinds_count(record, "Resigned") + timed.count("forfeit")
    assert "leave" in hows
    assert hows.count("join") == kinds_count(record, "Joined") == (game == "seven-dragons")
    assert environment.agents == environment.possible_agents, "the newcomer is an agent once it joined"


@pytest.mark.parametrize("policy", ["auto", "skip", "forfeit"])
@pytest.mark.parametrize("game", GAMES)
def test_a_game_with_timeouts_and_resignations_replays_in_openspiel_to_the_servers_states(
    platform: Any, game: str, policy: str
) -> None:
    record = timed_record(platform, game, number=2, moves=6, policy=policy)
    recorded = records.read(record)
    expected = hashes_after_decisions(record)
    loaded, end = from_record(record)
    assert state_hash(end.engine_state) == expected[max(expected)] and end.is_terminal()
    codec = codec_for(recorded.ruleset)
    lost = [codec.without(step.action) for step in end.full_history() if step.player >= 0]
    assert lost.count(("skip", None)) == sum(d.how == "skip" for d in recorded.decisions)
    leavers = [d.seat for d in recorded.decisions if d.how == "leave"]
    assert [seat for how, seat in filter(None, lost) if how == "leave"] == leavers and leavers
    assert lost.count(("join", None)) == recorded.seats - recorded.players == (game == "seven-dragons")
    assert loaded.num_players() == recorded.seats == len(end.returns())
    again = from_history(loaded, end.full_history())
    assert state_hash(again.engine_state) == state_hash(end.engine_state), "its history rebuilds it"
    assert again.returns() == end.returns()
    assert hashes_after_moves(record), "the record's moves are read as before"


def test_a_decision_without_a_move_is_an_action_pettingzoo_takes_where_the_rules_do() -> None:
    """``skip`` and ``leave(seat)`` are in no mask nor listing, and change nothing where the rules
    refuse them: Tarasque lets no decision be lost at a turn's start, nor a seat leave twice."""
    environment = env("tarasque", players=3)
    environment.reset(seed=3)
    codec, agent = environment.codec, environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    assert mask.shape == (codec.size,) and not mask[codec.moves :].any()
    with pytest.raises(ValueError, match="skip"):
        environment.step(codec.skip)
    other = next(seat for seat, name in enumerate(environment.possible_agents) if name != agent)
    environment.step(codec.leave(other))  # another seat resigns while this one is to act
    assert environment.match is not None and environment.match.decisions == 1
    assert environment.agent_selection == agent
    with pytest.raises(ValueError, match=f"leave seat={other}"):
        environment.step(codec.leave(other))
    assert environment.match.decisions == 1


def test_a_decision_without_a_move_is_an_action_openspiel_takes_where_the_rules_do() -> None:
    state = pyspiel.load_game("python_dragonhall_tarasque", {"players": 3}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    codec, player = state.get_game().codec, state.current_player()
    assert codec.skip not in state.legal_actions() and state.get_game().num_distinct_actions() == codec.size
    before = state.history()
    with pytest.raises(ValueError, match="skip"):
        state.apply_action(codec.skip)
    assert state.history() == before, "a refused action changes nothing"
    other = (player + 1) % 3
    state.apply_action(codec.leave(other))
    assert state.current_player() == player and state.history()[-1] == codec.leave(other)
    assert state.action_to_string(player, codec.leave(other)) == f"leave seat={other}"
    with pytest.raises(ValueError, match=f"leave seat={other}"):
        state.apply_action(codec.leave(other))


def test_a_sandbox_record_is_refused_naming_its_fork(platform: Any) -> None:
    """A sandbox starts from another game's position (``Forked``), which no environment can draw."""
    record = timed_record(platform, "tarasque", number=3, moves=6)
    forked = {**record, "events": [{"type": "Forked", "version": 2, "data": {}}, *record["events"]]}
    with pytest.raises(ValueError, match=r"version 2: a Forked has no action in the environments"):
        records.read(forked)


def test_a_skip_the_rules_do_not_allow_is_refused_and_changes_nothing() -> None:
    match = Match(find_game("tarasque"), None, 2, 1)
    seat, before = match.awaiting()[0], state_hash(match.state)
    with pytest.raises(ValueError, match="no decision of seat 1 be lost"):
        match.take(seat, "skip")
    assert match.decisions == 0 and state_hash(match.state) == before
    match.take(seat, "leave")
    assert match.decisions == 1 and seat not in match.awaiting()


def test_a_newcomer_joins_an_openspiel_game_loaded_with_fewer_seats_at_the_start() -> None:
    """``seated`` seats at the start, ``players`` at most: a player not seated yet observes nothing and
    is never to act, ``codec.join`` seats the next, and none joins past ``players``."""
    game = pyspiel.load_game("python_dragonhall_seven_dragons", {"players": 3, "seated": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    codec = game.codec
    assert state.observation_string(2) == "not seated" and not any(state.observation_tensor(2))
    assert codec.join not in state.legal_actions()
    state.apply_action(codec.join)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.seated == 3 and state.observation_string(2) != "not seated" and any(state.observation_tensor(2))
    with pytest.raises(ValueError, match="all seated"):
        state.apply_action(codec.join)


def test_no_newcomer_joins_a_pettingzoo_game_of_its_own() -> None:
    """An environment's own game keeps its seats: ``join`` is refused and changes nothing."""
    environment = env("seven-dragons", players=2)
    environment.reset(seed=5)
    assert environment.match is not None and environment.ruleset.can_join(environment.match.state)
    with pytest.raises(ValueError, match="join"):
        environment.step(environment.codec.join)
    assert environment.match.decisions == 0 and environment.agents == ["seat_0", "seat_1"]
