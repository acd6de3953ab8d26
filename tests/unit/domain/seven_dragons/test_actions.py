"""The five actions and the three ways to discard an action card."""

from __future__ import annotations

from domain.kernel import Viewer
from domain.seven_dragons import events as ev
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import SILVER, Action
from domain.seven_dragons.commands import (
    Direction,
    Discard,
    DiscardAction,
    MoveCard,
    PlaceDragon,
    RotateGoals,
    TradeGoals,
    TradeHands,
    ZapCard,
)
from domain.seven_dragons.view import silver_colour

from .helpers import B, G, K, R, Y, act, action, dragon, of_type, refused, table

ZAP, TRADE_GOALS, ROTATE, MOVE, TRADE_HANDS = (action(a) for a in Action)
RRRR, GGGG, KKKK, BBBB = dragon("RRRR"), dragon("GGGG"), dragon("KKKK"), dragon("BBBB")


# ------------------------------------------------------------------ Trade Hands


def test_trade_hands_swaps_the_whole_hand_including_the_card_just_drawn() -> None:
    """Rulebook FAQ: you draw before you play, which matters for Trade Hands."""
    drawn = dragon("YYYY")
    state = table(turn=2, hands=[[TRADE_HANDS, GGGG], [BBBB], [RRRR]], deck=(drawn, KKKK))
    _, state = act(state, 2, PlaceDragon(RRRR, 1, 0))
    assert state.turn == 0 and state.hands[0] == (TRADE_HANDS, GGGG, drawn)
    events, after = act(state, 0, TradeHands(TRADE_HANDS, 1))
    assert after.hands[0] == (BBBB,) and after.hands[1][:2] == (GGGG, drawn)  # seat 1 then draws KKKK
    assert of_type(events, ev.HandsTraded) == [ev.HandsTraded(0, 1, (BBBB,), (GGGG, drawn))]


def test_a_hand_trade_is_seen_by_the_two_traders_only() -> None:
    """Issue (hidden information): trades are visible to the two seats concerned only."""
    state = table(hands=[[TRADE_HANDS, GGGG], [BBBB], [RRRR]])
    traded = of_type(act(state, 0, TradeHands(TRADE_HANDS, 1))[0], ev.HandsTraded)[0]
    assert traded.visible_data(Viewer.of(1))["received"] == [BBBB]
    assert traded.visible_data(Viewer.of(0))["given"] == [GGGG]
    assert traded.visible_data(Viewer.of(2))["received"] == {"hidden": 1}
    assert traded.visible_data(Viewer.spectator())["given"] == {"hidden": 1}


def test_trade_hands_needs_another_player_in_the_game() -> None:
    """Rulebook (Trade hands): swap your hand with the player of your choice; the refusal cites it."""
    state = table(hands=[[TRADE_HANDS], [BBBB], [RRRR]])
    assert refused(state, 0, TradeHands(TRADE_HANDS, 0)).rule == rb.TRADE_HANDS
    assert refused(state, 0, TradeHands(TRADE_HANDS, 3)).rule == rb.TRADE_HANDS


def test_trade_goals_with_a_seat_needs_another_player_in_the_game() -> None:
    """Rulebook (Trade goals): exchange your goal with the player of your choice; the refusal cites it."""
    state = table(goals=[R, Y, B], hands=[[TRADE_GOALS], [], []])
    assert refused(state, 0, TradeGoals(TRADE_GOALS, seat=0)).rule == rb.TRADE_GOALS
    assert refused(state, 0, TradeGoals(TRADE_GOALS, seat=5)).rule == rb.TRADE_GOALS


# ------------------------------------------------------------------ Trade Goals and Rotate Goals


def test_trade_goals_swaps_goals_with_another_player_secretly() -> None:
    """Rulebook (Trade goals): exchange your goal with the player of your choice."""
    state = table(goals=[R, Y, B], hands=[[TRADE_GOALS], [], []])
    events, after = act(state, 0, TradeGoals(TRADE_GOALS, seat=2))
    assert (after.goal_of(0), after.goal_of(2), after.goal_of(1)) == (B, R, Y)
    traded = of_type(events, ev.GoalsTraded)[0]
    assert traded.visible_data(Viewer.of(2))["received"] == "blue"
    assert traded.visible_data(Viewer.of(1))["received"] == {"hidden": True}


def test_trade_goals_may_take_an_unused_goal() -> None:
    """Rulebook FAQ: under 5 players you may swap your goal with an unused one."""
    state = table(goals=[R, Y, B], hands=[[TRADE_GOALS], [], []])
    _, after = act(state, 0, TradeGoals(TRADE_GOALS, unused=1))
    assert after.goal_of(0) == K
    assert [slot.goal for slot in after.ring if slot.seat is None] == [G, R]
    traded = of_type(act(state, 0, TradeGoals(TRADE_GOALS, unused=1))[0], ev.GoalsTraded)[0]
    assert traded.owners() == frozenset({0})


