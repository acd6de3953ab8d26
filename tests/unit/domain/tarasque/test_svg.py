"""The Tarasque table as a picture (issue 22): middle, bases by side, lairs in rows, eggs, dice."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.kernel import Rng, Viewer
from domain.tarasque.commands import TakeTile
from domain.tarasque.state import Phase, TarasqueState
from tests.support.pictures import NS, accessible, description, last, last_words
from tests.unit.domain.tarasque.helpers import RULES, make, new_game


def _midgame(variant: str, seats: int, seed: int) -> tuple[TarasqueState, dict[str, Any]]:
    """A random game played until some seat's lair and some base hold tiles; with its last move."""
    chooser = random.Random(seed)
    state, _ = new_game(variant, seats, seed.to_bytes(8, "big"))
    for n in range(RULES.max_decisions):
        seat = RULES.awaiting(state)[0]
        move = chooser.choice(RULES.legal_moves(state, seat))
        state = RULES.fold(state, RULES.decide(state, seat, move, Rng(seed.to_bytes(8, "big"), f"v{n}")))
        board = state.board
        if any(board.lairs) and any(t for b in board.bases for t in b) and RULES.awaiting(state):
            return state, last(seat, RULES.commands.dump(move), version=n + 7)
    raise AssertionError("no mid-game position")


@pytest.mark.parametrize(
    ("variant", "seats", "seed"), [("dragon-dice", 3, 5), ("numbered", 2, 11), ("dragon-dice", 6, 2)]
)
def test_a_mid_game_table_shows_every_tile_where_it_lies(variant: str, seats: int, seed: int) -> None:
    """Rulebook (Déroulement): tiles in the middle, at a side of a base, or in a lair's rows."""
    state, move = _midgame(variant, seats, seed)
    view = RULES.view(state, Viewer.of(0))
    root = accessible(RULES.render_svg(view, move), seats)
    drawn = [g.get("data-tile") for g in root.iter(f"{NS}g") if g.get("class") == "tile"]
    board = state.board
    lying = [*board.middle, *(t for b in board.bases for side in b for t in side)]
    lying += [t for rows in board.lairs for row in rows for t in row]
    assert sorted(drawn) == sorted(lying)  # each once, and no tile of the pile
    words = description(root)
    for seat in range(seats):
        assert f"seat {seat + 1} (" in words and f"{view['scores'][seat]} point" in words
    assert f"pile {len(board.pile)} tiles" in words and f"Dice in hand {state.turn.dice}" in words
    assert last_words(root).startswith(f"Last move: seat {int(move['seat']) + 1} (")


def test_the_pile_shows_its_size_and_never_its_order() -> None:
    """The pile is face down: only ``Viewer.everyone()`` gets its order, and the picture draws none."""
    state, _ = _midgame("dragon-dice", 3, 5)
    spectator = RULES.render_svg(RULES.view(state, Viewer.spectator()))
    assert spectator == RULES.render_svg(RULES.view(state, Viewer.of(1)))  # nothing else is hidden
    drawn = {g.get("data-tile") for g in accessible(spectator, 3).iter(f"{NS}g")}
    assert not drawn & set(state.board.pile) and f"pile: {len(state.board.pile)} face down" in spectator


