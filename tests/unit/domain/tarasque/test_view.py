"""What a view shows: everything but the order of the pile (issue: Events)."""

from __future__ import annotations

import json

from domain.kernel import Codec, Viewer
from domain.tarasque.commands import SetAside, StoreTile
from domain.tarasque.events import PileShuffled
from domain.tarasque.state import Phase
from tests.unit.domain.tarasque.helpers import RULES, aside, base, make, new_game


def test_a_view_shows_the_middle_bases_lairs_eggs_and_dice() -> None:
    """The view: middle, every base by side, every lair by row, eggs, dice in hand and set aside,
    the roll count and the egg used this turn."""
    state = make(
        seats=3,
        phase=Phase.CONTINUE,
        middle=("red-desert",),
        showing=("black", "black"),
        dice=2,
        rolls=3,
        chosen=("red",),
        aside=aside(red=3, blue=1),
        egg="red",
        eggs=(0, 2, 1),
        bases={1: base(s4=["blue-sea"])},
        lairs={2: [["green-sea", "black-sea"]]},
    )
    view = RULES.view(state, Viewer.of(1))
    json.dumps(view)
    assert view["middle"] == ["red-desert"]
    assert view["bases"][1] == {"2": [], "3": [], "4": ["blue-sea"], "5": []}
    assert view["lairs"][2] == [["green-sea", "black-sea"]]
    assert view["eggs"] == [0, 2, 1] and view["supply"] == 33
    assert view["turn"] == {
        "seat": 0,
        "rolls": 3,
        "in_hand": 2,
        "showing": ["black", "black"],
        "may_set_aside": False,  # black is on no middle tile and no other base
        "set_aside": {"red": 3, "blue": 1},
        "spent": {},
        "egg": "red",
        "pending": None,
        "extra_turn": False,
    }
    assert view["active"] == 0 and view["phase"] == "continue"
    assert view["scores"] == [0, 2, 5]
    assert view["tiles"]["red-desert"] == {"colour": "red", "landscape": "desert", "symbol": "red"}


def test_the_pile_shows_only_its_size_until_the_game_is_over() -> None:
    """ "formez-en une pile cachée": every seat and spectator sees the pile's size, not its order."""
    state, events = new_game("numbered", 3)
    for viewer in (Viewer.of(0), Viewer.spectator()):
        view = RULES.view(state, viewer)
        assert view["pile"] == 33 and "pile_order" not in view
    assert RULES.view(state, Viewer.everyone())["pile_order"] == list(state.board.pile)
    shuffled = events[0]
    assert isinstance(shuffled, PileShuffled)
    assert shuffled.visible_data(Viewer.of(0))["order"] == {"hidden": 36}
    assert shuffled.visible_data(Viewer.everyone())["order"] == list(shuffled.order)


def test_every_other_event_is_public() -> None:
    """Nothing else is hidden: every event but the shuffle declares no secret."""
    secret = [cls.TYPE for cls in RULES.events.by_type.values() if cls.SECRET]
    assert secret == ["PileShuffled"]
    assert all(not cls.SECRET for cls in RULES.commands.by_type.values())


def test_moves_have_a_flat_wire_form() -> None:
    """Platform: a move's wire form is flat, with the command name in snake case."""
    assert Codec.dump(SetAside("red", 2, True)) == {"type": "set_aside", "symbol": "red", "count": 2, "egg": True}
    assert RULES.parse_move({"type": "store_tile", "tile": "red-sea", "row": None}) == StoreTile("red-sea", None)
