"""What a view shows, and the SVG drawing of the board made from it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from domain.kernel import Viewer
from domain.mekong import RULESET
from domain.mekong.commands import Program

from .support import C, board, dropped, play, table

SVG = "{http://www.w3.org/2000/svg}"


def _drawn(view: dict) -> ET.Element:  # type: ignore[type-arg]
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
    assert sum(t.startswith("village ") for t in titles) == 6
    assert sum(t.startswith("island ") for t in titles) == 27
    assert {"stone i11", "stone i12", "plank white-2, size 2", "black pawn at black", "white pawn at white-2"} <= set(
        titles
    )
    assert any(line.get("stroke") == "#f4f4f4" for line in root.iter(f"{SVG}line"))


def test_the_challenge_board_is_drawn_without_islands() -> None:
    """Challenge: the board without rocks; stones where they were dropped."""
    state = dropped(table("challenge", 2), (0.0, -60.0))
    titles = _titles(_drawn(RULESET.view(state, Viewer.spectator())))
    assert not any(t.startswith("island ") for t in titles) and "stone s1" in titles


@pytest.mark.parametrize("viewer", [Viewer.spectator(), Viewer.of(1)])
def test_a_view_never_shows_another_seats_face_down_cards(viewer: Viewer) -> None:
    """Issue: programmed cards are secret until revealed: two different programmes look the same to others."""
    one, _ = play(table("classic", 2), 0, Program((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.PLACE_STONE)))
    other, _ = play(table("classic", 2), 0, Program((C.PLACE_PLANK, C.WHITE_DRAGON, C.MOVE_1, C.REMOVE, C.JUMP)))
    assert RULESET.view(one, viewer) == RULESET.view(other, viewer)
    assert RULESET.view(one, viewer)["seats"][0]["programme"] == [None] * 5
    assert RULESET.view(one, Viewer.of(0)) != RULESET.view(other, Viewer.of(0))
