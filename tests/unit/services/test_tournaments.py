"""Tournaments (``services.competition.tournaments``) driven step by step under a fake clock."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from itertools import combinations
from typing import Any

import pytest

from services.common import clock
from services.common.clock import FakeClock
from services.common.errors import InvalidRequest
from services.competition.tournament_errors import (
    NotOrganiser,
    NotOwner,
    RegistrationClosed,
    TooFewPlayers,
    TournamentNotFound,
)
from services.competition.tournament_standings import standings
from services.deadlines.timers import AdvanceTournament
from tests.support.rated_games import play_out

NOTICE = 5
"""Seconds from a round's pairing to its games' start in these tests (the least allowed)."""


def _spec(**extra: Any) -> dict[str, Any]:
    return {
        "name": "spring cup",
        "game": "seven-dragons",
        "variant": None,
        "options": None,
        "seats": 3,
        "format": "swiss",
        "rounds": 3,
        "capacity": 8,
        "time_control": None,
        "starts_at": clock.now() + timedelta(minutes=1),
        "round_seconds": 3600,
        "notice_seconds": NOTICE,
        **extra,
    }


def _bots(platform: Any, owner: Any, n: int) -> list[Any]:
    return [platform.accounts.register_bot(owner, f"bot{k}")[0] for k in range(n)]


def _enter(platform: Any, fake_clock: FakeClock, t: dict[str, Any], owner: Any, bots: list[Any]) -> None:
    """Registers ``bots`` a second apart, so their order (the last tie-break) is fixed; the
    server plays them, random and greedy by turns."""
    for k, bot in enumerate(bots):
        platform.tournaments.register(t["id"], owner, bot.id, ("random", "greedy")[k % 2])
        fake_clock.advance(1)


def _play_round(platform: Any, fake_clock: FakeClock, t: dict[str, Any], finish: int | None = None) -> None:
    """Starts the round's games at their time and plays the first ``finish`` tables out (all by default)."""
    fake_clock.advance(NOTICE + 1)
    tables = [tb for tb in t["rounds"][-1]["tables"] if tb["game_id"]]
    for tb in tables[:finish]:
        platform.games.start_scheduled(tb["game_id"], clock.now())
        play_out(platform, tb["game_id"])


