"""Invitations over HTTP, one flow for people and bots: invited by name, the invitee reads who
invites them to what, on the API and on the account stream (again each time it connects, while
pending); declines with a reason the inviter hears; accepts and is seated; the game starts full."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import services.streams.lines

FACTS = {"game", "variant", "options", "seats", "time_control", "rated", "starts_at", "inviter", "invitee"}


@pytest.fixture(autouse=True)
def quick_keepalive() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services.streams.lines, "KEEPALIVE", 0.0)
        yield


def _received(client: Any, token: str) -> list[dict[str, Any]]:
    r = client.call("GET", "/api/v1/me/invitations", token=token)
    assert r.status == 200, r.body
    return list(r.body["received"])


def test_an_invitation_by_name_says_who_invites_whom_to_what(client: Any) -> None:
    ann, bot = client.player("Ann"), client.player("Rusty", kind="bot")
    clock = {"kind": "per_move", "seconds": 600}
    game = client.new_game(
        ann["token"], game="mekong", players=3, variant="river-dragons", options={"round_limit": 12},
        time_control=clock, rated=False, invite=["rusty"],
    )  # fmt: skip
    [invitation] = _received(client, bot["token"])
    assert set(invitation) >= FACTS
    assert invitation["game_id"] == game["id"] and invitation["status"] == "pending"
    assert (invitation["game"], invitation["variant"], invitation["seats"]) == ("mekong", "river-dragons", 3)
    assert invitation["options"]["round_limit"] == 12 and invitation["time_control"]["seconds"] == 600
    assert invitation["rated"] is False
    assert invitation["inviter"] == {"id": ann["id"], "name": "Ann", "kind": "human"}
    assert (
        client.call("GET", "/api/v1/me/invitations", token=ann["token"]).body["sent"][0]["invitee"]["name"] == "Rusty"
    )


def test_inviting_a_name_that_is_nobody_opens_no_table(client: Any) -> None:
    ann = client.player("Ann")
    r = client.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2, "invite": ["Bruno"]}, ann["token"])
    assert r.status == 400 and "nobody is called 'Bruno'" in r.body["error"]["message"]
    assert client.call("GET", "/api/v1/games?player=" + ann["id"]).body["games"] == []
    me = client.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2, "invite": ["ann"]}, ann["token"])
    assert me.status == 400 and "yourself" in me.body["error"]["message"]


def test_a_decline_carries_its_reason_to_the_inviter_on_the_stream_and_the_list(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno"])
    [invitation] = _received(client, bruno["token"])
    since = client.stream_lines("/api/v1/stream/events", ann["token"])  # the inviter's stream, before the answer
    assert all(line["type"] != "invitation_declined" for line in since)
    answer = client.call(
        "POST", f"/api/v1/invitations/{invitation['invitation_id']}/decline", {"reason": "too_slow"}, bruno["token"]
    )
    assert answer.status == 200 and answer.body["status"] == "declined"
    [sent] = client.call("GET", "/api/v1/me/invitations", token=ann["token"]).body["sent"]
    assert (sent["status"], sent["reason"]) == ("declined", "too_slow")
    assert sent["reason_text"] == "This clock is too slow for me; please invite me to a faster game."
    lines = client.stream_lines("/api/v1/stream/events?after=0", ann["token"])
    declined = [line for line in lines if line["type"] == "invitation_declined"]
    assert declined and declined[0]["reason"] == "too_slow" and declined[0]["invitee"]["name"] == "Bruno"
    again = client.call("POST", f"/api/v1/invitations/{invitation['invitation_id']}/accept", None, bruno["token"])
    assert again.status == 409 and again.body["error"]["code"] == "invitation_closed"


def test_accepting_seats_the_invitee_and_the_full_table_starts(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    game = client.new_game(ann["token"], game="tarasque", players=2, invite=[bruno["id"]])
    client.seat(game["id"], ann["token"])
    [invitation] = _received(client, bruno["token"])
    r = client.call("POST", f"/api/v1/invitations/{invitation['invitation_id']}/accept", None, bruno["token"])
    assert r.status == 200 and r.body["status"] == "active"
    assert [s["name"] for s in r.body["seats"]] == ["Ann", "Bruno"]
    accepted = [line for line in client.stream_lines("/api/v1/stream/events?after=0", ann["token"])
                if line["type"] == "invitation_accepted"]  # fmt: skip
    assert accepted and accepted[0]["invitee"]["id"] == bruno["id"]


def test_only_the_invitee_answers_and_only_they_and_the_inviter_read_it(client: Any) -> None:
    ann, bruno, eve = client.player("Ann"), client.player("Bruno"), client.player("Eve")
    client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno"])
    [invitation] = _received(client, bruno["token"])
    path = f"/api/v1/invitations/{invitation['invitation_id']}"
    for method, tail, body in (("GET", "", None), ("POST", "/accept", None), ("POST", "/decline", {})):
        r = client.call(method, path + tail, body, eve["token"])
        assert r.status == 404 and r.body["error"]["code"] == "invitation_not_found", (tail, r.body)
    assert client.call("GET", path, token=ann["token"]).status == 200
    assert _received(client, bruno["token"])[0]["status"] == "pending"  # nothing eve did changed it


def test_a_client_that_connects_after_the_invitation_hears_of_it_and_again_on_each_connect(client: Any) -> None:
    """A bot that was offline when invited: its account stream opens with the pending invitation."""
    ann, bot = client.player("Ann"), client.player("Rusty", kind="bot")
    game = client.new_game(ann["token"], game="tarasque", players=2, invite=["Rusty"])
    for _ in range(2):
        opening = client.stream_lines("/api/v1/stream/events", bot["token"])
        pending = [line for line in opening if line["type"] == "invitation"]
        assert [(p["game_id"], p["inviter"]["name"], p["status"]) for p in pending] == [(game["id"], "Ann", "pending")]
    invitation = pending[0]["invitation_id"]
    client.call("POST", f"/api/v1/invitations/{invitation}/decline", {"reason": "no_bot"}, bot["token"])
    opening = client.stream_lines("/api/v1/stream/events", bot["token"])
    assert not [line for line in opening if line["type"] == "invitation"], "an answered invitation is not sent again"


def test_a_seat_waits_for_its_invitee_until_they_answer(client: Any) -> None:
    """The lobby's promise: "their seats wait for them". A stranger finds the last seat kept while
    the invitee has not answered, and takes it once they decline."""
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    game = client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno"])
    client.seat(game["id"], ann["token"])
    r = client.call("POST", f"/api/v1/games/{game['id']}/seats", {}, cid["token"])
    assert r.status == 409 and r.body["error"]["code"] == "seat_unavailable", r.body
    assert "kept for the players invited" in r.body["error"]["message"]
    assert [s["name"] for s in client.call("GET", f"/api/v1/games/{game['id']}", token=ann["token"]).body["seats"]] == [
        "Ann"
    ]
    [invitation] = _received(client, bruno["token"])
    path = f"/api/v1/invitations/{invitation['invitation_id']}/decline"
    assert client.call("POST", path, {"reason": "later"}, bruno["token"]).status == 200
    r = client.call("POST", f"/api/v1/games/{game['id']}/seats", {}, cid["token"])
    assert r.status == 201 and r.body["status"] == "active", r.body


def test_an_invitation_whose_table_filled_reads_closed_and_cannot_be_accepted(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    game = client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno"])
    client.seat(game["id"], ann["token"])
    r = client.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "greedy"}, ann["token"])
    assert r.status == 201  # the creator filled the invitee's seat with a server bot after all
    client.platform.wait_for_projections()
    [invitation] = _received(client, bruno["token"])
    assert invitation["status"] == "closed"
    r = client.call("POST", f"/api/v1/invitations/{invitation['invitation_id']}/accept", None, bruno["token"])
    assert r.status == 409 and "no seat" in r.body["error"]["message"]


def test_play_now_seats_the_second_player_at_the_first_ones_table(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    first = client.call("POST", "/api/v1/play-now", {"game": "tarasque"}, ann["token"])
    assert first.status == 200 and first.body["status"] == "open" and first.body["your_seats"] == [0]
    client.platform.wait_for_projections()
    second = client.call("POST", "/api/v1/play-now", {"game": "tarasque"}, bruno["token"])
    assert second.body["id"] == first.body["id"] and second.body["status"] == "active"


def test_play_now_passes_over_private_tables(client: Any) -> None:
    ann, cid = client.player("Ann"), client.player("Cid")
    client.player("Bruno")
    private = client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno"])
    client.seat(private["id"], ann["token"])
    client.platform.wait_for_projections()
    r = client.call("POST", "/api/v1/play-now", {"game": "tarasque"}, cid["token"])
    assert r.status == 200 and r.body["id"] != private["id"]


def test_of_two_invited_for_one_seat_the_first_to_answer_takes_it(client: Any) -> None:
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    game = client.new_game(ann["token"], game="tarasque", players=2, invite=["Bruno", "Cid"])
    client.seat(game["id"], ann["token"])
    [invitation] = _received(client, bruno["token"])
    r = client.call("POST", f"/api/v1/invitations/{invitation['invitation_id']}/accept", None, bruno["token"])
    assert r.status == 200 and [s["name"] for s in r.body["seats"]] == ["Ann", "Bruno"], r.body
    client.platform.wait_for_projections()
    assert _received(client, cid["token"])[0]["status"] == "closed"


def test_the_creator_closes_a_table_not_started_and_its_invitations_read_closed(client: Any) -> None:
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    game = client.new_game(ann["token"], game="tarasque", players=3, invite=["Bruno"])
    client.seat(game["id"], ann["token"])
    path = f"/api/v1/games/{game['id']}/close"
    refused = client.call("POST", path, None, cid["token"])
    assert refused.status == 403 and refused.body["error"]["code"] == "not_creator"
    closed = client.call("POST", path, None, ann["token"])
    assert closed.status == 200 and closed.body["status"] == "abandoned", closed.body
    assert closed.body["outcome"]["reason"] == "its creator closed the table"
    client.platform.wait_for_projections()
    [invitation] = _received(client, bruno["token"])
    assert invitation["status"] == "closed"
    again = client.call("POST", path, None, ann["token"])
    assert again.status == 409 and again.body["error"]["code"] == "not_accepting_moves"
    r = client.call("POST", f"/api/v1/games/{game['id']}/seats", {}, cid["token"])
    assert r.status == 409
