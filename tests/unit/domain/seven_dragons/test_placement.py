"""Placing dragons: connections, the grid, turning, wild dragons and bonus draws.

Coordinates: x grows to the right, y downwards; (0, 1) is below (0, 0).
"""

from __future__ import annotations

from domain.kernel import IllegalMove, Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons import events as ev
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import RAINBOW, Action
from domain.seven_dragons.commands import PlaceDragon

from .helpers import act, action, dragon, of_type, refused, table

RRYY = dragon("RRYY")


def _basic(
    hand: list[int], layout: list[tuple[int, ...]] | None = None, deck: tuple[int, ...] = (), **options: object
) -> object:
    """Basic dragons (no Silver): RRYY starts the layout at the origin unless told otherwise."""
    return table(variant="basic", seats=2, layout=layout or [(RRYY, 0, 0)], hands=[hand, []], deck=deck, **options)


def test_a_dragon_goes_next_to_a_panel_of_its_colour() -> None:
    """Rulebook (Connexions): at least one panel of the new card touches the same dragon on another card."""
    yykk = dragon("YYKK")
    events, after = act(_basic([yykk]), 0, PlaceDragon(yykk, 0, 1))
    assert of_type(events, ev.DragonPlaced) == [ev.DragonPlaced(0, yykk, 0, 1, 0)]
    assert [(p.card, p.x, p.y) for p in after.layout] == [(RRYY, 0, 0), (yykk, 0, 1)]
    assert after.hands[0] == ()


def test_other_touching_edges_may_mismatch() -> None:
    """README (Placement): one connected panel is enough; other edges may mismatch."""
    yykk, bbbb = dragon("YYKK"), dragon("BBBB")
    state = _basic([yykk], [(RRYY, 0, 0), (bbbb, 1, 1)])
    _, after = act(state, 0, PlaceDragon(yykk, 0, 1))
    assert len(after.layout) == 3


def test_with_strict_edges_every_touching_edge_must_match() -> None:
    """README: the option "every touching edge must match", off by default."""
    yykk, bbbb = dragon("YYKK"), dragon("BBBB")
    state = _basic([yykk], [(RRYY, 0, 0), (bbbb, 1, 1)], strict_edges=True)
    assert refused(state, 0, PlaceDragon(yykk, 0, 1)).rule == rb.STRICT_EDGES
    lone = _basic([yykk], strict_edges=True)
    act(lone, 0, PlaceDragon(yykk, 0, 1))


def test_a_card_touching_only_diagonally_is_illegal() -> None:
    """Rulebook, example 2: panels meeting at a corner are not connected."""
    rrrr = dragon("RRRR")
    error = refused(_basic([rrrr]), 0, PlaceDragon(rrrr, 1, 1))
    assert isinstance(error, IllegalMove) and error.rule == rb.DIAGONAL


def test_a_card_away_from_the_layout_is_illegal() -> None:
    """Rulebook (Connexions): a new card joins the cards already on the table."""
    rrrr = dragon("RRRR")
    assert refused(_basic([rrrr]), 0, PlaceDragon(rrrr, 3, 0)).rule == rb.CONNECTION


def test_a_card_goes_into_an_empty_cell_only() -> None:
    """Rulebook (Comment jouer): "ajoutez la carte à celles déjà présentes sur la table": one card per cell."""
    rrrr = dragon("RRRR")
    assert refused(_basic([rrrr]), 0, PlaceDragon(rrrr, 0, 0)).rule == rb.EMPTY_CELL


def test_a_card_turned_90_degrees_is_impossible() -> None:
    """Rulebook, example 3: cards are never placed at right angles; README: 180°, never 90°."""
    rrrr = dragon("RRRR")
    for angle in (90, 270, 45):
        assert refused(_basic([rrrr]), 0, PlaceDragon(rrrr, 1, 0, angle)).rule == rb.TURNED


def test_a_card_may_be_turned_180_degrees() -> None:
    """README: cards turn 180°. RRBB above RRYY connects only turned (its red half then at the bottom)."""
    rrbb = dragon("RRBB")
    state = _basic([rrbb])
    assert refused(state, 0, PlaceDragon(rrbb, 0, -1, 0)).rule == rb.CONNECTION
    _, after = act(state, 0, PlaceDragon(rrbb, 0, -1, 180))
    assert after.layout[-1].orientation == 180


def test_a_card_with_no_matching_panel_is_refused() -> None:
    """Rulebook (Connexions): the new card must connect a dragon of its colour."""
    kkkk = dragon("KKKK")
    assert refused(_basic([kkkk]), 0, PlaceDragon(kkkk, 1, 0)).rule == rb.CONNECTION