def test_a_base_shows_each_tile_at_its_side_and_the_dice_of_the_turn() -> None:
    """Rulebook (C): a tile goes to the side of the number of dice that won it; the egg die counts 2."""
    state = make(
        seats=2,
        middle=["blue-sea"],
        bases={1: ((), ("red-forest",), (), ("green-sea", "black-desert"))},
        lairs={0: [["yellow-meadow", "yellow-sea"]]},
        eggs=[2, 0],
        showing=("red", "blue"),
        dice=2,
        aside=(2, 0, 0, 0, 0, 0),
        egg="red",
    )
    view = RULES.view(state, Viewer.spectator())
    root = accessible(RULES.render_svg(view), 2)
    panel = next(g for g in root.iter(f"{NS}g") if g.get("class") == "seat" and g.get("data-seat") == "1"
                 and any(c.get("class") == "tile" for c in g.iter(f"{NS}g")))  # fmt: skip
    sides = {}
    for label in panel.iter(f"{NS}text"):
        if (label.text or "").startswith("side "):
            sides[label.text] = float(label.get("y", "0"))
    tiles = {g.get("data-tile"): float(next(g.iter(f"{NS}rect")).get("y", "0")) for g in panel.iter(f"{NS}g")
             if g.get("class") == "tile"}  # fmt: skip
    assert abs(tiles["red-forest"] + 20 - sides["side 3"]) < 1
    assert abs(tiles["green-sea"] + 20 - sides["side 5"]) < 1 and abs(tiles["black-desert"] - tiles["green-sea"]) < 1
    dice = [g for g in root.iter(f"{NS}g") if g.get("class") == "die"]
    kinds = sorted((next(g.iter(f"{NS}title")).text or "") for g in dice)
    assert kinds == ["in hand: blue", "in hand: red", "on the egg (counts 2): red", "set aside: red", "set aside: red"]
    assert f"Seat 1 (teal): {view['scores'][0]} points, 2 eggs" in "".join(root.itertext())


def test_the_tile_the_last_decision_took_is_outlined() -> None:
    state = make(seats=2, middle=[], bases={0: ((), ("red-forest",), (), ())})
    move = TakeTile("red-forest", 3)
    root = accessible(RULES.render_svg(RULES.view(state, Viewer.spectator()), last(0, RULES.commands.dump(move))), 2)
    outlined = [g.get("data-tile") for g in root.iter(f"{NS}g") if g.get("class") == "tile"
                and next(g.iter(f"{NS}rect")).get("stroke") == "#d4145a"]  # fmt: skip
    assert outlined == ["red-forest"]
    assert "take tile (tile red-forest, dice 3)" in last_words(root)


@pytest.mark.parametrize(("variant", "seed"), [("dragon-dice", 5), ("numbered", 11)])
def test_a_tile_or_die_too_small_for_its_word_shows_a_letter_the_key_under_the_table_explains(
    variant: str, seed: int
) -> None:
    """A person never reads a word cut short ("for" for forest, "yel" for yellow): a tile shows its
    whole mark or a letter, and every letter drawn is in the key; a turn not rolled says so."""
    state, move = _midgame(variant, 2, seed)
    root = accessible(RULES.render_svg(RULES.view(state, Viewer.of(0)), move), 2)
    shown = {
        "".join(t.itertext())
        for g in root.iter(f"{NS}g")
        if g.get("class") in ("tile", "die")
        for t in g.iter(f"{NS}text")
    }
    text = " ".join(root.itertext())
    for mark in shown:
        assert len(mark) <= 2, mark
        assert mark.isdigit() or f"{mark} " in text.split("Tiles: ")[-1], f"{mark} is not in the key"
    if variant == "numbered":
        assert "Tiles:" not in text and "Dice:" not in text  # numbers need no key
    else:
        assert "Tiles: De desert, Fo forest, Gl glacier, Me meadow, Se sea, Vo volcano." in text


def test_a_turn_not_yet_rolled_says_so() -> None:
    state, _ = new_game("dragon-dice", 2, b"unrolled")
    root = accessible(RULES.render_svg(RULES.view(state, Viewer.of(0))), 2)
    assert "Dice of the turn (not rolled yet)" in " ".join(root.itertext())


def test_the_heading_offers_setting_aside_only_when_a_die_in_hand_can_be() -> None:
    """After a set-aside the turn asks to set aside more, roll again or stop; when no die in hand
    shows a symbol that may still be set aside, it asks only to roll again or stop."""

    def heading(showing: tuple[str, ...]) -> str:
        state = make(seats=2, phase=Phase.CONTINUE, middle=("red-desert", "blue-sea"), showing=showing, dice=2,
                     rolls=1, chosen=("red",))  # fmt: skip
        return " ".join(accessible(RULES.render_svg(RULES.view(state, Viewer.of(0))), 2).itertext())

    assert "to set aside more, roll again or stop" in heading(("blue", "black"))
    said = heading(("red", "black"))  # red was set aside from this roll, black is on no tile
    assert "to roll again or stop" in said and "set aside more" not in said
