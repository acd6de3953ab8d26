"""Turns, and seats joining and leaving a running game."""

from __future__ import annotations

from domain.kernel import GameOver, NotYourTurn, Rng, Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons import events as ev
from domain.seven_dragons import rulebook as rb
from domain.seven_dragons.cards import Action
from domain.seven_dragons.commands import PlaceDragon, SetAside, TradeHands

from .helpers import B, G, K, R, Y, act, action, dragon, of_type, refused, start, table

RRRR, GGGG, KKKK = dragon("RRRR"), dragon("GGGG"), dragon("KKKK")
DECK = tuple(dragon(code) for code in ("YYYY", "BBBB", "RRBB", "GGBB", "KKGG", "YYKK"))


def test_turns_follow_seat_order_and_each_starts_with_a_draw() -> None:
    """Rulebook (Comment jouer): draw a card and add it to your hand, then play one."""
    state = table(hands=[[RRRR], [GGGG], [KKKK]], deck=DECK)
    events, after = act(state, 0, PlaceDragon(RRRR, 1, 0))
    assert events[1:] == [ev.TurnStarted(1), ev.CardDrawn(1, DECK[0])]
    assert after.hands[1] == (GGGG, DECK[0]) and RULESET.awaiting(after) == (1,)
    assert events[2].visible_data(Viewer.of(0))["card"] == {"hidden": True}


def test_only_the_active_seat_may_play() -> None:
    """Platform: only a seat whose decision is awaited may move."""
    state = table(hands=[[RRRR], [GGGG], [KKKK]])
    assert isinstance(refused(state, 1, PlaceDragon(GGGG, 1, 0)), NotYourTurn)
    assert not RULESET.legal_moves(state, 1)


def test_a_finished_game_accepts_no_move() -> None:
    """Platform: a finished game accepts no more moves."""
    state = table(seats=2, hands=[[RRRR], []])
    _, over = act(state, 0, PlaceDragon(RRRR, 1, 0))
    assert RULESET.is_over(over)
    assert isinstance(refused(over, 0, PlaceDragon(RRRR, 2, 0)), GameOver)


def test_no_turn_may_be_lost() -> None:
    """Rulebook (Comment jouer): every turn is draw then play; nothing lets a turn pass."""
    assert RULESET.skip(start(), 0, Rng(b"s", "s")) is None


def test_a_player_who_can_play_nothing_sets_a_card_aside() -> None:
    """Designed: a hand of dragons that fit nowhere sets one card aside, face up, out of the game."""
    state = table(hands=[[KKKK], [GGGG], []], discard=(action(Action.ZAP_A_CARD),), deck=DECK)
    assert list(RULESET.legal_moves(state, 0)) == [SetAside(KKKK)]
    events, after = act(state, 0, SetAside(KKKK))
    assert of_type(events, ev.CardSetAside) == [ev.CardSetAside(0, KKKK)]
    assert after.set_aside == (KKKK,)
    playable = table(hands=[[RRRR], [], []], discard=(action(Action.ZAP_A_CARD),))
    assert refused(playable, 0, SetAside(RRRR)).rule == rb.STUCK


def test_in_dragon_connections_a_card_that_fits_nowhere_is_set_aside() -> None:
    """README (Dragon connections): turn up the top card and place it, or set it aside if it fits nowhere."""
    yyyy = dragon("YYYY")
    state = table(variant="connections", seats=2, layout=[(dragon("RRBB"), 0, 0)], hands=[[KKKK], []], deck=(yyyy,))
    assert list(RULESET.legal_moves(state, 0)) == [SetAside(KKKK)]
    events, after = act(state, 0, SetAside(KKKK))
    assert events[-1] == ev.CardTurnedUp(1, yyyy) and after.set_aside == (KKKK,)
    fits = table(variant="connections", seats=2, layout=[(dragon("RRBB"), 0, 0)], hands=[[RRRR], []])
    assert refused(fits, 0, SetAside(RRRR)).rule == rb.CONNECTIONS_SET_ASIDE


def test_in_dragon_connections_whoever_places_the_last_card_wins() -> None:
    """README (Dragon connections): whoever places the last card wins."""
    state = table(variant="connections", seats=3, layout=[(dragon("RRBB"), 0, 0)], hands=[[], [RRRR], []], turn=1)
    events, after = act(state, 1, PlaceDragon(RRRR, 1, 0))
    assert events[-1] == ev.LastCardPlaced(1)
    assert RULESET.outcome(after).places == (2, 1, 2)  # type: ignore[union-attr]


