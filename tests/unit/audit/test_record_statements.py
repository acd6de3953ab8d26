"""Every statement of a record is checked against the events it follows from.

The four doctored records of issue 20 passed with VERIFIED for all four games; each
must now fail naming the field or the step, whether the forger keeps the server's
signature (it no longer covers the record) or signs the record again with a key of
their own (then the statement contradicts the events). Timeouts must follow the
clock: a game without one has none, a deadline is no earlier than the turn's start
plus its budget, a timeout no earlier than its deadline, one per turn, after which
the policy plays out the turn.
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from domain.mekong import RULESET
from services.audits.verification import verify_record
from tests.unit.audit.sample_records import GAMES, bot_record, resigned, timed_record

LEGACY = sorted((Path(__file__).parent / "legacy").glob("*.json.gz"))
"""Timed games (a bank clock with timeouts in Seven Dragons, skipped decisions in Mékong) exported
by the code before turns closed at decisions (commit 4109d89): format 1, and a TurnTimedOut for each
decision of a timed-out turn. (Games whose engine has changed since cannot be re-decided; these
two have not.)"""
CORPUS = Path(__file__).parents[2] / "regression" / "corpus"


@pytest.fixture(scope="module")
def platform_m() -> Iterator[Any]:
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory"), work=NullWork())
    yield platform
    platform.close()


@pytest.fixture(scope="module")
def bots(platform_m: Any) -> dict[str, dict[str, Any]]:
    return {game: bot_record(platform_m, game) for game in GAMES}


@pytest.fixture(scope="module")
def timed(platform_m: Any) -> dict[str, dict[str, Any]]:
    return {game: timed_record(platform_m, game) for game in ("tarasque", "drachenreiter")}


def rejection(record: dict[str, Any]) -> str:
    """The verdict and every problem the verifier found, as one text."""
    report = verify_record(record)
    assert not report["ok"], "a doctored record verified"
    return " | ".join([report["verdict"], *(f"{p['where']}: {p['message']}" for p in report["problems"])])


def both_ways(record: dict[str, Any], doctor: Any) -> Iterator[str]:
    """The verdicts on ``record`` doctored, under the server's signature and signed again by a forger."""
    doctored = copy.deepcopy(record)
    doctor(doctored)
    yield rejection(doctored)
    yield rejection(resigned(doctored, relist=False))


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_winner_fails_naming_the_outcome(bots: dict[str, dict[str, Any]], game: str) -> None:
    def doctor(r: dict[str, Any]) -> None:
        winners = r["header"]["outcome"]["winners"]
        r["header"]["outcome"]["winners"] = [s for s in (0, 1) if s not in winners][:1]

    signed, forged = both_ways(bots[game], doctor)
    assert "header.outcome" in signed and "not what the server signed" in signed
    assert "header.outcome.winners" in forged and "the events say" in forged


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_seat_name_fails_naming_the_seat(bots: dict[str, dict[str, Any]], game: str) -> None:
    def doctor(r: dict[str, Any]) -> None:
        r["header"]["seats"][1]["name"] = "Mallory"

    signed, forged = both_ways(bots[game], doctor)
    assert "header.seats" in signed
    assert "header.seats[1].name: the header says Mallory" in forged


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_time_control_fails_naming_it(bots: dict[str, dict[str, Any]], game: str) -> None:
    def doctor(r: dict[str, Any]) -> None:
        r["header"]["time_control"] = {"kind": "per_move", "seconds": 60, "timeout_policy": "auto"}

    signed, forged = both_ways(bots[game], doctor)
    assert "header.time_control" in signed
    assert "header.time_control.kind: the header says per_move, but the events say none" in forged


