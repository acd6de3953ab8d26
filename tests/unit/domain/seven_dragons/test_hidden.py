"""Hidden information: what views show, and what ``observe`` resamples."""

from __future__ import annotations

import random
from collections import Counter

from domain.kernel import Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import SILVER, Action
from domain.seven_dragons.commands import PlaceDragon, TradeGoals, TradeHands, ZapCard

from .helpers import B, G, K, R, Y, act, action, dragon, start, table

RRRR, GGGG, KKKK, BBBB, YYYY = (dragon(c) for c in ("RRRR", "GGGG", "KKKK", "BBBB", "YYYY"))
DECK = tuple(dragon(code) for code in ("RRBB", "GGBB", "KKGG", "YYKK", "BBKK", "GGRR"))


def test_a_seat_sees_its_hand_and_goal_and_only_the_size_of_the_others_hands() -> None:
    """Rulebook (Mise en place): keep your goal secret; issue: hand sizes are public."""
    state = table(goals=[R, Y, B], hands=[[RRRR, GGGG], [KKKK], [BBBB]], deck=DECK)
    seen = RULESET.view(state, Viewer.of(0))
    assert [c["card"] for c in seen["hand"]] == [RRRR, GGGG] and seen["goal"] == "red"
    others = seen["players"][1]
    assert others["hand_size"] == 1 and "hand" not in others and "goal" not in others
    assert [slot["goal"] for slot in seen["goal_ring"]] == ["red", None, None, None, None]


def test_a_spectator_sees_no_hand_and_no_goal() -> None:
    """Issue (hidden information): hands and goals are secret."""
    state = table(goals=[R, Y, B], hands=[[RRRR], [KKKK], [BBBB]], deck=DECK)
    seen = RULESET.view(state, Viewer.spectator())
    assert seen["hand"] is None and seen["goal"] is None
    assert all("hand" not in p and "goal" not in p for p in seen["players"])
    assert all(slot["goal"] is None for slot in seen["goal_ring"])


def test_after_the_game_everyone_sees_everything() -> None:
    """Platform: once a game has finished, nothing is hidden."""
    state = table(goals=[R, Y, B], hands=[[RRRR], [KKKK], [BBBB]], deck=DECK)
    seen = RULESET.view(state, Viewer.everyone())
    assert [p["goal"] for p in seen["players"]] == ["red", "gold", "blue"]
    assert [slot["goal"] for slot in seen["goal_ring"]] == ["red", "green", "gold", "black", "blue"]
    assert seen["players"][2]["hand"][0]["card"] == BBBB


def test_the_view_shows_the_grid_the_silver_colour_the_groups_the_deck_and_the_piles() -> None:
    """Issue (View): the grid with panels and orientation, the Silver colour, largest groups, deck, discards."""
    rrkg = dragon("RRKG")
    state = table(layout=[(rrkg, 1, 0, 180, 2)], discard=(action(Action.ZAP_A_CARD),), deck=DECK)
    seen = RULESET.view(state, Viewer.of(1))
    assert seen["silver"] == "red"
    assert seen["grid"][0] == {
        "card": SILVER,
        "kind": "silver",
        "name": "silver",
        "x": 0,
        "y": 0,
        "orientation": 0,
        "panels": ["red"] * 4,
        "placed_by": None,
    }
    assert seen["grid"][1]["panels"] == ["green", "black", "red", "red"] and seen["grid"][1]["orientation"] == 180
    assert seen["largest_groups"]["red"] == 2
    assert seen["deck_size"] == len(DECK)
    assert [c["name"] for c in seen["discard"]] == ["zap_card"] and seen["discard"][0]["colour"] == "red"


def test_a_seat_keeps_seeing_the_goals_it_has_held() -> None:
    """Rulebook (Trade goals): after a trade both players know where both goals went."""
    trade = action(Action.TRADE_GOALS)
    state = table(goals=[R, Y, B], hands=[[trade], [], []], deck=DECK)
    _, after = act(state, 0, TradeGoals(trade, seat=2))
    mine = RULESET.view(after, Viewer.of(0))
    assert mine["goal"] == "blue" and mine["players"][2]["goal"] == "red"
    assert "goal" not in RULESET.view(after, Viewer.of(1))["players"][2]
    for seed in range(10):
        observed = RULESET.observe(after, 0, random.Random(seed))
        assert observed.goal_of(2) == R and observed.goal_of(0) == B


def test_observe_resamples_other_hands_and_the_deck_but_not_their_sizes() -> None:
    """Issue (hidden information): hands and the deck order are secret."""
    state = start(seats=3, seed=4)
    hidden = Counter(state.deck + state.hands[1] + state.hands[2])
    worlds = set()
    for seed in range(12):
        observed = RULESET.observe(state, 0, random.Random(seed))
        assert observed.hands[0] == state.hands[0]
        assert [len(h) for h in observed.hands] == [len(h) for h in state.hands]
        assert Counter(observed.deck + observed.hands[1] + observed.hands[2]) == hidden
        worlds.add((observed.hands[1], observed.deck))
    assert len(worlds) > 1


def test_observe_keeps_the_cards_a_seat_saw_leave_its_hand() -> None:
    """Rulebook (Trade hands): after a trade, each trader knows the other's new hand."""
    trade = action(Action.TRADE_HANDS)
    state = table(goals=[R, Y, B], hands=[[trade, RRRR, GGGG], [KKKK], [BBBB]], deck=DECK)
    _, after = act(state, 0, TradeHands(trade, 1))
    assert after.hands[1][:2] == (RRRR, GGGG)
    for seed in range(10):
        observed = RULESET.observe(after, 0, random.Random(seed))
        assert observed.hands[1][:2] == (RRRR, GGGG)
    assert [c["card"] for c in RULESET.view(after, Viewer.of(0))["players"][1]["known_cards"]] == [RRRR, GGGG]