def test_in_dragon_connections_a_last_placer_who_has_left_wins_nothing() -> None:
    """Platform: leavers rank below the seats still playing. The last card placed was placed by a
    seat that has since left, so no seat still playing placed it: they share the win, and the
    state's winners (shown in every view) agree with the outcome."""
    rrbb, yyyy = dragon("RRBB"), dragon("YYYY")
    state = table(variant="connections", seats=3, layout=[(rrbb, 0, 0)], hands=[[RRRR], [], []], deck=(yyyy,))
    _, state = act(state, 0, PlaceDragon(RRRR, 1, 0))
    state = RULESET.fold(state, RULESET.leave(state, 0, Rng(b"l", "l")))
    events, after = act(state, 1, SetAside(yyyy))
    assert events[-1] == ev.LastCardPlaced(0)  # the fact: seat 0 placed the last card
    assert after.winners == (1, 2)
    assert RULESET.view(after, Viewer.spectator())["winners"] == [1, 2]
    outcome = RULESET.outcome(after)
    assert outcome is not None and outcome.winners == (1, 2) and outcome.places == (3, 1, 1)


# ------------------------------------------------------------------ joining


def test_a_newcomer_may_join_a_running_game_of_fewer_than_five_players() -> None:
    """Rulebook FAQ: a new player may join, if there were fewer than 5 players."""
    assert RULESET.can_join(start(seats=4))
    assert not RULESET.can_join(start(seats=5))
    assert not RULESET.can_join(table(seats=3, deck=()))


def test_a_newcomer_takes_an_unused_goal_at_random_draws_three_and_sits_last() -> None:
    """Rulebook FAQ: the newcomer takes an unused goal, draws 3 cards, and plays."""
    state = table(seats=3, goals=[R, Y, B], hands=[[RRRR], [GGGG], [KKKK]], deck=DECK)
    events = RULESET.join(state, Rng(b"join", "j"))
    joined = of_type(events, ev.SeatJoined)[0]
    assert joined.seat == 3 and joined.goal in (G, K)
    assert joined.visible_data(Viewer.of(0))["goal"] == {"hidden": True}
    assert joined.visible_data(Viewer.of(3))["goal"] == joined.goal.value  # type: ignore[union-attr]
    assert of_type(events, ev.CardsDealt) == [ev.CardsDealt(3, DECK[:3])]
    after = RULESET.fold(state, events)
    assert after.goal_of(3) == joined.goal and after.ring[-1].seat == 3
    assert [slot.seat for slot in after.ring].count(None) == 1
    seen = {RULESET.fold(state, RULESET.join(state, Rng(bytes([i]), "j"))).goal_of(3) for i in range(16)}
    assert seen == {G, K}


def test_the_newcomer_plays_after_the_last_seat() -> None:
    """Issue (Joining): the newcomer sits last in turn order."""
    state = table(seats=3, hands=[[RRRR], [GGGG], [KKKK]], deck=DECK, turn=2)
    joined = RULESET.fold(state, RULESET.join(state, Rng(b"join", "j")))
    events, after = act(joined, 2, PlaceDragon(KKKK, 1, 0))
    assert after.turn == 3 and events[1] == ev.TurnStarted(3)


def test_in_dragon_connections_a_newcomer_just_sits_last() -> None:
    """Designed: Dragon connections has no goals and no hands, so a newcomer only takes a turn."""
    state = start("connections", seats=2)
    events = RULESET.join(state, Rng(b"join", "j"))
    assert events == [ev.SeatJoined(2, None, None)]
    assert RULESET.fold(state, events).seats == 3


def test_a_newcomer_whose_goal_is_already_complete_wins_at_once() -> None:
    """Rulebook (Gagner): as soon as the goal is fulfilled, you win (designed: this holds on joining too)."""
    layout = [
        (dragon("RRYY"), 1, 0),
        (dragon("RRBB"), 2, 0),
        (dragon("RRKG"), 3, 0),
        (RRRR, 4, 0),
        (dragon("RRRR", 1), 5, 0),
        (dragon("RYRY"), 5, 1),
    ]
    state = table(seats=4, goals=[Y, B, G, K], layout=layout, hands=[[GGGG], [], [], []], deck=DECK)
    events = RULESET.join(state, Rng(b"join", "j"))
    assert of_type(events, ev.GameWon) == [ev.GameWon(4, R, 7)]


