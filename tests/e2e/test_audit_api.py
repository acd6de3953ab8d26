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
    assert [(e["seat"], e["code"]) for e in entries] == [(0, None), (1, "illegal_move"), (0, None)]
    # of alice's refusals bob reads only that they happened: which command and which rule could tell
    # him what alice holds
    assert all(entries[i][k] is None for i in (0, 2) for k in ("command", "code", "message", "rule"))
    assert entries[1]["message"] and entries[1]["command"] == {"type": "roll"}
    mine = client.call("GET", f"/api/v1/games/{gid}/journal", token=a["token"]).body["entries"]
    assert mine[0]["command"] == {"type": "bid", "amount": 7} and "0 to 2" in mine[0]["message"]
    assert mine[0]["rule"]["id"] == "dice-race.bid" and mine[2]["code"] == "stale_version"
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    after = client.call("GET", f"/api/v1/games/{gid}/journal", token=stranger["token"]).body["entries"]
    assert after[0]["command"] == {"type": "bid", "amount": 7} and after[0]["rule"]["id"] == "dice-race.bid"


def test_a_dispute_is_answered_from_the_rules_with_a_sandbox_and_resolved_by_an_event(client: Any) -> None:
    host = client.player("host")
    a, b = client.player("alice"), client.player("bob")
    gid = client.new_game(host["token"])["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    outsider = client.player("arbiter-fan")
    r = client.call(
        "POST",
        f"/api/v1/games/{gid}/disputes",
        {"version": 6, "claim": "a bid of 3 should be allowed", "move": {"type": "bid", "amount": 3}, "seat": 0},
        outsider["token"],
    )
    assert r.status == 201, r.body
    answer = r.body["answer"]
    assert answer["move"]["legal"] is False and answer["move"]["rule"]["id"] == "dice-race.bid"
    legal = client.call("GET", f"/api/v1/disputes/{r.body['id']}/legal-moves", token=outsider["token"]).body
    assert {"type": "bid", "amount": 2} in legal["moves"] and legal["total"] == answer["legal_moves_total"]
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
    for player in (a, b):  # a player of the game never arbitrates it
        refused = client.call("POST", f"/api/v1/disputes/{dispute_id}/resolve", {"verdict": "upheld"}, player["token"])
        assert refused.status == 403 and refused.body["error"]["code"] == "not_arbiter"
    resolved = client.call(
        "POST",
        f"/api/v1/disputes/{dispute_id}/resolve",
        {"verdict": "rejected", "note": "bids are 0 to 2"},
        host["token"],
    )
    assert resolved.status == 200 and resolved.body["resolution"]["verdict"] == "rejected"
    assert client.call("GET", f"/api/v1/games/{gid}/events").body["events"] == events_before


def test_a_creator_who_plays_does_not_arbitrate_the_disputes_of_its_game(client: Any) -> None:
    gid, a, b = _game(client)
    r = client.call("POST", f"/api/v1/games/{gid}/disputes", {"version": 6, "claim": "unfair"}, b["token"])
    refused = client.call("POST", f"/api/v1/disputes/{r.body['id']}/resolve", {"verdict": "rejected"}, a["token"])
    assert refused.status == 403 and refused.body["error"]["code"] == "not_arbiter"
    withdrawn = client.call("POST", f"/api/v1/disputes/{r.body['id']}/resolve", {"verdict": "withdrawn"}, b["token"])
    assert withdrawn.status == 200 and withdrawn.body["resolution"]["by"] == b["id"]


def test_during_a_game_only_a_seat_disputes_and_only_it_sees_the_answer(client: Any) -> None:
    gid, a, b = _game(client)
    client.move(gid, a["token"], {"type": "bid", "amount": 1})
    stranger = client.player("eve")
    body = {"version": 6, "claim": "I could have bid 2"}
    assert client.call("POST", f"/api/v1/games/{gid}/disputes", body, stranger["token"]).status == 403
    assert client.call("POST", f"/api/v1/games/{gid}/disputes", {**body, "seat": 1}, a["token"]).status == 403
    r = client.call("POST", f"/api/v1/games/{gid}/disputes", body, a["token"])
    assert r.status == 201 and r.body["answer"]["seat"] == 0
    shown_to_alice = client.call("GET", f"/api/v1/games/{gid}/events?after=6", token=a["token"]).body["events"]
    assert r.body["answer"]["actual"] == shown_to_alice  # what followed, as /events shows it to her: no more
    assert r.body["answer"]["sandbox_id"] is None and r.body["answer"]["sandbox_chance"] is None
    seen_by_bob = client.call("GET", f"/api/v1/disputes/{r.body['id']}", token=b["token"]).body
    assert seen_by_bob["answer"] is None and seen_by_bob["claim"] == body["claim"]
    assert client.call("GET", f"/api/v1/disputes/{r.body['id']}/legal-moves", token=b["token"]).status == 403


def test_a_dispute_on_a_running_game_judges_legality_only_and_forks_no_sandbox(client: Any) -> None:
    """While a game runs a dispute shows no consequence of a decision not yet made (no event, no
    chance outcome) and no sandbox to try it in; the sandbox comes once the game has ended."""
    gid, a, b = _game(client)
    body = {"version": 6, "claim": "my roll was legal", "move": {"type": "bid", "amount": 2}}
    r = client.call("POST", f"/api/v1/games/{gid}/disputes", body, a["token"])
    judged = r.body["answer"]["move"]
    assert judged == {"evaluated": True, "legal": True}
    assert r.body["answer"]["sandbox_id"] is None and "legal_moves" not in r.body["answer"]
    refused = client.call(
        "POST", f"/api/v1/games/{gid}/disputes", {**body, "move": {"type": "bid", "amount": 9}}, a["token"]
    ).body["answer"]["move"]
    assert refused["legal"] is False and refused["rule"]["id"] == "dice-race.bid" and "events" not in refused
    early = client.call("POST", f"/api/v1/disputes/{r.body['id']}/sandbox", {}, a["token"])
    assert early.status == 409
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    assert client.call("POST", f"/api/v1/disputes/{r.body['id']}/sandbox", {}, b["token"]).status == 403
    forked = client.call("POST", f"/api/v1/disputes/{r.body['id']}/sandbox", {}, a["token"])
    assert forked.status == 200 and forked.body["answer"]["sandbox_id"]
    sandbox = client.platform.games.load(forked.body["answer"]["sandbox_id"])
    assert sandbox.state == client.platform.games.load_at(gid, 6).state
    again = client.call("POST", f"/api/v1/disputes/{r.body['id']}/sandbox", {}, a["token"])
    assert again.body["answer"]["sandbox_id"] == forked.body["answer"]["sandbox_id"]


def test_a_dispute_about_the_decision_taken_answers_with_the_dice_the_game_rolled(client: Any) -> None:
    """Once the game has ended, a claimed decision draws the game's own chance at that version: the
    decision actually taken shows the events recorded, dice included. ``actual`` is what followed,
    as GET /events shows it; the sandbox says it draws the game's chance (``sandbox_chance``)."""
    gid, a, b = _game(client)
    _play_out(client, gid, {0: a["token"], 1: b["token"]})
    events = client.call("GET", f"/api/v1/games/{gid}/events").body["events"]
    k = next(i for i, e in enumerate(events) if e["type"] == "DieRolled") - 1
    while events[k]["source"] != "platform":
        k -= 1
    taken = events[k]  # the decision whose events rolled the first die
    caused = []
    for e in events[k + 1 :]:
        if e["source"] == "platform":
            break
        caused.append({"type": e["type"], "data": e["data"]})
    outsider = client.player("auditor")
    body = {"version": taken["version"] - 1, "claim": "as played", "move": taken["data"]["move"]}
    r = client.call("POST", f"/api/v1/games/{gid}/disputes", {**body, "seat": taken["data"]["seat"]}, outsider["token"])
    assert r.status == 201, r.body
    answer = r.body["answer"]
    assert answer["move"]["legal"] is True and answer["move"]["events"] == caused
    assert answer["actual"] == events[k : k + 1 + len(caused)]
    assert answer["sandbox_chance"] == "game"
    spec = client.call("GET", "/api/v1/openapi.json").body["components"]["schemas"]
    documented = spec["DisputeAnswer"]["properties"]
    assert {"actual", "sandbox_chance", "sandbox_id", "move", "verification"} <= set(documented)
    assert "opener could read" in documented["actual"]["description"]