@pytest.mark.parametrize("game", GAMES)
def test_a_move_rewritten_as_a_timeout_in_an_untimed_game_fails_at_that_step(
    bots: dict[str, dict[str, Any]], game: str
) -> None:
    record = bots[game]
    move = next(e for e in record["events"] if e["type"] == "MoveMade" and e["version"] > 10)

    def doctor(r: dict[str, Any]) -> None:
        event = r["events"][move["version"] - 1]
        event["type"] = "TurnTimedOut"
        event["data"] = {
            "seat": move["data"]["seat"],
            "deadline": move["at"],
            "policy": "auto",
            "applied": "auto",
            "move": move["data"]["move"],
        }

    signed, forged = both_ways(record, doctor)
    assert f"the event at version {move['version']} (TurnTimedOut) is not what the server signed" in signed
    assert f"step at version {move['version']} (timed out (auto)): a TurnTimedOut in a game without a clock" in forged


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_event_is_rejected_at_the_gap(bots: dict[str, dict[str, Any]], game: str) -> None:
    record = copy.deepcopy(bots[game])
    gone = record["events"].pop(len(record["events"]) // 2)["version"]
    report = verify_record(record)
    assert not report["ok"] and report["first_bad_step"]["version"] == gone
    assert f"v{gone} missing from the record: v{gone - 1} is followed by v{gone + 1}" in report["verdict"]


# ------------------------------------------------------------------ timeouts and clocks


def _first(record: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in record["events"] if e["type"] == kind)


def _at(text: str, seconds: float) -> str:
    return (datetime.fromisoformat(text) + timedelta(seconds=seconds)).isoformat()


def test_a_deadline_earlier_than_the_turns_start_plus_its_budget_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["tarasque"])
    timeout = _first(record, "TurnTimedOut")
    timeout["data"]["deadline"] = _at(timeout["data"]["deadline"], -2)
    verdict = rejection(resigned(record))
    assert f"step at version {timeout['version']}" in verdict and "comes before the turn's start" in verdict


def test_a_deadline_pushed_later_is_accepted_as_vacation_days_may_push_it(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["tarasque"])
    timeout = _first(record, "TurnTimedOut")
    timeout["data"]["deadline"] = _at(timeout["data"]["deadline"], 0.5)  # the timeout came 1 s after it
    assert verify_record(resigned(record))["ok"]


def test_a_timeout_before_its_deadline_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["tarasque"])
    timeout = _first(record, "TurnTimedOut")
    timeout["at"] = _at(timeout["data"]["deadline"], -0.5)
    verdict = rejection(resigned(record))
    assert f"step at version {timeout['version']}" in verdict and "before its deadline" in verdict


def test_a_turn_that_the_policy_stops_playing_fails_at_the_next_decision(timed: dict[str, dict[str, Any]]) -> None:
    """One TurnTimedOut, then every decision of that turn: a record that drops the policy's
    further decisions (and their events) leaves the turn unfinished."""
    record = copy.deepcopy(timed["tarasque"])
    first = _first(record, "PolicyPlayed")["version"]
    end = next(
        e["version"]
        for e in record["events"]
        if e["version"] > first and e["source"] == "platform" and e["type"] != "PolicyPlayed"
    )
    record["events"] = [e for e in record["events"] if not first <= e["version"] < end]
    verdict = rejection(resigned(record))
    assert "timed-out turn goes on" in verdict and f"step at version {first} " in verdict


def test_a_second_timeout_in_one_turn_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["tarasque"])
    timeout = _first(record, "TurnTimedOut")
    again = _first(record, "PolicyPlayed")
    again["type"] = "TurnTimedOut"
    again["data"] = {**again["data"], "deadline": timeout["data"]["deadline"], "policy": timeout["data"]["policy"]}
    verdict = rejection(resigned(record))
    assert f"step at version {again['version']}" in verdict
    assert "timed-out turn goes on, so the timeout policy plays its next decision here" in verdict


def test_a_policy_decision_without_a_timeout_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["drachenreiter"])
    move = next(e for e in record["events"] if e["type"] == "MoveMade" and e["version"] > 10)
    move["type"] = "PolicyPlayed"
    move["data"] = {"seat": move["data"]["seat"], "applied": "auto", "move": move["data"]["move"]}
    verdict = rejection(resigned(record))
    assert f"step at version {move['version']}" in verdict and "follows no TurnTimedOut" in verdict


def test_a_bank_charge_for_a_turn_that_did_not_end_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["drachenreiter"])
    settled = _first(record, "ClockSettled")
    record["events"].insert(settled["version"], copy.deepcopy(settled))
    verdict = rejection(resigned(record))
    assert f"step at version {settled['version'] + 1} (ClockSettled)" in verdict and "bank turns that ended" in verdict


