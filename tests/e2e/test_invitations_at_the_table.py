"""A table's page tells the truth about its invitations: the seats kept for invitees say for whom;
the invitee answers on the table's own page as in the inbox; the inviter reads who declined and why;
an invitee who takes a seat by hand has accepted, and their inviter hears it."""

from __future__ import annotations

from typing import Any

import pytest

from api.app import create_app
from tests.e2e.test_web_competition_pages import read_text
from tests.e2e.test_web_session import signed_up
from tests.support.page_text import machine_words

FORM = {"variant": "tarasque/dragon-dice", "players": "3", "sit": "1", "others": "people", "clock": "none"}


def _read(answer: Any) -> str:
    """The page's visible text, its spaces as a reader sees them."""
    return " ".join(read_text(answer.get_data(as_text=True)).split())


def _seats(text: str) -> str:
    return text.split("Seats", 1)[1].split("Game log", 1)[0]


def _table(platform: Any, invite: str) -> tuple[Any, str, str]:
    creator = create_app(platform).test_client()
    csrf = signed_up(creator, "ann")
    page = creator.post("/games", data={**FORM, "invite": invite, "csrf": csrf}).headers["Location"]
    return creator, csrf, page


def test_a_kept_seat_names_its_invitee_and_the_invitee_answers_on_the_table(platform: Any) -> None:
    guest, stranger = create_app(platform).test_client(), create_app(platform).test_client()
    bruno_csrf, cid_csrf = signed_up(guest, "bruno"), signed_up(stranger, "cid")
    creator, _, page = _table(platform, "Bruno")
    watched = _read(stranger.get(page))
    assert "kept for bruno, who is invited" in _seats(watched) and "open seat" in _seats(watched), watched
    assert "Accept and take your seat" not in watched and "Take a seat" in watched
    own = _read(guest.get(page))
    assert "ann invites you to this table" in own and "Accept and take your seat" in own, own[-1500:]
    assert "kept for you" in _seats(own) and "Take a seat" not in own and not machine_words(own)
    html = guest.get(page).get_data(as_text=True)
    decline = next(a.split('"')[0] for a in html.split('action="')[1:] if a.split('"')[0].endswith("/decline"))
    answered = guest.post(decline, data={"reason": "too_slow", "back": "table", "csrf": bruno_csrf})
    assert answered.status_code == 303 and answered.headers["Location"].endswith(page), answered.headers
    after = _read(guest.get(page))
    assert "invites you" not in after and "kept for" not in after and "Take a seat" in after
    assert "You declined ann's invitation to this table." in after
    told = _read(creator.get(page))
    assert "bruno declined your invitation: “This clock is too slow for me" in told, told[-1500:]
    assert "declined" not in _read(stranger.get(page)), "only the inviter reads why"
    assert stranger.post(page + "/join", data={"csrf": cid_csrf}).status_code == 303


