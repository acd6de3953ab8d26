"""A sandbox of an ended game draws the game's chance at the same places, even where the game's
clock wrote events the sandbox does not (``services.play.sandbox_chance``); its record verifies."""

from __future__ import annotations

from typing import Any

from services.audits.records import audit_trail
from services.play import sandbox_chance
from services.play.aggregate import Game
from tests.support.rated_games import play_out


def _terms(version: int, settled: list[int]) -> dict[str, Any]:
    return sandbox_chance.terms("g", version, "d", True, settled)


def test_a_sandbox_decision_draws_from_the_stream_of_the_game_decision_at_the_same_place() -> None:
    assert sandbox_chance.label(7, None) == "v7"
    assert sandbox_chance.label(7, {"game_id": "g", "version": 3}) == "v7"  # an old sandbox: its own chance
    assert sandbox_chance.label(2, _terms(10, [])) == "v10"
    assert sandbox_chance.label(5, _terms(10, [])) == "v13"
    # the game charged a bank at 11 (just after the fork) and at 14: the sandbox never writes those
    terms = _terms(10, [11, 14, 3])
    assert terms["settled"] == [11, 14]
    assert [sandbox_chance.label(v, terms) for v in (2, 3, 4, 5)] == ["v11", "v12", "v14", "v15"]
    assert sandbox_chance.terms("g", 10, "d", False, [11]) == {
        "game_id": "g", "version": 10, "dispute_id": "d", "chance": "own",
    }  # fmt: skip


def test_a_sandbox_of_a_bank_timed_game_replays_it_and_its_record_verifies(platform: Any) -> None:
    games = platform.games
    tc = {"kind": "bank", "initial": 3600, "increment": 60, "cap": 7200, "timeout_policy": "auto"}
    table = games.create_game("p0", "dice-race", None, None, 2, time_control=tc)
    gid = str(table.id)
    for k in range(2):
        games.take_seat(gid, f"p{k}", f"p{k}", "bot", bot="random")
    play_out(platform, gid)
    stored = list(games.stored_events(gid))
    assert any(isinstance(e, Game.ClockSettled) for e in stored)
    moves = [e for e in stored if isinstance(e, Game.MoveMade)]
    at = moves[0].originator_version - 1
    answer = platform.disputes.open(gid, "auditor", at, "replay", moves[0].move, moves[0].seat)["answer"]
    sandbox = answer["sandbox_id"]
    for m in moves:
        games.submit_move(sandbox, "auditor", m.move, seat=m.seat)

    def rules(events: list[Any]) -> list[tuple[str, Any, str]]:
        return [(type(e).__name__, e.data, e.state_hash) for e in events if isinstance(e, Game.RuleEvent)]

    replayed = list(games.stored_events(sandbox))
    assert rules(replayed) == rules([e for e in stored if e.originator_version > at])
    assert replayed[-1].outcome == stored[-1].outcome and replayed[-1].seed == stored[-1].seed
    assert audit_trail(games, sandbox, None)["verified"] is True