def test_a_missing_bank_charge_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["drachenreiter"])
    settled = _first(record, "ClockSettled")
    del record["events"][settled["version"] - 1]
    verdict = rejection(resigned(record))
    assert "was never charged (ClockSettled)" in verdict


def test_a_closing_flag_moved_within_a_decision_fails(timed: dict[str, dict[str, Any]]) -> None:
    record = copy.deepcopy(timed["tarasque"])
    events = record["events"]
    i = next(i for i, e in enumerate(events) if e.get("closes") is False)
    events[i]["closes"], events[i + 1]["closes"] = True, False
    verdict = rejection(resigned(record))
    assert f"version {events[i]['version']}: closes=True, but it is not the last event of its decision" in verdict


# ------------------------------------------------------------------ records written before


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_a_timed_record_exported_before_turns_closed_at_decisions_still_verifies(path: Path) -> None:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        record = json.load(f)
    report = verify_record(record)
    assert report["ok"], report["verdict"]
    assert report["verdict"].startswith("VERIFIED (format 1, unsigned)") and "names and times" in report["verdict"]
    assert "signature_valid" not in report["checks"] and report["checks"]["header_matches_events"]


def test_a_record_exported_before_is_still_checked_against_its_clock() -> None:
    with gzip.open(LEGACY[-1], "rt", encoding="utf-8") as f:
        record = json.load(f)
    assert record["header"]["time_control"]["kind"] == "bank"
    settled = _first(record, "ClockSettled")
    seat = next(iter(settled["data"]["banks"]))
    settled["data"]["banks"][seat] += 1
    assert f"step at version {settled['version']} (ClockSettled)" in rejection(record)


def test_only_mekong_challenge_records_of_engine_1_are_refused_for_their_version() -> None:
    """Engine 2 reuses the names of the challenge's stones taken back, so an engine 1 challenge record
    cannot be re-decided; a classic one still verifies (``LEGACY``'s Mekong record is one)."""
    with gzip.open(CORPUS / "mekong" / "challenge-2p-1002.json.gz", "rt", encoding="utf-8") as f:
        record = json.load(f)
    record["header"]["engine"] = "1"
    assert "recorded with engine '1' of mekong; this verifier runs engine '2'" in rejection(record)
    assert RULESET.redecides("1", "classic") and RULESET.redecides("1", "river-dragons")
    assert not RULESET.redecides("1", "challenge") and not RULESET.redecides("3", "classic")


def test_the_regression_corpus_verifies_as_format_1() -> None:
    # recorded in format 1 (Drachenreiter's and Mekong's were rebuilt since)
    path = CORPUS / "tarasque" / "dragon-dice-2p-1000.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        record = json.load(f)
    report = verify_record(record)
    assert report["ok"] and report["format"] == "dragonhall-record/1"
    record["header"]["seats"][0]["name"] = "someone else"
    assert "header.seats[0].name" in rejection(record)


def _given_up_record(platform: Any) -> dict[str, Any]:
    """A three-seat Tarasque table where the creator took off a bot before the start, played out."""
    from services.audits.records import game_record

    g = platform.games.create_game("owner", "tarasque", None, None, 3)
    gid = str(g.id)
    for bot in ("random", "greedy"):
        platform.games.take_seat(gid, f"server-bot:{bot}", f"{bot} bot", "bot", bot=bot)
    platform.seating.leave(gid, "owner", 1)
    for bot in ("beginner", "random"):
        platform.games.take_seat(gid, f"server-bot:{bot}", f"{bot} bot", "bot", bot=bot)
    while (g := platform.games.load(gid)).status == "active":
        platform.games.resign(gid, g.holder(g.awaiting[0]), seat=g.awaiting[0])
    return game_record(platform.games, gid)


def test_a_seat_given_up_verifies_and_a_changed_one_fails_naming_it(platform_m: Any) -> None:
    record = _given_up_record(platform_m)
    assert [e["type"] for e in record["events"]].count("SeatGivenUp") == 1
    assert verify_record(record)["ok"], verify_record(record)["problems"]

    def doctor(r: dict[str, Any]) -> None:
        _first(r, "SeatGivenUp")["data"]["bot"] = "random"

    for verdict in both_ways(record, doctor):
        assert "(SeatGivenUp): seat 1 is given up by" in verdict and "'greedy'} holds it" in verdict, verdict
