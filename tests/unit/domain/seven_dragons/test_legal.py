"""``legal_moves``: complete, accepted, canonical, and counted like perft."""

from __future__ import annotations

import json

from domain.kernel import Rng, decode, encode
from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import Action
from domain.seven_dragons.commands import Discard, DiscardAction, MoveCard, PlaceDragon, TradeGoals

from .helpers import action, dragon, play_random, start, table

RRRR = dragon("RRRR")
MOVE, TRADE_GOALS = action(Action.MOVE_A_CARD), action(Action.TRADE_GOALS)


def test_a_lone_dragon_next_to_the_wild_silver_has_eight_placements() -> None:
    """Rulebook (Connexions): four sides of the Silver Dragon, upright or turned."""
    moves = list(RULESET.legal_moves(table(hands=[[RRRR], [], []]), 0))
    assert len(moves) == 8
    assert {(m.x, m.y) for m in moves} == {(1, 0), (-1, 0), (0, 1), (0, -1)}  # type: ignore[attr-defined]


def test_trade_goals_lists_every_player_and_unused_goal_with_each_discard_and_a_plain_discard() -> None:
    """Rulebook (Trade goals, Actions): any player or unused goal; on top, at the bottom, or no effect."""
    moves = list(RULESET.legal_moves(table(hands=[[TRADE_GOALS], [], []]), 0))
    assert len(moves) == 4 * 2 + 1
    assert TradeGoals(TRADE_GOALS, unused=1, discard=Discard.BOTTOM) in moves
    assert moves[-1] == DiscardAction(TRADE_GOALS)


def test_move_a_card_lists_every_destination_and_the_turn_in_place() -> None:
    """Rulebook (Move a card) and FAQ: a new legal place, or the same place turned; never touching nothing."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE], [], []])
    moves = [m for m in RULESET.legal_moves(state, 0) if isinstance(m, MoveCard) and m.discard is Discard.TOP]
    assert {(m.x, m.y, m.orientation) for m in moves} == {
        (-1, 0, 0),
        (-1, 0, 180),
        (0, 1, 0),
        (0, 1, 180),
        (0, -1, 0),
        (0, -1, 180),
        (1, 0, 180),
    }


def test_every_listed_move_is_accepted_as_is() -> None:
    """Platform: legal_moves lists complete commands, each accepted by decide."""
    for variant in ("full", "single-action", "basic", "connections"):
        _, states = play_random(start(variant, seats=3, seed=2), seed=2)
        for n, state in enumerate(states[:-1:5]):
            seat = RULESET.awaiting(state)[0]
            moves = RULESET.legal_moves(state, seat)
            step = max(1, len(moves) // 40)
            for move in list(moves)[::step]:
                RULESET.decide(state, seat, move, Rng(b"legal", f"{n}"))
                assert move in moves


def test_in_answers_without_listing_and_refuses_what_decide_refuses() -> None:
    """Style: legal moves are lazy with a cheap ``in``."""
    moves = RULESET.legal_moves(table(hands=[[RRRR], [], []]), 0)
    assert PlaceDragon(RRRR, 1, 0, 180) in moves
    assert PlaceDragon(RRRR, 2, 0) not in moves
    assert PlaceDragon(RRRR, 1, 0, 90) not in moves
    assert "place_dragon" not in moves


def test_the_lazy_sequence_indexes_slices_and_iterates_alike() -> None:
    """Platform: legal_moves is a Sequence of commands."""
    state = table(layout=[(RRRR, 1, 0)], hands=[[MOVE, dragon("GGGG")], [], []])
    moves = RULESET.legal_moves(state, 0)
    listed = list(moves)
    assert len(moves) == len(listed) > 20
    assert [moves[i] for i in range(len(moves))] == listed
    assert moves[-1] == listed[-1] and moves[3:9] == listed[3:9]


def test_the_order_does_not_depend_on_any_cache() -> None:
    """Determinism: a state rebuilt from JSON lists the same moves in the same order."""
    state, _ = play_random(start("full", seats=3, seed=5), seed=5, limit=25)
    seat = RULESET.awaiting(state)[0]
    again = decode(type(state), json.loads(json.dumps(encode(state))))
    assert again is not state and list(RULESET.legal_moves(again, seat)) == list(RULESET.legal_moves(state, seat))


def test_in_dragon_connections_only_the_turned_up_card_is_placed() -> None:
    """Rulebook (Dragon connections): turn up a card and choose where it goes."""
    state = start("connections", seats=2)
    card = state.hands[0][0]
    assert {m.card for m in RULESET.legal_moves(state, 0)} == {card}  # type: ignore[attr-defined]
