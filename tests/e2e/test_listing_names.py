"""A seat's listing named apart from its version (``listing``): while the seats of a Mékong table
programme at once, each seat's moves stay the same as the others decide, and the answers say so, so
a page neither reads tens of thousands of moves again nor drops a person's half-made programme."""

from __future__ import annotations

import json
from typing import Any

import pytest

import services.streams.lines


def _programming_table(client: Any, seats: int = 3) -> tuple[str, list[dict[str, Any]]]:
    players = [client.player() for _ in range(seats)]
    gid = client.new_game(players[0]["token"], game="mekong", players=seats)["id"]
    for p in players:
        assert client.seat(gid, p["token"]).status == 201
    return gid, players


def test_a_seats_listing_keeps_its_name_while_the_others_programme(client: Any) -> None:
    gid, (ann, bea, _) = _programming_table(client)
    before = client.legal(gid, ann["token"])
    assert before["total"] > 1000 and before["moves"][0]["type"] == "program"
    assert before["listing"]

    bea_listing = client.legal(gid, bea["token"])
    assert bea_listing["listing"] != before["listing"]  # each seat's own
    made = client.move(gid, bea["token"], bea_listing["moves"][0], expected_version=bea_listing["version"])
    assert made.status == 201, made.body

    after = client.legal(gid, ann["token"])
    assert after["version"] > before["version"]
    assert after["listing"] == before["listing"]
    assert after["moves"] == before["moves"] and after["total"] == before["total"]
    worded = client.call("GET", f"/api/v1/games/{gid}/legal-moves?words=true&offset=1000&limit=5", token=ann["token"])
    assert worded.body["listing"] == before["listing"]


def test_a_seats_stream_names_its_listing_as_the_answers_do(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.streams.lines, "KEEPALIVE", 0.0)  # a stream with nothing more says so at once
    gid, (ann, bea, _) = _programming_table(client)
    named = client.legal(gid, ann["token"])["listing"]
    status, frames = client.stream_until_quiet(f"/api/v1/games/{gid}/stream", ann["token"])
    assert status == 200
    assert json.loads(frames[0])["legal_moves"]["listing"] == named
    status, frames = client.stream_until_quiet(f"/api/v1/games/{gid}/stream", bea["token"])
    assert json.loads(frames[0])["legal_moves"]["listing"] not in ("", named)


def test_a_listing_without_a_name_belongs_to_its_version(client: Any) -> None:
    """Once programmed, a seat plays its cards one by one: those moves depend on the river, which
    every decision changes, so they carry no name (the page reads them at each version)."""
    gid, players = _programming_table(client, seats=2)
    for p in players:
        listed = client.legal(gid, p["token"])
        assert client.move(gid, p["token"], listed["moves"][0], expected_version=listed["version"]).status == 201
    doc = client.game(gid)
    awaited = [p for p in players if client.legal(gid, p["token"])["total"]]
    assert doc["status"] == "active" and awaited
    for p in awaited:
        assert "listing" not in client.legal(gid, p["token"])


def test_no_listing_name_reaches_a_spectator_or_another_seat(client: Any) -> None:
    gid, (ann, bea, _) = _programming_table(client)
    watcher = client.player()
    named = client.legal(gid, ann["token"])["listing"]
    for reader in (watcher, bea):
        stream = client.call("GET", f"/api/v1/games/{gid}", token=reader["token"])
        assert named not in str(stream.body)
        assert named not in str(client.call("GET", f"/api/v1/games/{gid}/legal-moves", token=reader["token"]).body)
