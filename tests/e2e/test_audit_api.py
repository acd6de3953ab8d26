"""Replays, records, audits, the journal of refusals and disputes, through the HTTP API."""

from __future__ import annotations

from typing import Any


def _game(client: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    a, b = client.player("alice"), client.player("bob")
    game = client.new_game(a["token"])
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    return game["id"], a, b


def _play_out(client: Any, gid: str, tokens: dict[int, str]) -> None:
    for _ in range(400):
        doc = client.game(gid)
        if doc["status"] != "active":
            return
        seat = doc["awaiting"][0]
        listing = client.legal(gid, tokens[seat])
        client.move(gid, tokens[seat], listing["moves"][-1], seat=seat)


def test_the_step_listing_groups_events_by_decision_with_actor_and_rules(client: Any) -> None:
    gid, a, b = _game(client)
    client.move(gid, a["token"], {"type": "bid", "amount": 2})
    steps = client.call("GET", f"/api/v1/games/{gid}/steps", token=b["token"]).body["steps"]
    kinds = [s["decision"]["type"] for s in steps]
    assert kinds == ["Created", "SeatTaken", "SeatTaken", "Started", "MoveMade"]
    bid = steps[-1]
    assert bid["actor"] == {"kind": "seat", "seat": 0, "player_id": a["id"]}
    assert bid["decision"]["move"] == {"type": "bid", "amount": {"hidden": True}}  # bob may not see alice's bid
    assert bid["rules"][0]["id"] == "dice-race.bid" and bid["rules"][0]["text"]
    assert [e["type"] for e in bid["events"]] == ["MoveMade", "BidPlaced"]


def test_a_record_is_exported_only_once_the_game_has_ended_and_it_verifies(client: Any) -> None:
    gid, a, b = _game(client)
    r = client.call("GET", f"/api/v1/games/{gid}/record")
    assert r.status == 409
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    record = client.call("GET", f"/api/v1/games/{gid}/record").body
    header = record["header"]
    assert header["game"] == "dice-race" and header["engine"] == "1" and header["seed"]
    assert record["audit"]["ok"] and record["audit"]["checks"]["seed_matches_commitment"]
    assert len(record["events"]) == client.game(gid)["version"]


def test_the_audit_trail_verifies_a_running_game_without_revealing_its_seed(client: Any) -> None:
    gid, a, b = _game(client)
    client.move(gid, a["token"], {"type": "bid", "amount": 1})
    audit = client.call("GET", f"/api/v1/games/{gid}/audit", token=b["token"]).body
    assert audit["verified"] is True and audit["seed"] is None
    assert audit["checks"]["seed_matches_commitment"] is None
    assert all("state_hash" not in e for s in audit["steps"] for e in s["events"])
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    audit = client.call("GET", f"/api/v1/games/{gid}/audit").body
    assert audit["verified"] is True and audit["seed"] and all(audit["checks"].values())


def test_refused_commands_are_journaled_for_the_seats_and_nothing_else_changes(client: Any) -> None:
    gid, a, b = _game(client)
    version = client.game(gid)["version"]
    client.move(gid, a["token"], {"type": "bid", "amount": 7})
    client.move(gid, b["token"], {"type": "roll"})
    client.move(gid, a["token"], {"type": "bid", "amount": 1}, expected_version=1)
    assert client.game(gid)["version"] == version
    stranger = client.player("eve")
    assert client.call("GET", f"/api/v1/games/{gid}/journal", token=stranger["token"]).status == 403
    entries = client.call("GET", f"/api/v1/games/{gid}/journal", token=b["token"]).body["entries"]
    assert [(e["seat"], e["code"]) for e in entries] == [(0, "illegal_move"), (1, "illegal_move"),
                                                         (0, "stale_version")]
    assert entries[0]["rule"]["id"] == "dice-race.bid"
    assert entries[0]["command"] == {"type": "bid", "amount": {"hidden": True}} and entries[0]["message"] is None
    assert entries[1]["message"] and entries[1]["command"] == {"type": "roll"}
    mine = client.call("GET", f"/api/v1/games/{gid}/journal", token=a["token"]).body["entries"]
    assert mine[0]["command"] == {"type": "bid", "amount": 7} and "0 to 2" in mine[0]["message"]


def test_a_dispute_is_answered_from_the_rules_with_a_sandbox_and_resolved_by_an_event(client: Any) -> None:
    gid, a, b = _game(client)
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    outsider = client.player("arbiter-fan")
    r = client.call("POST", f"/api/v1/games/{gid}/disputes",
                    {"version": 6, "claim": "a bid of 3 should be allowed", "move": {"type": "bid", "amount": 3},
                     "seat": 0}, outsider["token"])
    assert r.status == 201, r.body
    answer = r.body["answer"]
    assert answer["move"]["legal"] is False and answer["move"]["rule"]["id"] == "dice-race.bid"
    assert {"type": "bid", "amount": 2} in answer["legal_moves"]
    assert answer["verification"]["verified"] is True and answer["actual"][0]["type"] == "MoveMade"
    sandbox = client.game(answer["sandbox_id"], outsider["token"])
    assert sandbox["sandbox"] is True and sandbox["status"] == "active" and sandbox["awaiting"] == [0, 1]
    assert all(s["player_id"] == outsider["id"] for s in sandbox["seats"])
    played = client.move(answer["sandbox_id"], outsider["token"], {"type": "bid", "amount": 2}, seat=0)
    assert played.status == 201
    client.platform.wait_for_projections()
    listed = client.call("GET", "/api/v1/games").body["games"]
    assert answer["sandbox_id"] not in [g["id"] for g in listed]
    events_before = client.call("GET", f"/api/v1/games/{gid}/events").body["events"]
    dispute_id = r.body["id"]
    refused = client.call("POST", f"/api/v1/disputes/{dispute_id}/resolve", {"verdict": "upheld"}, b["token"])
    assert refused.status == 403
    resolved = client.call("POST", f"/api/v1/disputes/{dispute_id}/resolve",
                           {"verdict": "rejected", "note": "bids are 0 to 2"}, a["token"])
    assert resolved.status == 200 and resolved.body["resolution"]["verdict"] == "rejected"
    assert client.call("GET", f"/api/v1/games/{gid}/events").body["events"] == events_before


def test_during_a_game_only_a_seat_disputes_and_only_it_sees_the_answer(client: Any) -> None:
    gid, a, b = _game(client)
    client.move(gid, a["token"], {"type": "bid", "amount": 1})
    stranger = client.player("eve")
    body = {"version": 6, "claim": "I could have bid 2"}
    assert client.call("POST", f"/api/v1/games/{gid}/disputes", body, stranger["token"]).status == 403
    assert client.call("POST", f"/api/v1/games/{gid}/disputes", {**body, "seat": 1}, a["token"]).status == 403
    r = client.call("POST", f"/api/v1/games/{gid}/disputes", body, a["token"])
    assert r.status == 201 and r.body["answer"]["seat"] == 0
    seen_by_bob = client.call("GET", f"/api/v1/disputes/{r.body['id']}", token=b["token"]).body
    assert seen_by_bob["answer"] is None and seen_by_bob["claim"] == body["claim"]
    sandbox = client.platform.games.load(r.body["answer"]["sandbox_id"])
    real = client.platform.games.load(gid)
    assert sandbox.state.secrets[0] == real.state.secrets[0]  # alice's own card is what she knows
