"""Winning: seven connected dragons, who wins when several do, and the end of the cards."""

from __future__ import annotations

from domain.kernel import Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons import events as ev
from domain.seven_dragons.cards import RAINBOW, Action
from domain.seven_dragons.commands import DiscardAction, PlaceDragon, TradeGoals

from .helpers import B, G, K, R, Y, act, action, dragon, of_type, table

#: Six red dragons ending at (-1, 0): a row joined by red top halves, and RYRY hanging below the second RRRR.
RED_SIX = [
    (dragon("RRYY"), -5, 0),
    (dragon("RRBB"), -4, 0),
    (dragon("RRKG"), -3, 0),
    (dragon("RRRR"), -2, 0),
    (dragon("RRRR", 1), -1, 0),
    (dragon("RYRY"), -1, 1),
]
#: Six gold dragons starting at (1, 0), joined by gold top halves, and YBYB below the second YYYY.
GOLD_SIX = [
    (dragon("YYGG"), 1, 0),
    (dragon("YYKK"), 2, 0),
    (dragon("YYRK"), 3, 0),
    (dragon("YYYY"), 4, 0),
    (dragon("YYYY", 1), 5, 0),
    (dragon("YBYB"), 5, 1),
]


def _no_silver(**kwargs: object) -> object:
    return table(variant="single-action", silver=False, **kwargs)


def _largest(state: object) -> dict[str, int]:
    return RULESET.view(state, Viewer.spectator())["largest_groups"]


def test_seven_connected_dragons_of_your_goal_colour_win_at_once() -> None:
    """Rulebook (Gagner): a continuous chain of seven dragons of your goal's colour wins at once."""
    rkrk = dragon("RKRK")
    state = _no_silver(layout=RED_SIX, goals=[R, Y, B], hands=[[rkrk], [], []])
    events, after = act(state, 0, PlaceDragon(rkrk, -1, 2))
    assert of_type(events, ev.GameWon) == [ev.GameWon(0, R, 7)]
    assert RULESET.outcome(after).winners == (0,)  # type: ignore[union-attr]
    assert RULESET.awaiting(after) == ()


def test_a_group_may_branch() -> None:
    """Rulebook FAQ: the seven need only touch one another; branches are fine."""
    layout = [
        (dragon("RRYY"), 0, 0),
        (dragon("RRRR"), 1, 0),
        (dragon("RRBB"), 2, 0),
        (dragon("RRRR", 1), 3, 0),
        (dragon("RYRY"), 1, 1),
        (dragon("RKRK"), 3, 1),
    ]
    rrkg = dragon("RRKG")
    state = _no_silver(layout=layout, goals=[R, Y, B], hands=[[rrkg], [], []])
    events, _ = act(state, 0, PlaceDragon(rrkg, 4, 0))
    assert of_type(events, ev.GameWon) == [ev.GameWon(0, R, 7)]


def test_three_here_and_four_there_do_not_win() -> None:
    """Rulebook FAQ: the seven zones must form one continuous group."""
    layout = [
        (dragon("RRYY"), 0, 0),
        (dragon("RRRR"), 1, 0),
        (dragon("RRBB"), 2, 0),
        (dragon("RRRR", 1), 5, 5),
        (dragon("RYRY"), 5, 6),
        (dragon("RKRK"), 5, 7),
        (dragon("RYRB"), 5, 8),
    ]
    yykk = dragon("YYKK")
    state = _no_silver(layout=layout, goals=[R, Y, B], hands=[[yykk], [], []], deck=(dragon("GGGG"),))
    events, after = act(state, 0, PlaceDragon(yykk, 0, 1))
    assert not of_type(events, ev.GameWon)
    assert _largest(after)["red"] == 4


def test_a_whole_colour_card_counts_as_one_dragon() -> None:
    """Deck list: a region of one colour on a card is one dragon."""
    state = _no_silver(layout=[(dragon("RRRR"), 0, 0), (dragon("RRRR", 1), 1, 0)])
    assert _largest(state)["red"] == 2