# ------------------------------------------------------------------ leaving


def test_a_leaver_hand_is_set_aside_face_up_and_their_goal_becomes_unused() -> None:
    """Designed: the leaver's hand leaves the game face up; their goal joins the unused goals."""
    trade = action(Action.TRADE_HANDS)
    state = table(seats=3, goals=[R, Y, B], hands=[[RRRR, trade], [GGGG, KKKK], []], deck=DECK)
    events = RULESET.leave(state, 1, Rng(b"l", "l"))
    assert events == [ev.HandSetAside(1, (GGGG, KKKK)), ev.SeatLeft(1)]
    after = RULESET.fold(state, events)
    assert after.set_aside == (GGGG, KKKK) and after.hands[1] == ()
    assert [(s.seat, s.goal) for s in after.ring] == [(0, R), (None, G), (None, Y), (None, K), (2, B)]
    assert RULESET.awaiting(after) == (0,)
    assert refused(after, 0, TradeHands(trade, 1)).rule == rb.TRADE_HANDS
    act(after, 0, TradeHands(trade, 2))


def test_the_active_seat_leaving_passes_the_turn() -> None:
    """Platform: the game goes on for the others."""
    state = table(seats=3, hands=[[RRRR], [GGGG], [KKKK]], deck=DECK)
    events = RULESET.leave(state, 0, Rng(b"l", "l"))
    assert events[-2:] == [ev.TurnStarted(1), ev.CardDrawn(1, DECK[0])]


def test_the_last_seat_standing_wins_and_leavers_rank_last() -> None:
    """Platform: a seat that resigns ranks below those still playing; designed: the last one left wins."""
    state = table(seats=3, hands=[[RRRR], [GGGG], [KKKK]], deck=DECK)
    state = RULESET.fold(state, RULESET.leave(state, 2, Rng(b"l", "l")))
    events = RULESET.leave(state, 0, Rng(b"l", "l"))
    assert events[-1] == ev.LastSeatStanding(1)
    outcome = RULESET.outcome(RULESET.fold(state, events))
    assert outcome is not None and outcome.places == (2, 1, 3)  # the first to leave ranks last


def test_a_newcomer_aims_for_seven_even_among_young_players() -> None:
    """Designed: a young player's target is set when the game is created; a newcomer aims for 7."""
    state = table(variant="basic", seats=2, goals=[R, Y], targets=[4, 5], hands=[[RRRR], [GGGG]], deck=DECK)
    after = RULESET.fold(state, RULESET.join(state, Rng(b"join", "j")))
    assert after.targets == (4, 5, 7)


def test_a_newcomer_draws_what_is_left_when_the_deck_holds_fewer_than_three() -> None:
    """Rulebook FAQ: the newcomer draws 3 cards; designed: as many as the deck still holds (at least one)."""
    state = table(seats=3, goals=[R, Y, B], hands=[[RRRR], [GGGG], [KKKK]], deck=DECK[:2])
    events = RULESET.join(state, Rng(b"join", "j"))
    assert of_type(events, ev.CardsDealt) == [ev.CardsDealt(3, DECK[:2])]


def test_in_dragon_connections_when_nobody_placed_a_card_the_seats_still_playing_share_the_win() -> None:
    """README (Dragon connections): whoever places the last card wins; designed: if no card was placed
    after the first one turned up, nobody placed the last card and the seats still playing share the win."""
    state = table(variant="connections", seats=2, layout=[(dragon("RRBB"), 0, 0)], hands=[[KKKK], []])
    events, after = act(state, 0, SetAside(KKKK))
    assert events[-1] == ev.LastCardPlaced(None)
    outcome = RULESET.outcome(after)
    assert outcome is not None and outcome.winners == (0, 1)


def test_in_dragon_connections_a_leaver_turned_up_card_is_set_aside_and_the_next_seat_turns_one_up() -> None:
    """Designed (a seat that leaves): the leaver's card leaves the game face up; play goes on."""
    yyyy = dragon("YYYY")
    state = table(variant="connections", seats=3, layout=[(dragon("RRBB"), 0, 0)], hands=[[KKKK], [], []], deck=(yyyy,))
    events = RULESET.leave(state, 0, Rng(b"l", "l"))
    assert events == [ev.HandSetAside(0, (KKKK,)), ev.SeatLeft(0), ev.TurnStarted(1), ev.CardTurnedUp(1, yyyy)]
