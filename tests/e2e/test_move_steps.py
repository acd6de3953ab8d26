"""A programme chosen card by card through the API (``legal-moves?narrow=true&chosen=...``): the
seat's moves narrowed by the refs clicked so far, answered as the refs that may come next while
too many are left to list, then listed whole with their words and ways on the board."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from tests.e2e.test_listing_names import _programming_table


def _steps(client: Any, gid: str, token: str, *chosen: str, words: bool = True) -> Any:
    query = urlencode({"narrow": "true", "words": str(words).lower(), "chosen": " ".join(chosen)})
    answer = client.call("GET", f"/api/v1/games/{gid}/legal-moves?{query}", token=token)
    assert answer.status == 200, answer.body
    return answer.body


def test_a_programme_is_chosen_card_by_card_and_played(client: Any) -> None:
    gid, (ann, _, _) = _programming_table(client)
    whole = client.legal(gid, ann["token"])
    first = _steps(client, gid, ann["token"])
    assert first["total"] == whole["total"] == 23_520 and first["moves"] == []  # three seats: 10 cards
    assert first["listing"] == whole["listing"]  # the same listing, named alike: a page keeps it as others decide
    steps = first["next"]
    assert len(steps) == 10 and all(s["ref"].startswith("hand:0:") for s in steps)
    assert {s["question"] for s in steps} == {"First card"}
    assert "Jump" in {s["answer"] for s in steps}

    jump = next(s["ref"] for s in steps if s["answer"] == "Jump")
    second = _steps(client, gid, ann["token"], jump)
    assert second["total"] == 2_520 and jump not in {s["ref"] for s in second["next"]}
    assert {s["question"] for s in second["next"]} == {"Second card"}

    dragon = next(s["ref"] for s in second["next"] if "dragon" in s["answer"].lower())
    third = _steps(client, gid, ann["token"], jump, dragon)
    assert third["total"] == len(third["moves"]) == len(third["texts"]) == len(third["refs"]) == 210
    assert len(third["next"]) == 7  # the actions left: one dragon is chosen
    assert all(way[:2] == [jump, dragon] for ways in third["refs"] for way in ways)
    assert all(sum("dragon" in c for c in m["cards"]) == 1 for m in third["moves"])

    made = client.move(gid, ann["token"], third["moves"][7], expected_version=third["version"])
    assert made.status == 201, made.body
    assert _steps(client, gid, ann["token"], jump)["total"] == 0  # programmed: nothing left to choose


def test_refs_no_programme_begins_with_narrow_to_nothing(client: Any) -> None:
    gid, (ann, bea, _) = _programming_table(client)
    for chosen in (["hand:0:jump", "hand:0:jump"], ["hand:1:jump"], ["river"], ["hand:0:no-such-card"]):
        answer = _steps(client, gid, ann["token"], *chosen)
        assert answer["total"] == 0 and answer["moves"] == [] and answer["next"] == [], chosen
    assert _steps(client, gid, bea["token"])["next"][0]["ref"].startswith("hand:1:")


def test_a_spectator_has_nothing_to_narrow(client: Any) -> None:
    gid, _ = _programming_table(client)
    query = urlencode({"narrow": "true", "chosen": ""})
    answer = client.call("GET", f"/api/v1/games/{gid}/legal-moves?{query}", token=client.player()["token"])
    assert answer.status == 403 and answer.body["error"]["code"] == "not_a_player"


def test_a_line_of_refs_too_long_is_refused(client: Any) -> None:
    gid, (ann, _, _) = _programming_table(client)
    query = urlencode({"narrow": "true", "chosen": "hand:0:jump " * 200})
    answer = client.call("GET", f"/api/v1/games/{gid}/legal-moves?{query}", token=ann["token"])
    assert answer.status == 400 and "chosen" in answer.body["error"]["fields"]


def test_a_short_listing_narrows_as_its_refs_on_the_board_say(client: Any) -> None:
    """A listing of a page or less is narrowed through the refs the page reads with it: the moves
    kept are those one of whose ways begins with the refs chosen, and ``next`` the refs after."""
    ann, bea = client.player(), client.player()
    gid = client.new_game(ann["token"], game="seven-dragons", players=2)["id"]
    for p in (ann, bea):
        assert client.seat(gid, p["token"]).status == 201
    mover = next(p for p in (ann, bea) if client.legal(gid, p["token"])["total"])
    worded = client.call("GET", f"/api/v1/games/{gid}/legal-moves?words=true", token=mover["token"]).body
    first = _steps(client, gid, mover["token"])
    starts = list(dict.fromkeys(way[0] for ways in worded["refs"] for way in ways))
    assert first["moves"] == worded["moves"] and [s["ref"] for s in first["next"]] == starts
    card = starts[0]
    narrowed = _steps(client, gid, mover["token"], card)
    kept = [i for i, ways in enumerate(worded["refs"]) if any(w[0] == card for w in ways)]
    assert narrowed["moves"] == [worded["moves"][i] for i in kept] and narrowed["total"] == len(kept) > 0
    assert narrowed["refs"] == [worded["refs"][i] for i in kept]
    assert narrowed["poses"] == [worded["poses"][i] for i in kept]
    assert narrowed["texts"] == [worded["texts"][i] for i in kept]
