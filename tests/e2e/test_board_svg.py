"""board.svg marks the last decision as the caller's event history shows it (issue 22)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from domain.kernel.picture import MARK
from domain.mekong import narration as mekong
from domain.seven_dragons import narration as seven_dragons

NS = "{http://www.w3.org/2000/svg}"
DECISIONS = ("MoveMade", "TurnTimedOut", "PolicyPlayed", "Resigned")


def _svg(client: Any, gid: str, query: str = "", token: str | None = None) -> str:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = client.http.get(f"/api/v1/games/{gid}/board.svg{query}", headers=headers)
    assert r.status_code == 200, r.get_data(as_text=True)
    return str(r.get_data(as_text=True))


def _last_words(root: ET.Element) -> str:
    marks = [g for g in root.iter(f"{NS}g") if g.get("class") == "last-decision"]
    return "".join(marks[0].itertext()) if marks else ""


def _last_decision(client: Any, gid: str, token: str | None) -> dict[str, Any]:
    events = client.call("GET", f"/api/v1/games/{gid}/events?after=0", token=token).body["events"]
    return [e for e in events if e["type"] in DECISIONS][-1]


def _table(client: Any, game: str) -> tuple[str, dict[int, dict[str, Any]]]:
    a, b = client.player("a"), client.player("b")
    gid = client.new_game(a["token"], game=game, players=2)["id"]
    client.seat(gid, a["token"])
    client.seat(gid, b["token"])
    return gid, {0: a, 1: b}


def test_the_board_names_and_outlines_the_last_card_placed(client: Any) -> None:
    gid, players = _table(client, "seven-dragons")
    start = client.game(gid)["version"]
    placed = 0
    while placed < 2:  # a hand of the random deal may hold no dragon to place: its seat plays another card
        seat = client.game(gid)["awaiting"][0]
        token = players[seat]["token"]
        moves = client.call("GET", f"/api/v1/games/{gid}/legal-moves?limit=1000", token=token).body["moves"]
        place = next((m for m in moves if m["type"] == "place_dragon"), None)
        assert client.move(gid, token, place or moves[0]).status == 201
        placed += place is not None
    last = _last_decision(client, gid, None)
    root = ET.fromstring(_svg(client, gid))
    words = _last_words(root)
    assert words.startswith(f"Last move: {'ab'[last['data']['seat']]} chose to place ")
    assert seven_dragons.card(place["card"]) in words
    card = next(g for g in root.iter(f"{NS}g") if g.get("data-card") == str(place["card"]))
    assert any(r.get("stroke") == MARK for r in card.iter(f"{NS}rect"))
    assert _last_words(ET.fromstring(_svg(client, gid, f"?at={start}"))) == ""  # no decision yet then


def test_a_secret_move_is_marked_without_its_secret_for_the_others(client: Any) -> None:
    """Mekong: a programme is face down; its owner's board names it, the others' say only that it was made."""
    gid, players = _table(client, "mekong")
    programme = client.legal(gid, players[0]["token"])["moves"][0]
    assert client.move(gid, players[0]["token"], programme).status == 201
    secret = mekong.programme(programme["cards"])
    own = _last_words(ET.fromstring(_svg(client, gid, "", players[0]["token"])))
    assert own == f"Last move: You chose to programme {secret}."
    for token in (players[1]["token"], None):
        text = _svg(client, gid, "", token)
        assert _last_words(ET.fromstring(text)) == "Last move: a chose to programme five cards face down."
        assert secret not in text
