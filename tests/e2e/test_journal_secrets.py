"""The journal of refusals keeps each seat's tries to itself while the game runs.

Which command a seat tried, and which rule refused it, tells what it holds: in Seven
Dragons a card refused for "no connection there" is in the hand, one refused as
"not in your hand" is not (issue 20, defect 1).
"""

from __future__ import annotations

from typing import Any

import pytest

from services.audits import disputes
from services.play import journal


def _seven_dragons(client: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    a, b = client.player("alice"), client.player("bob")
    gid = client.new_game(a["token"], game="seven-dragons", players=2)["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    return gid, a, b


def test_another_seat_cannot_tell_a_card_held_from_a_card_not_held_by_the_journal(client: Any) -> None:
    gid, a, b = _seven_dragons(client)
    game = client.platform.games.load(gid)
    seat = game.awaiting[0]
    mover, other = (a, b) if game.holder(seat) == a["id"] else (b, a)
    hand = sorted(game.state.hands[seat])
    absent = next(c for c in range(1, 80) if c not in hand and c not in game.state.hands[1 - seat])
    held = hand[0]
    far = {"x": 40, "y": 40, "orientation": 0}  # off the table, and no card near: refused either way
    for card in (held, absent):
        r = client.move(gid, mover["token"], {"type": "place_dragon", "card": card, **far})
        assert r.status in (400, 422), r.body
    mine = client.call("GET", f"/api/v1/games/{gid}/journal", token=mover["token"]).body["entries"]
    assert [e["command"]["card"] for e in mine] == [held, absent]
    assert mine[0]["rule"]["id"] != mine[1]["rule"]["id"]  # the mover learns why each was refused
    theirs = client.call("GET", f"/api/v1/games/{gid}/journal", token=other["token"]).body["entries"]
    assert len(theirs) == 2
    seen = [{k: v for k, v in e.items() if k != "at"} for e in theirs]
    assert (
        seen[0]
        == seen[1]
        == {
            "player_id": mover["id"],
            "seat": seat,
            "version": game.version,
            "command": None,
            "code": None,
            "message": None,
            "rule": None,
        }
    )


def test_an_outsiders_refused_move_is_not_journaled_and_a_seat_not_held_is_not_used(client: Any) -> None:
    a, b = client.player("alice"), client.player("bob")
    gid = client.new_game(a["token"])["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    outsider = client.player("eve")
    assert client.move(gid, outsider["token"], {"type": "bid", "amount": 1}).status == 403
    assert client.move(gid, a["token"], {"type": "bid", "amount": 1}, seat=1).status == 403
    entries = client.call("GET", f"/api/v1/games/{gid}/journal", token=a["token"]).body["entries"]
    assert [(e["player_id"], e["seat"]) for e in entries] == [(a["id"], 0)]


def test_a_player_fills_the_journal_up_to_its_limit_and_no_further(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MAX_ENTRIES_PER_PLAYER", 3)
    a, b = client.player("alice"), client.player("bob")
    gid = client.new_game(a["token"])["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    for _ in range(5):
        assert client.move(gid, a["token"], {"type": "bid", "amount": 9}).status == 422  # refused all the same
    client.move(gid, b["token"], {"type": "bid", "amount": 9})
    entries = client.call("GET", f"/api/v1/games/{gid}/journal", token=a["token"]).body["entries"]
    assert [e["seat"] for e in entries] == [0, 0, 0, 1]


def test_an_account_opens_a_bounded_number_of_disputes_about_one_game(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(disputes, "MAX_PER_OPENER", 2)
    a, b = client.player("alice"), client.player("bob")
    gid = client.new_game(a["token"])["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    body = {"version": client.game(gid)["version"], "claim": "again"}
    statuses = [client.call("POST", f"/api/v1/games/{gid}/disputes", body, a["token"]).status for _ in range(3)]
    assert statuses == [201, 201, 400]
    assert client.call("POST", f"/api/v1/games/{gid}/disputes", body, b["token"]).status == 201
    assert len(client.call("GET", f"/api/v1/games/{gid}/disputes").body["disputes"]) == 3
