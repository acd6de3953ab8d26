"""A seat given up before the start (``POST /games/{id}/leave``, the game page's buttons): a player
leaves a table, or its creator takes off a server bot it seated; the seat is free again, the log
says who left, and whatever may not be done is refused with its reason, storing nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import services.streams.lines
from api.app import create_app
from services.reads.game_log import narrated_log
from tests.e2e.test_web_competition_pages import read_text
from tests.e2e.test_web_session import signed_up
from tests.support.page_text import machine_words

FORM = {"variant": "tarasque/dragon-dice", "players": "4", "sit": "1", "others": "people", "clock": "none"}


def _titles(client: Any, game_id: str, player_id: str | None) -> list[str]:
    return [step["title"] for step in narrated_log(client.platform.queries, game_id, player_id)["steps"]]


def test_a_player_leaves_an_open_table_and_another_takes_the_seat(client: Any) -> None:
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    table = client.new_game(ann["token"], game="tarasque", players=3)["id"]
    client.seat(table, ann["token"])
    client.seat(table, bruno["token"])
    left = client.call("POST", f"/api/v1/games/{table}/leave", {}, bruno["token"])
    assert left.status == 200 and left.body["status"] == "open", left.body
    assert [s["name"] for s in left.body["seats"]] == ["Ann"] and left.body["your_seats"] == []
    client.platform.wait_for_projections()
    listed = client.call("GET", f"/api/v1/games?player={bruno['id']}").body["games"]
    assert table not in [g["id"] for g in listed], "a table left is off the player's list"
    assert table in [g["id"] for g in client.call("GET", f"/api/v1/games?player={ann['id']}").body["games"]]
    events = client.call("GET", f"/api/v1/games/{table}/events", token=ann["token"]).body["events"]
    assert events[-1]["type"] == "SeatGivenUp" and events[-1]["data"]["player_id"] == bruno["id"]
    assert "Bruno left the table" in _titles(client, table, ann["id"])
    assert "You left the table" in _titles(client, table, bruno["id"])
    assert client.seat(table, cid["token"]).status == 201
    assert client.seat(table, bruno["token"]).status == 201, "the seat given up can be taken again"
    doc = client.game(table, ann["token"])
    assert doc["status"] == "active" and [s["name"] for s in doc["seats"]] == ["Ann", "Cid", "Bruno"]
    titles = _titles(client, table, cid["id"])
    assert titles.count("Bruno left the table") == 1, titles
    assert len([t for t in titles if t.startswith("Bruno") and t.endswith("took a seat")]) == 2, titles


def test_the_creator_takes_off_a_server_bot_but_nobody_else_does(client: Any) -> None:
    ann, bruno = client.player("Ann"), client.player("Bruno")
    table = client.new_game(ann["token"], game="tarasque", players=3)["id"]
    client.seat(table, ann["token"])
    client.seat(table, ann["token"], bot="greedy")
    bot_seat = next(s["seat"] for s in client.game(table)["seats"] if s["bot"])
    refused = client.call("POST", f"/api/v1/games/{table}/leave", {"seat": bot_seat}, bruno["token"])
    assert refused.status == 403 and refused.body["error"]["code"] == "not_a_player", refused.body
    off = client.call("POST", f"/api/v1/games/{table}/leave", {"seat": bot_seat}, ann["token"])
    assert off.status == 200 and [s["name"] for s in off.body["seats"]] == ["Ann"], off.body
    assert "Level 3 bot was taken off the table" in _titles(client, table, ann["id"])


def test_the_inbox_tells_who_left_a_table_not_started_and_the_invitation_they_had_accepted(client: Any) -> None:
    """The account stream's ``seat_given_up`` reads in the inbox of those still seated, while the
    table waits; an invitee who accepted and then left is no longer said to have accepted alone."""
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    table = client.new_game(ann["token"], game="tarasque", players=4, invite=["Bruno"])["id"]
    client.seat(table, ann["token"])
    client.seat(table, ann["token"], bot="greedy")
    assert client.seat(table, bruno["token"]).status == 201
    assert client.call("POST", f"/api/v1/games/{table}/leave", {}, bruno["token"]).status == 200
    bot_seat = next(s["seat"] for s in client.game(table)["seats"] if s["bot"])
    assert client.seat(table, cid["token"]).status == 201
    assert client.call("POST", f"/api/v1/games/{table}/leave", {"seat": bot_seat}, ann["token"]).status == 200
    client.platform.wait_for_projections()
    ann_reads = read_text(client.page("/inbox", ann["token"]).body)
    assert "Bruno left your table of Tarasque" in ann_reads and "the seat is open again" in ann_reads, ann_reads
    assert re.search(r"accepted\s*, then left the table", ann_reads), ann_reads
    assert "taken off" not in ann_reads, "whoever took the bot off is not told"
    cid_reads = read_text(client.page("/inbox", cid["token"]).body)
    assert "Level 3 bot was taken off your table of Tarasque" in cid_reads and "Bruno left" not in cid_reads
    assert not machine_words(ann_reads) and not machine_words(cid_reads)
    assert "Your tables" not in read_text(client.page("/inbox", bruno["token"]).body)
    client.seat(table, bruno["token"])
    client.seat(table, client.player("Dee")["token"])  # the fourth seat: the game starts
    client.platform.wait_for_projections()
    assert "Your tables" not in read_text(client.page("/inbox", ann["token"]).body), "started: no news any more"


@pytest.mark.parametrize("case", ["creator", "started", "stranger", "free", "tournament"])
def test_what_may_not_be_given_up_is_refused_and_stores_nothing(client: Any, case: str) -> None:
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    settings = {"tournament": "t-1"} if case == "tournament" else None
    players = 2 if case == "started" else 3
    table = str(client.platform.games.create_game(ann["id"], "tarasque", None, None, players, settings=settings).id)
    client.seat(table, ann["token"])
    client.seat(table, bruno["token"])
    who, body = {
        "creator": (ann, {}),
        "started": (bruno, {}),
        "stranger": (cid, {}),
        "free": (ann, {"seat": 2}),
        "tournament": (bruno, {}),
    }[case]
    before = client.game(table)["version"]
    r = client.call("POST", f"/api/v1/games/{table}/leave", body, who["token"])
    expected = {"creator": 409, "started": 409, "stranger": 403, "free": 409, "tournament": 409}[case]
    assert r.status == expected, r.body
    words = {"creator": "close it instead", "started": "before the game starts", "stranger": "no seat",
             "free": "free already", "tournament": "withdrawing"}[case]  # fmt: skip
    assert words in r.body["error"]["message"], r.body
    assert client.game(table)["version"] == before, "a refusal stores nothing"


def test_the_page_offers_leaving_to_a_seated_player_and_a_bot_off_to_the_creator(platform: Any) -> None:
    creator, guest = create_app(platform).test_client(), create_app(platform).test_client()
    ann_csrf, bruno_csrf = signed_up(creator, "ann"), signed_up(guest, "bruno")
    page = creator.post("/games", data={**FORM, "csrf": ann_csrf}).headers["Location"]
    assert creator.post(page + "/bots", data={"bot": "greedy", "csrf": ann_csrf}).status_code == 303
    own = read_text(creator.get(page).get_data(as_text=True))
    assert "Take Level 3 bot" in own and "off the table" in own and "Leave this table" not in own, own[-1500:]
    assert guest.post(page + "/join", data={"csrf": bruno_csrf}).status_code == 303
    text = read_text(guest.get(page).get_data(as_text=True))
    assert "Leave this table" in text and "off the table" not in text, text[-1500:]
    assert guest.post(page + "/leave", data={"csrf": bruno_csrf}).status_code == 303
    text = read_text(guest.get(page).get_data(as_text=True))
    assert "Leave this table" not in text and "Take a seat" in text, text[-1500:]
    assert not machine_words(text)
    bot_form = creator.get(page).get_data(as_text=True)
    seat = bot_form.split('name="seat" value="')[1].split('"')[0]
    assert creator.post(page + "/leave", data={"seat": seat, "csrf": ann_csrf}).status_code == 303
    after = read_text(creator.get(page).get_data(as_text=True))
    assert "off the table" not in after and "Level 3 bot" not in after.split("Seats")[1].split("Game log")[0]
    for bad in ("two", "64"):  # refused by the route's schema, as the API refuses it, storing nothing
        wrong = creator.post(page + "/leave", data={"seat": bad, "csrf": ann_csrf})
        said = read_text(wrong.get_data(as_text=True))
        assert wrong.status_code == 400 and "That seat is not one of this table's." in said, said[-800:]
        assert not machine_words(said) and "63" not in said
    refused = creator.post(page + "/leave", data={"csrf": ann_csrf})
    assert refused.status_code == 409 and "close it instead" in read_text(refused.get_data(as_text=True))


@pytest.fixture
def quick_keepalive() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services.streams.lines, "KEEPALIVE", 0.0)
        yield


def _told(client: Any, who: dict[str, Any]) -> list[dict[str, Any]]:
    client.platform.wait_for_projections()
    lines = client.stream_lines("/api/v1/stream/events?after=0", who["token"])
    return [line for line in lines if line.get("type") == "seat_given_up"]


@pytest.mark.usefixtures("quick_keepalive")
def test_those_still_seated_hear_who_left_and_whoever_did_it_does_not(client: Any) -> None:
    ann, bruno, cid = client.player("Ann"), client.player("Bruno"), client.player("Cid")
    table = client.new_game(ann["token"], game="tarasque", players=5)["id"]
    for who in (ann, bruno, cid):
        client.seat(table, who["token"])
    client.seat(table, ann["token"], bot="greedy")
    bot_seat = next(s["seat"] for s in client.game(table)["seats"] if s["bot"])
    assert client.call("POST", f"/api/v1/games/{table}/leave", {}, cid["token"]).status == 200
    [ann_heard] = _told(client, ann)
    assert (ann_heard["game_id"], ann_heard["given_up_seat"], ann_heard["name"]) == (table, 2, "Cid")
    assert ann_heard["seat"] == 0 and ann_heard["kind"] == "human" and ann_heard["bot"] is None
    assert len(_told(client, bruno)) == 1 and _told(client, cid) == [], "the one who left is not told"
    assert client.call("POST", f"/api/v1/games/{table}/leave", {"seat": bot_seat}, ann["token"]).status == 200
    bruno_heard = _told(client, bruno)
    assert [line["given_up_seat"] for line in bruno_heard] == [2, bot_seat], bruno_heard
    assert bruno_heard[-1]["kind"] == "bot" and bruno_heard[-1]["bot"] == "greedy"
    assert len(_told(client, ann)) == 1, "the creator who took the bot off is not told of it"


def test_a_table_started_early_after_someone_left_names_each_colour_at_the_start(client: Any) -> None:
    """The seats are numbered anew at the start: whoever sat past the gap may change colour, and the
    start says who plays which."""
    ann, bruno, cid, eve = (client.player(n) for n in ("Ann", "Bruno", "Cid", "Eve"))
    table = client.new_game(ann["token"], game="tarasque", players=5)["id"]
    for who in (ann, bruno, cid, eve):
        client.seat(table, who["token"])
    before = next(t for t in _titles(client, table, ann["id"]) if t.startswith("Eve"))
    assert client.call("POST", f"/api/v1/games/{table}/leave", {}, cid["token"]).status == 200
    assert client.call("POST", f"/api/v1/games/{table}/start", {}, ann["token"]).status == 200
    started = next(t for t in _titles(client, table, ann["id"]) if t.startswith("The game started"))
    eve_now = next(s for s in client.game(table, ann["token"])["seats"] if s["name"] == "Eve")["seat"]
    assert eve_now == 2 and "Eve (" in started and "you (" in started and "Cid" not in started, started
    assert before != f"Eve ({started.split('Eve (')[1].split(')')[0]}) took a seat", "Eve's colour changed"