def test_trade_goals_names_exactly_one_player_or_unused_goal() -> None:
    """Rulebook (Trade goals): one exchange, with a player or an unused goal."""
    state = table(goals=[R, Y, B], hands=[[TRADE_GOALS], [], []])
    assert refused(state, 0, TradeGoals(TRADE_GOALS)).rule == rb.TRADE_GOALS
    assert refused(state, 0, TradeGoals(TRADE_GOALS, seat=1, unused=0)).rule == rb.TRADE_GOALS
    assert refused(state, 0, TradeGoals(TRADE_GOALS, unused=2)).rule == rb.TRADE_GOALS
    assert (
        refused(table(seats=5, hands=[[TRADE_GOALS], [], [], [], []]), 0, TradeGoals(TRADE_GOALS, unused=0)).rule
        == rb.TRADE_GOALS
    )


def test_rotate_goals_passes_every_goal_one_place_with_unused_goals_as_imaginary_seats() -> None:
    """Rulebook (Rotate goals, Objectifs inutilisés): imaginary players take part in the rotation.

    The ring is seat 0, unused (green), seat 1, unused (black), seat 2; left is the next place in turn order.
    """
    state = table(goals=[R, Y, B], hands=[[ROTATE, ROTATE + 1], [], []])
    assert [s.goal for s in state.ring] == [R, G, Y, K, B]
    _, left = act(state, 0, RotateGoals(ROTATE, Direction.LEFT))
    assert [s.goal for s in left.ring] == [B, R, G, Y, K]
    assert (left.goal_of(0), left.goal_of(1), left.goal_of(2)) == (B, G, K)
    _, right = act(state, 0, RotateGoals(ROTATE, Direction.RIGHT))
    assert (right.goal_of(0), right.goal_of(1), right.goal_of(2)) == (G, K, R)


# ------------------------------------------------------------------ Move a Card


def test_move_a_card_puts_a_layout_card_in_a_new_legal_place() -> None:
    """Rulebook (Move a card): move a card on the table to a new place that respects the placement rules."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE], [], []])
    events, after = act(state, 0, MoveCard(MOVE, RRRR, 0, 1))
    assert of_type(events, ev.CardMoved) == [ev.CardMoved(0, RRRR, 0, 1, 0)]
    assert {(p.card, p.x, p.y) for p in after.layout} == {(SILVER, 0, 0), (RRRR, 0, 1)}


def test_move_a_card_may_turn_a_card_in_place() -> None:
    """Rulebook FAQ: Move a Card may leave the card where it is, in another orientation."""
    rrkg = dragon("RRKG")
    state = table(layout=[(rrkg, 1, 0)], hands=[[MOVE], [], []])
    _, after = act(state, 0, MoveCard(MOVE, rrkg, 1, 0, 180))
    assert [(p.x, p.y, p.orientation) for p in after.layout if p.card == rrkg] == [(1, 0, 180)]
    assert refused(state, 0, MoveCard(MOVE, rrkg, 1, 0, 0)).rule == rb.MOVE_IN_PLACE


def test_a_card_may_not_be_moved_to_where_it_would_touch_nothing() -> None:
    """Rulebook FAQ: a moved card must always reconnect to at least one other card."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE], [], []])
    assert refused(state, 0, MoveCard(MOVE, RRRR, 2, 0)).rule == rb.MOVE_CONNECTED
    assert refused(state, 0, MoveCard(MOVE, RRRR, 5, 5)).rule == rb.MOVE_CONNECTED


def test_a_moved_card_may_leave_islands_behind() -> None:
    """Rulebook FAQ: Move a Card may create holes and even islands."""
    state = table(layout=[(RRRR, 1, 0), (dragon("RRRR", 1), 2, 0)], hands=[[MOVE], [], []])
    _, after = act(state, 0, MoveCard(MOVE, RRRR, 0, 1))
    assert (2, 0) in {(p.x, p.y) for p in after.layout}


def test_the_silver_dragon_can_be_neither_moved_nor_zapped() -> None:
    """Rulebook: it is forbidden to move or to zap the Silver Dragon."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE, ZAP], [], []])
    assert refused(state, 0, MoveCard(MOVE, SILVER, 2, 0)).rule == rb.MOVE_A_CARD
    assert refused(state, 0, ZapCard(ZAP, SILVER)).rule == rb.ZAP_A_CARD


def test_the_move_is_checked_against_the_silver_colour_before_the_card_is_discarded() -> None:
    """Rulebook (Comment jouer): do the action, then add the card to the discard pile."""
    state = table(layout=[(RRRR, 1, 1), (dragon("RRRR", 1), 1, 2)], hands=[[MOVE], [], []], discard=(ZAP,))
    events, after = act(state, 0, MoveCard(MOVE, RRRR, 1, 0))
    assert silver_colour(state) == "red" and silver_colour(after) == "green"
    assert [type(e) for e in events[:3]] == [ev.ActionPlayed, ev.CardMoved, ev.ActionDiscarded]


# ------------------------------------------------------------------ Zap a Card


def test_after_zap_a_card_your_hand_is_one_larger() -> None:
    """Rulebook FAQ: after Zap a Card you hold one card more (than after any other play)."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[ZAP, GGGG], [], []])
    _, zapped = act(state, 0, ZapCard(ZAP, RRRR))
    _, placed = act(state, 0, PlaceDragon(GGGG, 0, 1))
    assert len(zapped.hands[0]) == len(placed.hands[0]) + 1 == len(state.hands[0])
    assert RRRR in zapped.hands[0] and RRRR not in {p.card for p in zapped.layout}


