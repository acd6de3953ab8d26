"""Setting up: goals, the starting card, the deal, the first turn, and the variants' options."""

from __future__ import annotations

import pytest

from domain.kernel import ConfigError, Rng, Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons import events as ev
from domain.seven_dragons.cards import ACTION_OF, ACTIONS, COLOURS, DRAGONS, IS_DRAGON, RAINBOW, SILVER, Action
from domain.seven_dragons.ruleset import goal_ring
from domain.seven_dragons.state import GoalSlot, Phase

from .helpers import of_type, start


def _opening(variant: str = "full", seats: int = 3, **options: object) -> list[ev.Event]:
    config = RULESET.configure(variant, options, seats)
    return RULESET.setup(RULESET.initial(config), Rng(b"opening", "setup"))


def test_each_player_is_dealt_one_secret_goal_and_the_rest_lie_unused() -> None:
    """Rulebook (Mise en place): one goal each, kept secret; the others are unused."""
    state = start(seats=3)
    goals = [slot.goal for slot in state.ring]
    assert sorted(g.value for g in goals) == sorted(c.value for c in COLOURS)  # type: ignore[union-attr]
    assert [slot.seat for slot in state.ring].count(None) == 2
    dealt = of_type(_opening(seats=3), ev.GoalDealt)
    assert [e.seat for e in dealt] == [0, 1, 2]
    assert dealt[0].visible_data(Viewer.of(1))["goal"] == {"hidden": True}
    assert dealt[0].visible_data(Viewer.of(0))["goal"] == dealt[0].goal.value


def test_unused_goals_sit_between_the_players_as_imaginary_seats() -> None:
    """Rulebook (Objectifs inutilisés): unused goals lie between players; designed: goal k after seat k mod n."""
    assert goal_ring(3, 5) == (
        GoalSlot(0, None),
        GoalSlot(None, None),
        GoalSlot(1, None),
        GoalSlot(None, None),
        GoalSlot(2, None),
    )
    assert [s.seat for s in goal_ring(2, 5)] == [0, None, None, 1, None]
    assert [s.seat for s in goal_ring(5, 5)] == [0, 1, 2, 3, 4]


def test_the_unused_goals_are_secret_to_everyone() -> None:
    """Rulebook: it is forbidden to look at the unused goals during the game."""
    laid = of_type(_opening(seats=2), ev.UnusedGoalsLaidAside)[0]
    assert len(laid.goals) == 3
    for seat in (0, 1):
        assert laid.visible_data(Viewer.of(seat))["goals"] == {"hidden": 3}


def test_the_silver_dragon_starts_the_layout_at_the_origin() -> None:
    """Rulebook: the Silver Dragon is placed in the middle of the table and never moves."""
    state = start()
    assert [(p.card, p.x, p.y) for p in state.layout] == [(SILVER, 0, 0)]


def test_the_full_deck_of_51_dragons_and_15_actions_is_shuffled_and_3_cards_dealt_each() -> None:
    """Rulebook: shuffle the Dragon and Action cards together and deal 3 cards to each player."""
    events = _opening(seats=4)
    shuffled = of_type(events, ev.DeckShuffled)[0]
    assert sorted(shuffled.order) == sorted(DRAGONS + ACTIONS)
    assert shuffled.visible_data(Viewer.of(0))["order"] == {"hidden": 66}
    dealt = of_type(events, ev.CardsDealt)
    assert [(e.seat, len(e.cards)) for e in dealt] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert dealt[1].visible_data(Viewer.of(0))["cards"] == {"hidden": 3}
    assert dealt[1].visible_data(Viewer.of(1))["cards"] == list(dealt[1].cards)


def test_the_oldest_player_seat_0_starts_by_drawing_a_card() -> None:
    """Rulebook: the oldest player starts; a turn begins with drawing one card."""
    events = _opening(seats=3)
    assert isinstance(events[-2], ev.TurnStarted) and events[-2].seat == 0
    assert isinstance(events[-1], ev.CardDrawn) and events[-1].seat == 0
    state = start(seats=3)
    assert RULESET.awaiting(state) == (0,)
    assert [len(h) for h in state.hands] == [4, 3, 3]
    assert len(state.deck) == 66 - 9 - 1
    assert state.phase is Phase.PLAY


