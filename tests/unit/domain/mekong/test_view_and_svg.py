"""What a view shows, and the SVG drawing of the board made from it."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from domain.kernel import Viewer
from domain.kernel.picture import MARK
from domain.mekong import RULESET
from domain.mekong.commands import Program
from domain.mekong.narration import card
from domain.mekong.svg import FILL
from tests.support.pictures import accessible, description, last, last_words

from .support import C, board, dropped, play, table

SVG = "{http://www.w3.org/2000/svg}"


def _drawn(view: dict[str, Any]) -> ET.Element:
    text = RULESET.render_svg(view)
    assert text is not None and text.startswith('<?xml version="1.0"')
    root = ET.fromstring(text.encode())
    assert root.tag == f"{SVG}svg"
    return root


def _titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def test_the_view_is_json_and_shows_the_board_the_reserves_and_the_pawns() -> None:
    """The view carries everything on the table: the board, stones, planks, reserves, pawns."""
    state = board(
        table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),), pawns={"white": "white-2"}
    )
    view = RULESET.view(state, Viewer.of(0))
    json.dumps(view)
    assert len(view["board"]["villages"]) == 6 and len(view["board"]["islands"]) == 27
    assert [s["name"] for s in view["stones"]] == ["i11", "i12"]
    assert view["planks"] == [{"plank": "white-2", "colour": "white", "size": 2, "ends": ["i11", "i12"]}]
    assert view["seats"][1]["pawn"] == "white-2" and view["seats"][0]["reserve"][0] == "black-1"


def test_the_svg_draws_water_villages_islands_stones_planks_and_pawns() -> None:
    """Issue: render_svg(view) draws islands, stones, planks in their colours and pawns (a standalone SVG)."""
    state = board(
        table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),), pawns={"white": "white-2"}
    )
    root = _drawn(RULESET.view(state, Viewer.spectator()))
    titles = _titles(root)
    assert sum(t.startswith("the ") and t.endswith(" village") for t in titles) == 6
    assert sum(t.startswith("island ") for t in titles) == 27
    assert {
        "the stone on island 11",
        "the stone on island 12",
        "white 2 plank",
        "black pawn on the black village",
        "white pawn on the white 2 plank",
    } <= set(titles)
    assert any(line.get("stroke") == "#f4f4f4" for line in root.iter(f"{SVG}line"))


def test_the_challenge_board_is_drawn_without_islands() -> None:
    """Challenge: the board without rocks; stones where they were dropped."""
    state = dropped(table("challenge", 2), (0.0, -60.0))
    titles = _titles(_drawn(RULESET.view(state, Viewer.spectator())))
    assert not any(t.startswith("island ") for t in titles) and "stone 1" in titles


def _after(root: ET.Element, first: ET.Element, then: ET.Element) -> bool:
    order = list(root.iter())
    return order.index(first) < order.index(then)


def test_an_islands_number_stays_readable_over_its_stone_and_the_planks_it_bears() -> None:
    """The log, the steps and the move controls name islands by number ("place a stone on island 11",
    "lay the white 2 plank from island 11 to island 12"): the audit found the stone drawn over the
    number. The number is drawn after the stones and the planks, at the island, with a white halo."""
    state = board(table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),))
    root = _drawn(RULESET.view(state, Viewer.spectator()))
    stone = next(c for c in root.iter(f"{SVG}circle") if c.get("data-ref") == "spot:i11")
    plank = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "plank")
    numbers = {t.text: t for t in root.iter(f"{SVG}text") if t.text in ("11", "12", "5")}
    assert set(numbers) == {"11", "12", "5"}
    for label in numbers.values():
        assert _after(root, stone, label) and _after(root, plank, label)
        assert label.get("stroke") == "#ffffff" and label.get("paint-order") == "stroke"
    x, y = float(stone.get("cx", "0")), float(stone.get("cy", "0"))
    label = numbers["11"]
    assert math.dist((x, y), (float(label.get("x", "0")), float(label.get("y", "0")))) < 2.0


def test_a_dropped_stone_shows_its_number_as_the_words_name_it() -> None:
    """Challenge: the words name a stone in the water by its number ("stone 1"), so the board shows it."""
    state = dropped(table("challenge", 2), (0.0, -60.0))
    root = _drawn(RULESET.view(state, Viewer.spectator()))
    stone = next(c for c in root.iter(f"{SVG}circle") if c.get("data-ref") == "spot:s1")
    at = float(stone.get("cx", "0")), float(stone.get("cy", "0"))
    labels = [t for t in root.iter(f"{SVG}text") if math.dist(at, (float(t.get("x", "0")), float(t.get("y", "0")))) < 2]
    assert [t.text for t in labels] == ["1"] and _after(root, stone, labels[0])


@pytest.mark.parametrize("viewer", [Viewer.spectator(), Viewer.of(1)])
def test_a_view_never_shows_another_seats_face_down_cards(viewer: Viewer) -> None:
    """Issue: programmed cards are secret until revealed: two different programmes look the same to others."""
    one, _ = play(table("classic", 2), 0, Program((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.PLACE_STONE)))
    other, _ = play(table("classic", 2), 0, Program((C.PLACE_PLANK, C.WHITE_DRAGON, C.MOVE_1, C.REMOVE, C.JUMP)))
    assert RULESET.view(one, viewer) == RULESET.view(other, viewer)
    assert RULESET.view(one, viewer)["seats"][0]["programme"] == [None] * 5
    assert RULESET.view(one, Viewer.of(0)) != RULESET.view(other, Viewer.of(0))


def test_a_seat_sees_its_own_programme_drawn_and_the_others_see_none_of_it() -> None:
    """Issue 22: the viewer's own hidden things appear on its board, never on another's."""
    programme = (C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.PLACE_STONE)
    state, _ = play(table("classic", 2), 0, Program(programme))
    secret = ", ".join(card(c.value) for c in programme)
    own = RULESET.render_svg(RULESET.view(state, Viewer.of(0)))
    assert f"Programme of seat 1 (black): {secret}" in "".join(accessible(own, 2).itertext())
    assert secret in description(accessible(own, 2))
    for viewer in (Viewer.spectator(), Viewer.of(1)):
        text = RULESET.render_svg(RULESET.view(state, viewer))
        accessible(text, 2)
        # the cards themselves are public (a seat's hand, drawn to be clicked while it programmes):
        # what stays secret is which of them were programmed, in what order
        assert "Programme of seat 1" not in text and secret not in text


def test_a_pawn_in_its_own_village_and_a_plank_under_a_pawn_stay_readable() -> None:
    """Issue 22: a pawn keeps a white ring and its initial on a village of its colour; a pawn on
    a plank stands off the plank's middle, where the size badge is."""
    state = board(
        table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),), pawns={"white": "white-2"}
    )
    root = accessible(RULESET.render_svg(RULESET.view(state, Viewer.spectator())), 2)
    pawns = {(next(g.iter(f"{SVG}title")).text or ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "pawn"}
    black = pawns["black pawn on the black village"]
    rings = [c.get("fill") for c in black.iter(f"{SVG}circle")]
    assert rings == ["#ffffff", FILL["black"]] and "".join(black.itertext()).endswith("B")
    plank = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "plank")
    badge = next(plank.iter(f"{SVG}circle"))
    pawn = next(pawns["white pawn on the white 2 plank"].iter(f"{SVG}circle"))
    gap = math.dist(*((float(c.get("cx", "0")), float(c.get("cy", "0"))) for c in (badge, pawn)))
    assert gap >= float(badge.get("r", "0")) + float(pawn.get("r", "0"))  # apart: the size stays in sight
    assert "".join(plank.itertext()).endswith("2")


def test_the_plank_of_the_last_decision_is_outlined() -> None:
    state = board(table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),))
    move = {"type": "place_plank", "plank": "white-2", "ends": ["i11", "i12"]}
    root = accessible(RULESET.render_svg(RULESET.view(state, Viewer.spectator()), last(1, move)), 2)
    plank = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "plank")
    assert next(plank.iter(f"{SVG}line")).get("stroke") == MARK
    assert "seat 2 (white) played place plank (plank white-2, ends [i11 i12])" in last_words(root)


def test_the_planks_a_pawn_walked_are_outlined() -> None:
    state = board(
        table("classic", 2), stones=("i11", "i12"), planks=(("white-2", "i11", "i12"),), pawns={"white": "white-2"}
    )
    root = accessible(
        RULESET.render_svg(RULESET.view(state, Viewer.spectator()), last(1, {"type": "move", "path": ["white-2"]})), 2
    )
    plank = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "plank")
    assert next(plank.iter(f"{SVG}line")).get("stroke") == MARK