def test_a_zapped_card_is_known_by_everyone_to_be_in_the_zapper_hand() -> None:
    """Rulebook (Zap a card): the card is taken from the table in plain view."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[ZAP], [], []])
    _, after = act(state, 0, ZapCard(ZAP, RRRR))
    assert after.known == (frozenset(), frozenset({RRRR}), frozenset({RRRR}))


def test_without_the_silver_dragon_the_last_card_of_the_layout_stays() -> None:
    """Designed: a layout needs a card to connect to, so its last card cannot be zapped."""
    first = dragon("RRYY")
    state = table(
        variant="single-action", action="zap_card", silver=False, layout=[(first, 0, 0)], hands=[[ZAP], [], []]
    )
    assert refused(state, 0, ZapCard(ZAP, first)).rule == rb.ZAP_LAST_CARD


# ------------------------------------------------------------------ the discard choice


def test_an_action_on_top_gives_the_silver_dragon_its_colour() -> None:
    """Rulebook (Dragon d'Argent): it takes the colour of the action card on top of the discard pile."""
    state = table(goals=[R, Y, B], hands=[[ROTATE], [], []])
    events, after = act(state, 0, RotateGoals(ROTATE, Direction.LEFT, Discard.TOP))
    assert after.discard == (ROTATE,) and silver_colour(after) == "blue"
    assert of_type(events, ev.ActionDiscarded) == [ev.ActionDiscarded(0, ROTATE, Discard.TOP, True)]


def test_an_action_at_the_bottom_keeps_the_silver_dragon_colour() -> None:
    """Rulebook (Actions): put the action at the bottom of the pile so the Silver Dragon keeps its colour."""
    state = table(goals=[R, Y, B], hands=[[ROTATE], [], []], discard=(ZAP,))
    _, after = act(state, 0, RotateGoals(ROTATE, Direction.LEFT, Discard.BOTTOM))
    assert after.discard == (ROTATE, ZAP) and silver_colour(after) == "red"
    assert after.goal_of(0) == B


def test_an_action_may_be_discarded_without_its_effect_to_change_the_colour_only() -> None:
    """Rulebook (Actions): or simply discard the action card without using its effect."""
    state = table(goals=[R, Y, B], hands=[[ROTATE], [], []])
    events, after = act(state, 0, DiscardAction(ROTATE))
    assert after.ring == state.ring and silver_colour(after) == "blue"
    assert of_type(events, ev.ActionDiscarded) == [ev.ActionDiscarded(0, ROTATE, Discard.TOP, False)]


def test_without_the_silver_dragon_actions_go_on_top() -> None:
    """Designed: with no Silver Dragon the pile's order changes nothing, so the bottom is not offered."""
    state = table(variant="single-action", silver=False, layout=[(RRRR, 0, 0)], hands=[[TRADE_GOALS], [], []])
    assert (
        refused(state, 0, TradeGoals(TRADE_GOALS, seat=1, discard=Discard.BOTTOM)).rule == rb.NO_BOTTOM_WITHOUT_SILVER
    )
    act(state, 0, TradeGoals(TRADE_GOALS, seat=1))


def test_an_action_card_plays_only_its_own_action() -> None:
    """Rulebook (Comment jouer): "Carte Action : effectuez l'action tel que décrite ci-dessous"; a dragon
    card is added to the table and does no action. A card not in the hand cannot be played at all."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[ZAP, GGGG], [], []])
    assert refused(state, 0, MoveCard(ZAP, RRRR, 0, 1)).rule == rb.ACTION_PLAYED
    assert refused(state, 0, DiscardAction(GGGG)).rule == rb.DRAGON_CARD
    assert refused(state, 0, ZapCard(GGGG, RRRR)).rule == rb.DRAGON_CARD
    assert refused(state, 0, ZapCard(MOVE, RRRR)).rule == rb.PLAY


def test_a_card_moves_only_into_an_empty_cell() -> None:
    """Rulebook (Comment jouer, Move a card): a card joins those already on the table, in a new place
    that respects the placement rules: never onto another card."""
    state = table(layout=[(RRRR, 1, 0), (dragon("RRRR", 1), 2, 0)], hands=[[MOVE], [], []])
    assert refused(state, 0, MoveCard(MOVE, RRRR, 2, 0)).rule == rb.EMPTY_CELL


def test_a_move_names_a_card_of_the_layout() -> None:
    """Rulebook (Move a card, Zap a card): choose a card in play on the table."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE, ZAP, GGGG], [], []])
    assert refused(state, 0, MoveCard(MOVE, GGGG, 0, 1)).rule == rb.MOVE_A_CARD
    assert refused(state, 0, ZapCard(ZAP, GGGG)).rule == rb.ZAP_A_CARD