def test_single_action_dragons_use_trade_goals_by_default() -> None:
    """Rulebook (Single-action dragons): the full game with one action type, usually Trade Goals."""
    deck = of_type(_opening("single-action"), ev.DeckShuffled)[0].order
    actions = [c for c in deck if not IS_DRAGON[c]]
    assert len(deck) == 51 + 3
    assert {ACTION_OF[c] for c in actions} == {Action.TRADE_GOALS}


def test_single_action_dragons_may_choose_the_action_and_leave_out_the_silver_dragon() -> None:
    """Rulebook (Single-action dragons): add the Silver Dragon last; README: the first card turned up starts."""
    events = _opening("single-action", action="zap_card", silver=False)
    first = of_type(events, ev.FirstCardTurnedUp)[0]
    assert IS_DRAGON[first.card]
    deck = of_type(events, ev.DeckShuffled)[0].order
    assert first.card not in deck and len(deck) == 50 + 3
    assert {ACTION_OF[c] for c in deck if not IS_DRAGON[c]} == {Action.ZAP_A_CARD}
    assert not of_type(events, ev.SilverDragonPlaced)


def test_basic_dragons_use_dragons_and_goals_without_actions_silver_or_rainbow() -> None:
    """Rulebook (Basic dragons): dragon cards and goals only; README: no Silver, no Rainbow."""
    events = _opening("basic")
    first = of_type(events, ev.FirstCardTurnedUp)[0].card
    deck = of_type(events, ev.DeckShuffled)[0].order
    assert sorted((first, *deck)) == [c for c in DRAGONS if c != RAINBOW]
    assert of_type(events, ev.GoalDealt)
    state = start("basic")
    assert [(p.x, p.y) for p in state.layout] == [(0, 0)]


def test_basic_dragons_take_a_target_per_seat_between_3_and_7() -> None:
    """Rulebook (Basic dragons): a player under 7 connects as many as their age."""
    state = start("basic", seats=3, targets=[5, 7, 6])
    assert state.targets == (5, 7, 6)
    assert start("basic", seats=2).targets == (7, 7)
    with pytest.raises(ConfigError) as wrong_count:
        RULESET.configure("basic", {"targets": [5, 6]}, 3)
    assert wrong_count.value.field == "options.targets"
    with pytest.raises(ConfigError):
        RULESET.configure("basic", {"targets": [8, 5]}, 2)
    with pytest.raises(ConfigError):
        RULESET.configure("basic", {"targets": [2, 5]}, 2)


def test_dragon_connections_has_no_goals_no_hands_and_turns_up_the_top_card() -> None:
    """Rulebook (Dragon connections): dragon cards only; turn the cards up one by one."""
    events = _opening("connections")
    assert not of_type(events, ev.GoalDealt) and not of_type(events, ev.CardsDealt)
    assert isinstance(events[-1], ev.CardTurnedUp) and events[-1].seat == 0
    state = start("connections")
    assert state.ring == ()
    assert [len(h) for h in state.hands] == [1, 0, 0]
    assert len(state.deck) == 50 - 1 - 1


def test_every_variant_takes_2_to_5_players_and_the_strict_edges_option() -> None:
    """Rulebook: 2 to 5 players; README: every touching edge must match is an option, off by default."""
    assert [v.name for v in RULESET.variants] == ["full", "single-action", "basic", "connections"]
    for variant in RULESET.variants:
        assert (variant.min_seats, variant.max_seats) == (2, 5)
        assert RULESET.configure(variant.name, None, 2).options.strict_edges is False
        assert RULESET.configure(variant.name, {"strict_edges": True}, 2).options.strict_edges is True
    with pytest.raises(ConfigError):
        RULESET.configure("full", None, 6)


def test_the_same_seed_gives_the_same_opening() -> None:
    """Platform: chance comes only from the recorded seed."""
    assert _opening() == _opening()
    goals = [e.goal for e in of_type(_opening(seats=5), ev.GoalDealt)]
    assert sorted(g.value for g in goals) == sorted(c.value for c in COLOURS)
