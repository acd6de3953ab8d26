"""The 72 cards, as listed in seven-dragons-deck.md."""

from __future__ import annotations

from collections import Counter

from domain.seven_dragons.cards import (
    ACTION_COLOUR,
    ACTIONS,
    CARDS,
    COLOURS,
    DRAGONS,
    RAINBOW,
    SILVER,
    WILD,
    Action,
    Colour,
    Kind,
    oriented,
    turned,
)

from .helpers import dragon


def _regions(panels: tuple[int, int, int, int]) -> Counter[int]:
    """How many separate regions each colour forms on one card (edge-adjacent panels join)."""
    adjacent = {(0, 1), (0, 2), (1, 3), (2, 3)}
    parent = list(range(4))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in adjacent:
        if panels[a] == panels[b]:
            parent[root(a)] = root(b)
    return Counter(panels[r] for r in {root(i) for i in range(4)})


def test_the_game_has_72_cards_51_dragons_15_actions_5_goals_and_the_silver_dragon() -> None:
    """Deck list: 72 cards = 51 Dragon, 15 Action, 5 Goal (the colours), 1 Silver Dragon."""
    assert len(DRAGONS) == 51
    assert len(ACTIONS) == 15
    assert len(COLOURS) == 5
    assert [c.id for c in CARDS if c.kind is Kind.SILVER] == [SILVER]
    assert len(CARDS) + len(COLOURS) == 72


def test_the_dragon_layouts_come_in_the_listed_numbers() -> None:
    """Deck list: 1 Rainbow, 10 whole, 10 top/bottom, 10 left/right, 5 + 5 three-dragon, 10 four-quarter cards."""
    shapes = Counter()
    for card in DRAGONS:
        tl, tr, bl, br = CARDS[card].name
        distinct = len({tl, tr, bl, br})
        if CARDS[card].name == "****":
            shapes["rainbow"] += 1
        elif distinct == 1:
            shapes["whole"] += 1
        elif distinct == 2 and tl == tr:
            shapes["top/bottom"] += 1
        elif distinct == 2:
            shapes["left/right"] += 1
        elif distinct == 3 and tl == tr:
            shapes["top half"] += 1
        elif distinct == 3:
            shapes["left half"] += 1
        else:
            shapes["quarters"] += 1
    assert shapes == {
        "rainbow": 1,
        "whole": 10,
        "top/bottom": 10,
        "left/right": 10,
        "top half": 5,
        "left half": 5,
        "quarters": 10,
    }


def test_each_whole_colour_card_comes_twice_and_every_other_dragon_once() -> None:
    """Deck list: RRRR, YYYY, BBBB, GGGG, KKKK two of each."""
    names = Counter(CARDS[c].name for c in DRAGONS)
    assert {n: k for n, k in names.items() if k > 1} == {"RRRR": 2, "YYYY": 2, "BBBB": 2, "GGGG": 2, "KKKK": 2}


def test_no_card_has_two_separate_regions_of_one_colour() -> None:
    """Deck list: a region of one colour is one dragon; no card has two separate regions of the same colour."""
    for card in DRAGONS:
        assert max(_regions(CARDS[card].panels).values()) == 1, CARDS[card].name


def test_three_copies_of_each_action_carry_its_colour() -> None:
    """Action list: Zap Red, Trade Goals Gold, Rotate Goals Blue, Move Green, Trade Hands Black, 3 of each."""
    counts = Counter(CARDS[c].action for c in ACTIONS)
    assert counts == {a: 3 for a in Action}
    assert ACTION_COLOUR == {
        Action.ZAP_A_CARD: Colour.RED,
        Action.TRADE_GOALS: Colour.GOLD,
        Action.ROTATE_GOALS: Colour.BLUE,
        Action.MOVE_A_CARD: Colour.GREEN,
        Action.TRADE_HANDS: Colour.BLACK,
    }
    assert all(CARDS[c].colour is ACTION_COLOUR[CARDS[c].action] for c in ACTIONS)  # type: ignore[index]


def test_a_180_degree_turn_maps_tl_tr_bl_br_to_br_bl_tr_tl() -> None:
    """Deck list: turned 180°, TL,TR,BL,BR becomes BR,BL,TR,TL."""
    assert turned((1, 2, 4, 8)) == (8, 4, 2, 1)
    rryy = dragon("RRYY")
    red, gold = CARDS[rryy].panels[0], CARDS[rryy].panels[3]
    assert oriented(rryy, 180) == (gold, gold, red, red)


def test_the_rainbow_is_every_colour_on_every_panel() -> None:
    """Rulebook: the Rainbow Dragon has all five colours at all times."""
    assert CARDS[RAINBOW].panels == (WILD,) * 4
