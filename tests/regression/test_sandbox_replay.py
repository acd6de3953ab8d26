"""A sandbox of an ended game draws the game's own chance: replaying the recorded decisions in it
reproduces the recorded events exactly, for every finished game of the corpus (all four games).

Each corpus game is played again on a platform with the corpus's server key, so it gets the same
id and seed and the same events; then a dispute about its first decision forks a sandbox at that
version, every recorded decision is played again there, and the sandbox's events must be the
recorded ones: every rule event (its data, state hash and awaited seats), every move, and the
end with its outcome and revealed seed. The dispute's answer about the decision actually taken
must show the events it caused."""

from __future__ import annotations

import gzip
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.common.config import Settings
from services.common.ports import NullWork
from services.play import sandbox_chance
from tests.regression.build_corpus import KEY
from tests.regression.test_corpus import RECORDS
from tests.support.runs import corpus_sample

AUDITOR = "auditor"
UNCOMPARED = ("version", "at", "closes")
"""What differs between a game and its sandbox (the version, the time), and the flag of rule events
that close their decision, which the corpus predates."""


@pytest.fixture(scope="module")
def platforms() -> Iterator[dict[str, Any]]:
    """A platform with the corpus's server key per game: the corpus numbers each game's ids alike."""
    made: dict[str, Any] = {}
    yield made
    for p in made.values():
        p.close()


def _platform(platforms: dict[str, Any], game: str) -> Any:
    from wiring import bootstrap

    if game not in platforms:
        settings = Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": KEY})
        platforms[game] = bootstrap(settings, work=NullWork())
    return platforms[game]


def _events(platform: Any, gid: str, after: int = 0) -> list[dict[str, Any]]:
    """The stored events as a record holds them, but for ``UNCOMPARED`` and which player made each move."""
    from domain.kernel import Viewer
    from services.audits.records import events_json

    out = []
    for e in events_json(platform.games, gid, Viewer.everyone()):
        if e["version"] <= after:
            continue
        data = dict(e["data"])
        data.pop("player_id", None)
        out.append({k: v for k, v in {**e, "data": data}.items() if k not in UNCOMPARED})
    return out


def _recorded(record: dict[str, Any], after: int) -> list[dict[str, Any]]:
    out = []
    for e in record["events"]:
        if e["version"] > after:
            data = dict(e["data"])
            data.pop("player_id", None)
            out.append({k: v for k, v in {**e, "data": data}.items() if k not in UNCOMPARED})
    return out


def _play_again(platform: Any, record: dict[str, Any]) -> str:
    """The corpus game on this platform: the same id, seed, seats and decisions."""
    head = record["header"]
    gid = head["game_id"]
    games = platform.games
    games.create_game(
        head["creator"], head["game"], head["variant"], None, head["planned_seats"], game_id=uuid.UUID(gid)
    )
    for s in head["seats"]:
        games.take_seat(gid, s["player_id"], s["name"], s["kind"], seat=s["seat"], bot=s["bot"])
    for d in _moves(record):
        games.submit_move(gid, d["actor"]["player_id"], d["decision"]["move"], seat=d["decision"]["seat"])
    return str(gid)


def _moves(record: dict[str, Any]) -> list[dict[str, Any]]:
    moves = [d for d in record["decisions"] if d["decision"]["type"] != "Created" and d["actor"]["kind"] == "seat"]
    return [d for d in moves if d["decision"]["type"] == "MoveMade"]


@pytest.mark.parametrize("path", corpus_sample(RECORDS), ids=lambda p: f"{p.parent.name}/{p.name[:-8]}")
def test_a_sandbox_replays_an_ended_game_to_its_recorded_events(platforms: dict[str, Any], path: Path) -> None:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        record = json.load(f)
    platform = _platform(platforms, record["header"]["game"])
    gid = _play_again(platform, record)
    assert _events(platform, gid) == _recorded(record, 0)  # the same game: the same id gives the same seed

    moves = _moves(record)
    first = moves[0]
    at = first["version"] - 1
    opened = platform.disputes.open(gid, AUDITOR, at, "replay", first["decision"]["move"], first["decision"]["seat"])
    answer = opened["answer"]
    caused = [e for e in _recorded(record, at) if e["source"] == "rules"][: len(answer["move"]["events"])]
    assert answer["move"]["events"] == [{"type": e["type"], "data": e["data"]} for e in caused]

    sandbox = answer["sandbox_id"]
    assert platform.games.load(sandbox).sandbox_of["chance"] == sandbox_chance.GAME
    for d in moves:
        platform.games.submit_move(sandbox, AUDITOR, d["decision"]["move"], seat=d["decision"]["seat"])
    assert _events(platform, sandbox, after=sandbox_chance.FORKED_AT) == _recorded(record, at)