def test_the_rainbow_counts_for_every_colour() -> None:
    """Rulebook (Dragon Arc-en-ciel): it counts as a Red, Blue, Gold, Black and Green dragon at once."""
    state = _no_silver(layout=[(dragon("RRYY"), 0, 0), (RAINBOW, 1, 0), (dragon("RRBB"), 2, 0)])
    assert _largest(state) == {"red": 3, "gold": 2, "blue": 2, "green": 1, "black": 1}


def test_a_wild_silver_counts_for_every_colour_and_a_coloured_one_for_its_colour_only() -> None:
    """Rulebook (Dragon d'Argent): multicoloured while the pile is empty, else the top card's colour."""
    layout = [(dragon("RRRR"), -1, 0), (dragon("KKKK"), 1, 0)]
    wild = table(layout=layout)
    assert _largest(wild)["red"] == 2 and _largest(wild)["black"] == 2
    red = table(layout=layout, discard=(action(Action.ZAP_A_CARD),))
    assert _largest(red)["red"] == 2 and _largest(red)["black"] == 1


def _both_at_six() -> tuple[object, ...]:
    return tuple(RED_SIX + GOLD_SIX)


def test_two_players_reaching_seven_at_once_the_active_player_wins() -> None:
    """Rulebook FAQ: if one card gives two players seven dragons, the active player wins."""
    state = _no_silver(layout=_both_at_six(), goals=[R, Y, B], turn=1, hands=[[], [RAINBOW], []])
    events, after = act(state, 1, PlaceDragon(RAINBOW, 0, 0))
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, Y, 7)]
    assert RULESET.outcome(after).places[1] == 1  # type: ignore[union-attr]


def test_when_the_active_player_is_not_among_them_the_first_in_seat_order_wins() -> None:
    """Issue (Winning): if several players win at once, the active player wins; then the first in seat order."""
    state = _no_silver(layout=_both_at_six(), goals=[R, Y, B], turn=2, hands=[[], [], [RAINBOW]])
    events, after = act(state, 2, PlaceDragon(RAINBOW, 0, 0))
    assert of_type(events, ev.GameWon) == [ev.GameWon(0, R, 7)]
    assert RULESET.outcome(after).places == (1, 2, 3)  # type: ignore[union-attr]


def test_another_player_completing_your_seven_makes_you_win_at_once() -> None:
    """Rulebook FAQ: if another player makes a group of seven of your dragons, you win immediately."""
    rkrk = dragon("RKRK")
    state = _no_silver(layout=RED_SIX, goals=[B, R, Y], turn=0, hands=[[rkrk], [], []])
    events, _ = act(state, 0, PlaceDragon(rkrk, -1, 2))
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, R, 7)]


def test_an_unused_goal_reaching_seven_wins_nothing_until_a_player_takes_it() -> None:
    """README: an unused goal reaching 7 wins nothing; the check follows every action, for every player."""
    rkrk, trade = dragon("RKRK"), action(Action.TRADE_GOALS)
    state = _no_silver(layout=RED_SIX, goals=[Y, B, G], hands=[[rkrk], [trade], []], deck=(dragon("GGGG"),))
    events, after = act(state, 0, PlaceDragon(rkrk, -1, 2))
    assert not of_type(events, ev.GameWon) and RULESET.awaiting(after) == (1,)
    red_slot = [slot.goal for slot in after.ring if slot.seat is None].index(R)
    events, after = act(after, 1, TradeGoals(trade, unused=red_slot))
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, R, 7)]


def test_turning_the_silver_dragon_to_your_colour_can_win() -> None:
    """Rulebook (Dragon d'Argent) and README: the check runs after every action, a colour change included."""
    zap = action(Action.ZAP_A_CARD)
    state = table(layout=RED_SIX, goals=[R, Y, B], hands=[[zap], [], []], discard=(action(Action.TRADE_HANDS),))
    assert _largest(state)["red"] == 6
    events, _ = act(state, 0, DiscardAction(zap))
    assert of_type(events, ev.GameWon) == [ev.GameWon(0, R, 7)]