def test_an_invitee_who_takes_a_seat_by_hand_has_accepted(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    table = client.new_game(ann["token"], game="tarasque", players=3, invite=["Bruno"])["id"]
    client.seat(table, ann["token"])
    assert client.seat(table, bruno["token"]).status == 201
    [sent] = client.call("GET", "/api/v1/me/invitations", token=ann["token"]).body["sent"]
    assert sent["status"] == "accepted", sent
    [received] = client.call("GET", "/api/v1/me/invitations", token=bruno["token"]).body["received"]
    assert received["status"] == "accepted"
    accept = client.call("POST", f"/api/v1/invitations/{received['invitation_id']}/accept", {}, bruno["token"])
    assert accept.status == 409 and accept.body["error"]["code"] == "invitation_closed", accept.body


def test_the_lobby_counts_the_seats_kept_for_invitees_apart_from_the_open_ones(platform: Any) -> None:
    guest = create_app(platform).test_client()
    bruno_csrf = signed_up(guest, "bruno")
    creator, _, page = _table(platform, "Bruno")
    platform.wait_for_projections()
    assert "(1 open, 1 kept for an invited player)" in _read(creator.get("/?status=open"))
    decline = next(
        a.split('"')[0] for a in guest.get(page).get_data(as_text=True).split('action="')[1:]
        if a.split('"')[0].endswith("/decline")
    )  # fmt: skip
    assert guest.post(decline, data={"reason": "later", "csrf": bruno_csrf}).status_code == 303
    platform.wait_for_projections()
    listed = _read(creator.get("/?status=open"))
    assert "(2 open)" in listed and "kept for" not in listed


def test_the_creator_invites_another_player_when_one_declines(client: Any) -> None:
    ann, bruno, cid, dee = (client.player(n) for n in ("Ann", "Bruno", "Cid", "Dee"))
    table = client.new_game(ann["token"], game="tarasque", players=3, invite=["Bruno"])["id"]
    client.seat(table, ann["token"])
    [mine] = client.call("GET", "/api/v1/me/invitations", token=bruno["token"]).body["received"]
    client.call("POST", f"/api/v1/invitations/{mine['invitation_id']}/decline", {"reason": "later"}, bruno["token"])
    sent = client.call("POST", f"/api/v1/games/{table}/invitations", {"invite": ["cid", "DEE"]}, ann["token"])
    assert sent.status == 201, sent.body
    assert [(i["invitee"]["name"], i["status"]) for i in sent.body["invitations"]] == [
        ("Cid", "pending"),
        ("Dee", "pending"),
    ]
    again = client.call("POST", f"/api/v1/games/{table}/invitations", {"invite": ["Cid"]}, ann["token"])
    assert (
        again.status == 201
        and len(client.call("GET", "/api/v1/me/invitations", token=cid["token"]).body["received"]) == 1
    )
    refused = client.seat(table, bruno["token"])
    assert refused.status == 409, "both free seats are kept for the new invitees"
    [for_dee] = client.call("GET", "/api/v1/me/invitations", token=dee["token"]).body["received"]
    accepted = client.call("POST", f"/api/v1/invitations/{for_dee['invitation_id']}/accept", {}, dee["token"])
    assert accepted.status == 200 and [s["name"] for s in accepted.body["seats"]] == ["Ann", "Dee"]


@pytest.mark.parametrize(
    ("who", "names", "status", "words"),
    [
        ("bruno", ["Cid"], 403, "creator"),
        ("ann", ["Cid", "bruno"], 409, "Bruno declined an invitation to this table already"),  # final
        ("ann", ["Ann"], 400, "yourself"),
        ("ann", ["Cid", "Nobody"], 400, "nobody is called"),
    ],
)
def test_an_invitation_the_table_cannot_take_is_refused_and_sends_nothing(
    client: Any, who: str, names: list[str], status: int, words: str
) -> None:
    people = {n.lower(): client.player(n) for n in ("Ann", "Bruno", "Cid", "Dee")}
    table = client.new_game(people["ann"]["token"], game="tarasque", players=3, invite=["Bruno"])["id"]
    client.seat(table, people["ann"]["token"])
    [mine] = client.call("GET", "/api/v1/me/invitations", token=people["bruno"]["token"]).body["received"]
    client.call("POST", f"/api/v1/invitations/{mine['invitation_id']}/decline", {}, people["bruno"]["token"])
    client.seat(table, people["ann"]["token"], bot="greedy")
    r = client.call("POST", f"/api/v1/games/{table}/invitations", {"invite": names}, people[who]["token"])
    assert r.status == status and words in r.body["error"]["message"], r.body
    for name in ("cid", "dee"):
        assert client.call("GET", "/api/v1/me/invitations", token=people[name]["token"]).body["received"] == []


def test_the_creator_invites_from_the_table_page(platform: Any) -> None:
    guest = create_app(platform).test_client()
    bruno_csrf = signed_up(guest, "bruno")
    creator = create_app(platform).test_client()
    csrf = signed_up(creator, "ann")
    page = creator.post("/games", data={**FORM, "csrf": csrf}).headers["Location"]
    assert "Invite people or bot accounts by name" in _read(creator.get(page))
    assert "Invite people" not in _read(guest.get(page)), "only the creator invites"
    empty = creator.post(page + "/invite", data={"invite": " , ", "csrf": csrf})
    assert empty.status_code == 400 and "Write the names of the players to invite" in _read(empty)
    nobody = creator.post(page + "/invite", data={"invite": "zed", "csrf": csrf})
    assert nobody.status_code == 400 and "Nobody is called" in _read(nobody) and not machine_words(_read(nobody))
    sent = creator.post(page + "/invite", data={"invite": "Bruno", "csrf": csrf})
    assert sent.status_code == 303 and sent.headers["Location"].endswith(page)
    assert "kept for bruno, who is invited" in _seats(_read(creator.get(page)))
    own = _read(guest.get(page))
    assert "ann invites you to this table" in own, own[-1200:]
    accept = next(
        a.split('"')[0] for a in guest.get(page).get_data(as_text=True).split('action="')[1:]
        if a.split('"')[0].endswith("/accept")
    )  # fmt: skip
    assert guest.post(accept, data={"csrf": bruno_csrf}).status_code == 303
    assert "bruno" in _seats(_read(creator.get(page))) and "kept for" not in _read(creator.get(page))


def test_more_invitees_than_free_seats_wait_for_whoever_accepts_first(platform: Any, client: Any) -> None:
    guest = create_app(platform).test_client()
    signed_up(guest, "cid")
    creator, csrf, page = _table(platform, "")
    signed_up(create_app(platform).test_client(), "dee")
    creator.post(page + "/bots", data={"bot": "greedy", "csrf": csrf})
    sent = creator.post(page + "/invite", data={"invite": "cid, dee", "csrf": csrf})
    assert sent.status_code == 303, _read(sent)[-600:]
    seats = _seats(_read(creator.get(page)))
    assert seats.count("kept for whichever of cid or dee accepts first") == 1, seats
    own = _read(guest.get(page))
    assert "kept for whichever of you or dee accepts first" in _seats(own)
    assert "its free seats go to the first of those invited to accept" in own and "kept for you" not in own
    start = creator.get(page).get_data(as_text=True)
    assert 'data-confirm="Start now? cid and dee have not answered yet and will not play."' in start