def test_a_swiss_tournament_of_eight_bots_runs_three_rounds_to_its_standings(
    platform: Any, fake_clock: FakeClock
) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    bots = _bots(platform, owner, 8)
    tours = platform.tournaments
    t = tours.create(owner, _spec(), uuid.UUID(int=23))
    _enter(platform, fake_clock, t, owner, bots)
    assert tours.advance(t["id"]) == "registering"
    fake_clock.advance(61)
    assert [AdvanceTournament(t["id"])] == [a for a in platform.timers.sweep() if isinstance(a, AdvanceTournament)]
    assert tours.advance(t["id"]) == "running"
    met: dict[frozenset[str], int] = {}
    repeats = []
    for round_no in (1, 2, 3):
        t = tours.get(t["id"])
        assert t["round"] == round_no
        tables = t["rounds"][-1]["tables"]
        assert sorted(len(tb["players"]) for tb in tables) == [2, 3, 3]
        repeats.append(sum(met.get(frozenset(pair), 0) for tb in tables for pair in combinations(tb["players"], 2)))
        for tb in tables:
            game = platform.games.load(tb["game_id"])
            assert game.status == "scheduled" and [s["player_id"] for s in game.seats] == tb["players"]
            for pair in combinations(tb["players"], 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        _play_round(platform, fake_clock, t)
        tours.advance(t["id"])
    t = tours.get(t["id"])
    assert t["status"] == "finished"
    assert repeats[:2] == [0, 0], "round 2 can seat nobody with a player they met"
    assert repeats[2] <= 1, "round 3 repeats at most one pair"
    standings = t["standings"]
    assert [s["rank"] for s in standings] == list(range(1, 9))
    assert sum(s["points"] for s in standings) == pytest.approx(3 * (1.5 + 1.5 + 1))
    keys = [(-s["points"], -s["buchholz"], -s["wins"]) for s in standings]
    assert keys == sorted(keys)
    assert tours.advance(t["id"]) == "finished"


def test_a_table_still_running_at_the_round_deadline_scores_as_a_tie(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    tours = platform.tournaments
    t = tours.create(owner, _spec(rounds=2, round_seconds=600))
    for bot in _bots(platform, owner, 6):
        tours.register(t["id"], owner, bot.id, "greedy")
    fake_clock.advance(61)
    tours.advance(t["id"])
    _play_round(platform, fake_clock, tours.get(t["id"]), finish=1)
    assert tours.advance(t["id"]) == "running" and tours.get(t["id"])["round"] == 1
    fake_clock.advance(601)
    tours.advance(t["id"])
    t = tours.get(t["id"])
    assert t["round"] == 2
    first = t["rounds"][0]["tables"]
    assert [tb["unfinished"] for tb in first] == [False, True]
    assert first[1]["places"] == [1, 1, 1]


def test_the_organiser_is_not_paired_with_their_own_bot_in_round_one(platform: Any, fake_clock: FakeClock) -> None:
    ann, _ = platform.accounts.register("ann", "human")
    others = [platform.accounts.register(name, "human")[0] for name in ("bob", "cid")]
    tours = platform.tournaments
    t = tours.create(ann, _spec(seats=2, rounds=1))
    tours.register(t["id"], ann, None, None)
    fake_clock.advance(1)
    (bot,) = _bots(platform, ann, 1)
    _enter(platform, fake_clock, t, ann, [bot])
    for other in others:
        tours.register(t["id"], other, None, None)
        fake_clock.advance(1)
    fake_clock.advance(61)
    tours.advance(t["id"])
    tables = [tb["players"] for tb in tours.get(t["id"])["rounds"][0]["tables"]]
    assert tables == [[ann.id, others[0].id], [bot.id, others[1].id]], "ranked ann, her bot, bob, cid"


def test_a_first_place_shared_is_no_win_in_the_standings() -> None:
    players = [{"player_id": p} for p in ("a", "b", "c", "d")]
    tables = [
        {"players": json.dumps(["a", "b"]), "result": json.dumps({"places": [1, 1]})},
        {"players": json.dumps(["c", "d"]), "result": json.dumps({"places": [1, 2]})},
    ]
    wins = {s["player_id"]: s["wins"] for s in standings(players, tables)}
    assert wins == {"a": 0, "b": 0, "c": 1, "d": 0}


def test_registration_is_for_yourself_or_your_bots_until_the_start(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    other, _ = platform.accounts.register("bob", "human")
    tours = platform.tournaments
    t = tours.create(owner, _spec(capacity=2))
    [bot] = _bots(platform, owner, 1)
    with pytest.raises(NotOwner):
        tours.register(t["id"], other, bot.id)
    with pytest.raises(InvalidRequest):
        tours.register(t["id"], owner, owner.id, "greedy")
    tours.register(t["id"], other)
    tours.register(t["id"], other)
    tours.register(t["id"], owner, bot.id, "greedy")
    with pytest.raises(RegistrationClosed):
        tours.register(t["id"], owner)
    fake_clock.advance(61)
    with pytest.raises(RegistrationClosed):
        tours.register(t["id"], owner)
    with pytest.raises(TournamentNotFound):
        tours.get("nope")


def test_a_tournament_without_enough_players_is_cancelled(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    t = platform.tournaments.create(owner, _spec())
    platform.tournaments.register(t["id"], owner)
    fake_clock.advance(61)
    assert platform.tournaments.advance(t["id"]) == "cancelled"


def test_a_round_robin_of_four_at_two_seats_meets_every_pair_once(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    tours = platform.tournaments
    t = tours.create(owner, _spec(format="round_robin", seats=2, rounds=3, capacity=4))
    for bot in _bots(platform, owner, 4):
        tours.register(t["id"], owner, bot.id, "random")
    fake_clock.advance(61)
    tours.advance(t["id"])
    for _ in range(3):
        _play_round(platform, fake_clock, tours.get(t["id"]))
        tours.advance(t["id"])
    t = tours.get(t["id"])
    assert t["status"] == "finished"
    pairs = [frozenset(tb["players"]) for r in t["rounds"] for tb in r["tables"]]
    assert len(pairs) == 6 == len(set(pairs))


def test_a_step_run_twice_pairs_a_round_once(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    tours = platform.tournaments
    t = tours.create(owner, _spec())
    for bot in _bots(platform, owner, 3):
        tours.register(t["id"], owner, bot.id, "random")
    fake_clock.advance(61)
    stale = platform.db.one("SELECT * FROM dh_tournaments WHERE tournament_id = ?", (t["id"],))
    tours.advance(t["id"])
    tours._pair(stale, 1, clock.now())  # a second step that read the tournament before the first paired it
    rows = platform.db.query("SELECT * FROM dh_tournament_tables WHERE tournament_id = ?", (t["id"],))
    assert [json.loads(r["players"]) for r in rows] == [tours.get(t["id"])["rounds"][0]["tables"][0]["players"]]


def test_each_player_is_told_their_table_and_its_start_a_notice_before_it(platform: Any, fake_clock: FakeClock) -> None:
    """The games of a round start ``notice_seconds`` after its pairing; each player hears of it then."""
    owner, _ = platform.accounts.register("ada", "human")
    bots = _bots(platform, owner, 4)
    t = platform.tournaments.create(owner, _spec(seats=2, notice_seconds=120), uuid.UUID(int=7))
    _enter(platform, fake_clock, t, owner, bots)
    fake_clock.advance(61)
    paired_at = clock.now()
    assert platform.tournaments.advance(t["id"]) == "running"
    table = platform.tournaments.get(t["id"])["rounds"][0]["tables"][0]
    game = platform.games.load(table["game_id"])
    assert game.status == "scheduled" and game.starts_at == (paired_at + timedelta(seconds=120)).isoformat()
    for pid in table["players"]:
        [notice] = platform.inbox.items(pid, "tournament_round")
        assert (notice["round"], notice["game_id"], notice["starts_at"]) == (1, table["game_id"], game.starts_at)
        assert len(notice["opponents"]) == 1
    fake_clock.advance(60)
    assert not platform.games.start_scheduled(table["game_id"], clock.now()), "no game starts before its notice"
    fake_clock.advance(61)
    assert platform.games.start_scheduled(table["game_id"], clock.now())


def test_a_player_withdraws_before_the_start_and_not_after(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    bea, _ = platform.accounts.register("bea", "human")
    bot = _bots(platform, owner, 1)[0]
    t = platform.tournaments.create(owner, _spec(seats=2), uuid.UUID(int=8))
    for entrant in (owner, bea):
        platform.tournaments.register(t["id"], entrant)
    platform.tournaments.register(t["id"], owner, bot.id, "random")
    with pytest.raises(NotOwner):
        platform.tournaments.withdraw(t["id"], bea, bot.id)
    after = platform.tournaments.withdraw(t["id"], owner, bot.id)
    after = platform.tournaments.withdraw(t["id"], bea)
    assert [p["name"] for p in after["players"]] == ["ada"]
    platform.tournaments.withdraw(t["id"], bea)  # twice is no error
    platform.tournaments.register(t["id"], bea)
    fake_clock.advance(61)
    platform.tournaments.advance(t["id"])
    with pytest.raises(RegistrationClosed):
        platform.tournaments.withdraw(t["id"], bea)


def test_the_organiser_starts_a_tournament_early_and_only_with_enough_players(
    platform: Any, fake_clock: FakeClock
) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    bea, _ = platform.accounts.register("bea", "human")
    t = platform.tournaments.create(owner, _spec(seats=2, starts_at=clock.now() + timedelta(days=3)), uuid.UUID(int=9))
    platform.tournaments.register(t["id"], owner)
    with pytest.raises(TooFewPlayers):
        platform.tournaments.start_now(t["id"], owner)
    platform.tournaments.register(t["id"], bea)
    with pytest.raises(NotOrganiser):
        platform.tournaments.start_now(t["id"], bea)
    started = platform.tournaments.start_now(t["id"], owner)
    assert started["status"] == "running" and started["round"] == 1
    assert len(started["rounds"][0]["tables"]) == 1
    with pytest.raises(RegistrationClosed):
        platform.tournaments.start_now(t["id"], owner)


def test_the_organiser_cancels_and_every_entrant_is_told(platform: Any, fake_clock: FakeClock) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    bea, _ = platform.accounts.register("bea", "human")
    t = platform.tournaments.create(owner, _spec(seats=2), uuid.UUID(int=10))
    platform.tournaments.register(t["id"], bea)
    with pytest.raises(NotOrganiser):
        platform.tournaments.cancel(t["id"], bea)
    assert platform.tournaments.cancel(t["id"], owner)["status"] == "cancelled"
    [told] = platform.inbox.items(bea.id, "tournament_cancelled")
    assert told["tournament"] == "spring cup"
    with pytest.raises(RegistrationClosed):
        platform.tournaments.cancel(t["id"], owner)
    fake_clock.advance(61)
    assert t["id"] not in platform.tournaments.due(clock.now())


def test_a_step_that_finds_a_table_whose_game_is_not_created_yet_seats_the_others(
    platform: Any, fake_clock: FakeClock
) -> None:
    """Two steps at once: one has paired the round and not yet created its games when the other seats
    the round's players (a tester's server logged ``GameNotFound`` there). The other step seats what
    exists; the pairing step creates the rest and seats it."""
    owner, _ = platform.accounts.register("ada", "human")
    tours = platform.tournaments
    t = tours.create(owner, _spec())
    bots = _bots(platform, owner, 3)
    for bot in bots:
        tours.register(t["id"], owner, bot.id, "random")
    fake_clock.advance(61)
    tours.advance(t["id"])
    row = platform.db.one("SELECT * FROM dh_tournaments WHERE tournament_id = ?", (t["id"],))
    platform.db.execute(
        "INSERT INTO dh_tournament_tables (tournament_id, round, table_no, game_id, players) VALUES (?, ?, ?, ?, ?)",
        (t["id"], row["round"], 9, str(uuid.uuid4()), json.dumps([bots[0].id])),
    )
    tours._seat_all(row)
    [seated] = [tb for tb in tours.get(t["id"])["rounds"][0]["tables"] if tb["table"] == 0]
    assert len(platform.games.load(seated["game_id"]).seats) == 3