def test_observe_keeps_a_zapped_card_in_the_zapper_hand() -> None:
    """Rulebook (Zap a card): the card is taken from the table in front of everyone."""
    zap = action(Action.ZAP_A_CARD)
    state = table(layout=[(RRRR, 1, 0)], hands=[[zap], [KKKK], [BBBB]], deck=DECK)
    _, after = act(state, 0, ZapCard(zap, RRRR))
    for seed in range(10):
        assert RRRR in RULESET.observe(after, 2, random.Random(seed)).hands[0]


def test_observe_never_gives_a_playing_seat_a_goal_it_would_already_have_won() -> None:
    """Rulebook (Gagner): a player whose goal reached seven would have won, so nobody playing holds it."""
    layout = [
        (dragon("RRYY"), 1, 0),
        (dragon("RRBB"), 2, 0),
        (dragon("RRKG"), 3, 0),
        (RRRR, 4, 0),
        (dragon("RRRR", 1), 5, 0),
        (dragon("RYRY"), 5, 1),
        (dragon("RKRK"), 5, 2),
    ]
    state = table(
        goals=[Y, B, G], layout=layout, hands=[[GGGG], [], []], discard=(action(Action.ZAP_A_CARD),), deck=DECK
    )
    for seed in range(20):
        observed = RULESET.observe(state, 0, random.Random(seed))
        assert R not in (observed.goal_of(1), observed.goal_of(2))
    assert {RULESET.observe(state, 0, random.Random(s)).goal_of(1) for s in range(20)} == {B, G, K}


def test_observe_changes_neither_the_view_nor_the_legal_moves_of_the_seat() -> None:
    """Platform: a seat cannot tell the observed state from the true one."""
    state = table(
        goals=[R, Y, B], hands=[[GGGG, action(Action.MOVE_A_CARD)], [KKKK], [BBBB]], deck=DECK, layout=[(RRRR, 1, 0)]
    )
    _, state = act(state, 0, PlaceDragon(GGGG, 0, 1))
    for seat in range(3):
        observed = RULESET.observe(state, seat, random.Random(seat))
        assert RULESET.view(observed, Viewer.of(seat)) == RULESET.view(state, Viewer.of(seat))
        assert list(RULESET.legal_moves(observed, seat)) == list(RULESET.legal_moves(state, seat))


def test_anyone_may_look_through_the_discard_pile_in_its_order() -> None:
    """Rulebook FAQ: you may look at the discard pile, but not change its order."""
    pile = (action(Action.TRADE_GOALS), action(Action.ZAP_A_CARD), action(Action.ROTATE_GOALS))
    state = table(discard=pile, deck=DECK)
    for viewer in (Viewer.spectator(), Viewer.of(2)):
        assert [c["card"] for c in RULESET.view(state, viewer)["discard"]] == list(pile)
    assert RULESET.view(state, Viewer.of(0))["silver"] == "blue"


def test_exactly_the_events_that_carry_a_hand_a_goal_or_the_deck_order_are_secret() -> None:
    """Issue (hidden information): the deal, draws (bonus draws too), trades and goal moves are redacted
    for everyone but their owners; the deck order and the unused goals for everyone. Every other event
    (placements, actions played, discards, a turned-up card, a leaver's hand set aside face up) is public."""
    declared = {cls.TYPE: (cls.SECRET, cls.OWNERS) for cls in RULESET.events.by_type.values() if cls.SECRET}
    assert declared == {
        "GoalDealt": (("goal",), ("seat",)),
        "UnusedGoalsLaidAside": (("goals",), ()),
        "DeckShuffled": (("order",), ()),
        "CardsDealt": (("cards",), ("seat",)),
        "CardDrawn": (("card",), ("seat",)),
        "BonusDrawn": (("cards",), ("seat",)),
        "HandsTraded": (("received", "given"), ("seat", "other")),
        "GoalsTraded": (("received", "given"), ("seat", "other")),
        "SeatJoined": (("goal",), ("seat",)),
    }
    assert all(not cls.SECRET for cls in RULESET.commands.by_type.values())


def test_two_deals_a_seat_cannot_tell_apart_give_it_the_same_observation() -> None:
    """Platform decision 2: observe is a function of the seat's knowledge. Seat 0 holds the same hand
    and goal in both games; the other hands, the deck order, the other goals and the unused goals
    differ. The same generator must give the same observation, else a bot could play on them."""
    one = table(goals=[R, Y, B], hands=[[RRRR], [GGGG, KKKK], [BBBB]], deck=DECK)
    other = table(
        goals=[R, K, G],
        hands=[[RRRR], [DECK[3], BBBB], [DECK[0]]],
        deck=(KKKK, DECK[5], DECK[1], GGGG, DECK[4], DECK[2]),
    )
    assert RULESET.view(one, Viewer.of(0)) == RULESET.view(other, Viewer.of(0))
    for seed in range(10):
        assert RULESET.observe(one, 0, random.Random(seed)) == RULESET.observe(other, 0, random.Random(seed))


def test_in_dragon_connections_the_deck_order_never_shapes_the_observation() -> None:
    """Platform decision 2; README (Dragon connections): the turned-up card is public, the next one is
    not. Two decks in different orders give every seat the same observation."""
    one = table(variant="connections", seats=2, hands=[[RRRR], []], deck=DECK)
    other = table(variant="connections", seats=2, hands=[[RRRR], []], deck=DECK[::-1])
    for seat in range(2):
        for seed in range(10):
            assert RULESET.observe(one, seat, random.Random(seed)) == RULESET.observe(other, seat, random.Random(seed))