def test_a_young_player_wins_with_as_many_dragons_as_their_target() -> None:
    """Rulebook (Basic dragons): a player under 7 must connect as many zones as their age."""
    rrrr = dragon("RRRR", 1)
    layout = [(dragon("RRYY"), 0, 0), (dragon("RRBB"), 1, 0), (dragon("RRKG"), 2, 0), (dragon("RRRR"), 3, 0)]
    state = table(variant="basic", seats=2, layout=layout, goals=[R, Y], hands=[[rrrr], []], targets=[5, 7])
    events, _ = act(state, 0, PlaceDragon(rrrr, 4, 0))
    assert of_type(events, ev.GameWon) == [ev.GameWon(0, R, 5)]
    older = table(
        variant="basic",
        seats=2,
        layout=layout,
        goals=[Y, R],
        hands=[[rrrr], []],
        targets=[5, 7],
        deck=(dragon("GGGG"),),
    )
    assert not of_type(act(older, 0, PlaceDragon(rrrr, 4, 0))[0], ev.GameWon)


# ------------------------------------------------------------------ the end of the cards


def test_without_cards_to_draw_play_goes_on_and_empty_hands_are_passed_over() -> None:
    """Rulebook FAQ: once the deck is out, keep playing without drawing while anyone holds cards."""
    a, b = dragon("RRRR"), dragon("RRRR", 1)
    state = table(seats=3, hands=[[a], [], [b]])
    events, after = act(state, 0, PlaceDragon(a, 1, 0))
    assert [type(e) for e in events] == [ev.DragonPlaced, ev.TurnStarted]
    assert after.turn == 2 and after.hands[2] == (b,)


def test_when_every_hand_is_empty_the_group_closest_to_seven_wins() -> None:
    """Rulebook FAQ: if nobody wins before all cards are played, the player closest to 7 wins."""
    a = dragon("RRRR")
    layout = [(dragon("KKKK"), 0, 1), (dragon("KKKK", 1), 0, 2), (dragon("YYYY"), 0, -1)]
    state = table(seats=3, layout=layout, goals=[B, Y, K], hands=[[a], [], []], discard=(action(Action.ZAP_A_CARD),))
    events, after = act(state, 0, PlaceDragon(a, 1, 0))
    assert _largest(after) == {"red": 2, "gold": 1, "blue": 0, "green": 0, "black": 2}
    assert of_type(events, ev.AllCardsPlayed) == [ev.AllCardsPlayed((2,))]
    outcome = RULESET.outcome(after)
    assert outcome is not None and outcome.winners == (2,) and outcome.places == (3, 2, 1)


def test_at_the_end_of_the_cards_ties_share_the_win() -> None:
    """README (Deck exhaustion): ties share the win."""
    a = dragon("RRRR")
    layout = [(dragon("KKKK"), 0, 1), (dragon("YYYY"), 0, -1)]
    state = table(seats=3, layout=layout, goals=[B, Y, K], hands=[[a], [], []], discard=(action(Action.ZAP_A_CARD),))
    _, after = act(state, 0, PlaceDragon(a, 1, 0))
    outcome = RULESET.outcome(after)
    assert outcome is not None and outcome.winners == (1, 2) and outcome.places == (3, 1, 1)


def test_at_the_end_of_the_cards_each_player_is_measured_against_their_own_target() -> None:
    """Rulebook FAQ: the player closest to 7 wins; Basic dragons: a young player's 7 is their age.
    Designed: closest to one's own target. Seat 0 (target 4) ends one red short, seat 1 (target 7) two gold
    short: seat 0 wins, though seat 1's group is the nearer to seven."""
    rrbb = dragon("RRBB")
    layout = [
        (dragon("RRRR"), 0, 0),
        (dragon("RRRR", 1), 1, 0),
        (dragon("YYYY"), 0, 1),
        (dragon("YYYY", 1), 1, 1),
        (dragon("YYGG"), 2, 1),
        (dragon("YYKK"), 3, 1),
        (dragon("YYRK"), 4, 1),
    ]
    state = table(variant="basic", seats=2, layout=layout, goals=[R, Y], targets=[4, 7], hands=[[rrbb], []])
    events, after = act(state, 0, PlaceDragon(rrbb, 2, 0))
    assert _largest(after)["red"] == 3 and _largest(after)["gold"] == 5
    assert of_type(events, ev.AllCardsPlayed) == [ev.AllCardsPlayed((0,))]
    outcome = RULESET.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (1, 2)