def test_only_dragons_are_placed_and_only_from_the_hand() -> None:
    """Rulebook (Comment jouer): choose a card of your hand; a dragon card joins the table."""
    rrrr, zap = dragon("RRRR"), action(Action.ZAP_A_CARD)
    state = table(hands=[[rrrr, zap], [], []])
    assert refused(state, 0, PlaceDragon(dragon("GGGG"), 1, 0)).rule == rb.PLAY
    assert refused(state, 0, PlaceDragon(zap, 1, 0)).rule == rb.ACTION_PLAYED


def test_the_rainbow_connects_to_every_colour() -> None:
    """Rulebook (Dragon Arc-en-ciel): it has all five colours and can go anywhere."""
    kkkk = dragon("KKKK")
    state = table(variant="single-action", silver=False, seats=2, layout=[(RAINBOW, 0, 0)], hands=[[kkkk], []])
    act(state, 0, PlaceDragon(kkkk, 1, 0))


def test_the_silver_dragon_is_wild_while_the_discard_pile_is_empty() -> None:
    """Rulebook (Dragon d'Argent): while the discard pile is empty it has every colour."""
    kkkk = dragon("KKKK")
    act(table(hands=[[kkkk], [], []]), 0, PlaceDragon(kkkk, 1, 0))


def test_the_silver_dragon_has_the_colour_of_the_top_discard() -> None:
    """Rulebook (Dragon d'Argent): it takes the colour of the action card on top of the discard pile."""
    kkkk, rrrr = dragon("KKKK"), dragon("RRRR")
    zap_on_top = (action(Action.TRADE_HANDS), action(Action.ZAP_A_CARD))
    state = table(hands=[[kkkk, rrrr], [], []], discard=zap_on_top)
    assert refused(state, 0, PlaceDragon(kkkk, 1, 0)).rule == rb.CONNECTION
    act(state, 0, PlaceDragon(rrrr, 1, 0))


# ------------------------------------------------------------------ bonus draws


def _bonus_table(deck: tuple[int, ...]) -> tuple[object, int]:
    """YKGB below RRYY connects gold above; KGKG on its left gives green, BKBK on its right blue."""
    ykgb = dragon("YKGB")
    layout = [(RRYY, 0, 0), (dragon("KGKG"), -1, 1), (dragon("BKBK"), 1, 1)]
    return _basic([ykgb], layout, deck=deck), ykgb


def test_connecting_three_colours_draws_two_bonus_cards() -> None:
    """Rulebook (Bonus): connect 3 colours, draw 2 bonus cards."""
    deck = (dragon("GGGG"), dragon("GGGG", 1), dragon("BBBB"))
    state, card = _bonus_table(deck)
    events, after = act(state, 0, PlaceDragon(card, 0, 1))
    assert of_type(events, ev.BonusDrawn) == [ev.BonusDrawn(0, deck[:2])]
    assert after.hands[0] == deck[:2]


def test_connecting_two_colours_draws_one_bonus_card() -> None:
    """Rulebook (Bonus): two connections of different colours draw one bonus card."""
    ykgb = dragon("YKGB")
    state = _basic([ykgb], [(RRYY, 0, 0), (dragon("KGKG"), -1, 1)], deck=(dragon("GGGG"), dragon("BBBB")))
    events, _ = act(state, 0, PlaceDragon(ykgb, 0, 1))
    assert [len(e.cards) for e in of_type(events, ev.BonusDrawn)] == [1]


def test_bonus_draws_stop_when_the_deck_runs_out() -> None:
    """Issue: bonus draws are taken as far as the deck allows."""
    state, card = _bonus_table((dragon("GGGG"),))
    events, _ = act(state, 0, PlaceDragon(card, 0, 1))
    assert [e.cards for e in of_type(events, ev.BonusDrawn)] == [(dragon("GGGG"),)]
    empty, card = _bonus_table(())
    assert not of_type(act(empty, 0, PlaceDragon(card, 0, 1))[0], ev.BonusDrawn)


def test_the_same_colour_on_two_sides_draws_no_bonus() -> None:
    """Rulebook (Bonus): connecting one dragon on several sides gives no bonus."""
    rrrr = dragon("RRRR")
    state = _basic([rrrr], [(RRYY, 0, 0), (dragon("RRRR", 1), 1, 1)], deck=(dragon("GGGG"),))
    events, _ = act(state, 0, PlaceDragon(rrrr, 1, 0))
    assert not of_type(events, ev.BonusDrawn)


def test_a_wild_silver_or_rainbow_gives_no_bonus_but_a_coloured_silver_does() -> None:
    """Rulebook (Bonus): no bonus for the Rainbow, nor for the Silver Dragon while it is multicoloured."""
    rrkg, ggrr = dragon("RRKG"), dragon("GGRR")
    deck = (dragon("GGGG"),)
    wild = table(layout=[(ggrr, 1, -1)], hands=[[rrkg], [], []], deck=deck)
    assert not of_type(act(wild, 0, PlaceDragon(rrkg, 1, 0))[0], ev.BonusDrawn)
    black = table(layout=[(ggrr, 1, -1)], hands=[[rrkg], [], []], deck=deck, discard=(action(Action.TRADE_HANDS),))
    assert of_type(act(black, 0, PlaceDragon(rrkg, 1, 0))[0], ev.BonusDrawn) == [ev.BonusDrawn(0, deck)]
    rainbow = table(layout=[(ggrr, 1, -1), (RAINBOW, 2, 0)], hands=[[rrkg], [], []], deck=deck)
    assert not of_type(act(rainbow, 0, PlaceDragon(rrkg, 1, 0))[0], ev.BonusDrawn)


def test_dragon_connections_draws_no_bonus() -> None:
    """Designed: in Dragon connections nobody holds a hand, so there is nothing to draw into."""
    card = dragon("YKGB")
    turned_up = table(
        variant="connections",
        seats=2,
        layout=[(RRYY, 0, 0), (dragon("KGKG"), -1, 1), (dragon("BKBK"), 1, 1)],
        hands=[[card], []],
        deck=(dragon("GGGG"),),
    )
    events, _ = act(turned_up, 0, PlaceDragon(card, 0, 1))
    assert not of_type(events, ev.BonusDrawn)


def _four_colour_table(card: int, deck: tuple[int, ...], **kwargs: object) -> object:
    """GRYB at (0, 0) shows red and blue on its right edge; KKGG at (2, 0) shows black and green on
    its left edge: a four-quarter card RKBG in (1, 0) touches a matching panel with each quarter."""
    layout = [(dragon("GRYB"), 0, 0), (dragon("KKGG"), 2, 0)]
    return table(seats=2, layout=layout, hands=[[card], []], deck=deck, **kwargs)


def test_connecting_four_colours_draws_three_bonus_cards() -> None:
    """Rulebook (Bonus): "et oui, vous pouvez piocher 3 cartes bonus si vous parvenez à établir 4 connexions"."""
    rkbg = dragon("RKBG")
    deck = (dragon("GGGG"), dragon("BBBB"), dragon("YYYY"), dragon("KKKK"))
    state = _four_colour_table(rkbg, deck, variant="basic")
    events, after = act(state, 0, PlaceDragon(rkbg, 1, 0))
    assert of_type(events, ev.BonusDrawn) == [ev.BonusDrawn(0, deck[:3])]
    assert after.hands[0] == deck[:3] and after.hands[1] == deck[3:]  # seat 1 then draws the fourth


def test_placing_the_rainbow_itself_draws_no_bonus() -> None:
    """Rulebook (Bonus): "on n'obtient pas de bonus pour les connexions avec le Dragon Arc-en-ciel", the
    Rainbow placed between four colours included."""
    deck = (dragon("GGGG"), dragon("BBBB"), dragon("YYYY"))
    state = _four_colour_table(RAINBOW, deck, variant="single-action", silver=False)
    events, after = act(state, 0, PlaceDragon(RAINBOW, 1, 0))
    assert of_type(events, ev.DragonPlaced) and not of_type(events, ev.BonusDrawn)
    assert after.hands[0] == ()


def test_bonus_cards_are_seen_by_the_drawer_only() -> None:
    """Issue (hidden information): draws are redacted for everyone but their owner; the count is public."""
    rkbg = dragon("RKBG")
    deck = (dragon("GGGG"), dragon("BBBB"), dragon("YYYY"))
    events, _ = act(_four_colour_table(rkbg, deck, variant="basic"), 0, PlaceDragon(rkbg, 1, 0))
    bonus = of_type(events, ev.BonusDrawn)[0]
    assert bonus.visible_data(Viewer.of(0))["cards"] == list(deck)
    assert bonus.visible_data(Viewer.of(1))["cards"] == {"hidden": 3}
    assert bonus.visible_data(Viewer.spectator())["cards"] == {"hidden": 3}


def test_the_table_holds_the_cards_within_twelve_cells_of_its_centre() -> None:
    """Designed (``place.table``): a card that would connect 13 cells out is refused, and never listed,
    so every placement the rules allow has an action in the learning environments."""
    rrrr = dragon("RRRR")
    state = _basic([rrrr], [(RRYY, 0, 0), (dragon("RRBB"), 12, 0), (dragon("GGRR"), 0, 12)])
    listed = [m for m in RULESET.legal_moves(state, 0) if isinstance(m, PlaceDragon)]
    assert PlaceDragon(rrrr, 11, 0, 0) in listed
    assert all(abs(m.x) <= 12 and abs(m.y) <= 12 for m in listed)
    for x, y in ((13, 0), (0, 13)):
        error = refused(state, 0, PlaceDragon(rrrr, x, y))
        assert isinstance(error, IllegalMove) and error.rule == rb.TABLE and "12 cells" in error.message
    act(state, 0, PlaceDragon(rrrr, 11, 0))
