"""Playing Seven Dragons on its board: the common move takes two clicks, and none waits for a third.

An action card played for its effect goes on top of the discard pile, as it usually does: the card,
then what it acts on. Putting it at the bottom (the Silver Dragon keeps its colour) is said before
the target, and discarding it without its effect is the pile's top alone. So no move's clicks begin
another's, and the page plays each at its last click (``domain.kernel.pointing``).
"""

from __future__ import annotations

from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import Action
from domain.seven_dragons.commands import Discard, DiscardAction, MoveCard, PlaceDragon

from .helpers import action, dragon, table

ZAP, TRADE_GOALS, ROTATE, MOVE, TRADE_HANDS = (action(a) for a in Action)


def _ways() -> dict[object, tuple[tuple[str, ...], ...]]:
    hand = [ZAP, TRADE_GOALS, ROTATE, MOVE, TRADE_HANDS, dragon("GGGG")]
    state = table(hands=[hand, [dragon("BBBB")], [dragon("KKKK")]], layout=[(dragon("RRRR"), 1, 0)])
    return {move: RULESET.point(state, 0, move).ways for move in RULESET.legal_moves(state, 0)}


def test_an_action_played_on_top_takes_the_card_and_its_target_and_at_the_bottom_one_click_more() -> None:
    ways = _ways()
    played = {m: w for m, w in ways.items() if hasattr(m, "discard") and not isinstance(m, DiscardAction)}
    assert {m.discard for m in played} == {Discard.TOP, Discard.BOTTOM}
    for move, made in played.items():
        longest = 3 if isinstance(move, MoveCard) else 2
        for way in made:
            if move.discard is Discard.TOP:
                assert len(way) == longest and "pile:top" not in way and "pile:bottom" not in way, (move, way)
            else:
                assert len(way) == longest + 1 and way[1] == "pile:bottom", (move, way)
    discards = [w for m, w in ways.items() if isinstance(m, DiscardAction)]
    assert discards and all(way == (f"card:{way[0][5:]}", "pile:top") for made in discards for way in made)


def test_no_move_s_clicks_begin_another_move_s() -> None:
    ways = _ways()
    assert any(isinstance(m, PlaceDragon) for m in ways)
    made = {way: move for move, all_ways in ways.items() for way in all_ways}
    for way, move in made.items():
        for k in range(1, len(way)):
            other = made.get(way[:k])
            assert other is None, f"{move}: clicking {way[:k]} already makes {other}"


def test_only_a_card_thrown_away_unplayed_asks_for_its_last_click() -> None:
    """The page plays a move once the clicks made leave only it; discarding an action card without
    its effect is asked for whole (its pose says ``confirm``), so a card clicked to see what it
    can do is never lost by that click."""
    hand = [ZAP, TRADE_GOALS, ROTATE, MOVE, TRADE_HANDS, dragon("GGGG")]
    state = table(hands=[hand, [dragon("BBBB")], [dragon("KKKK")]], layout=[(dragon("RRRR"), 1, 0)])
    asking = {m for m in RULESET.legal_moves(state, 0) if (RULESET.point(state, 0, m).pose() or {}).get("confirm")}
    assert asking and asking == {m for m in RULESET.legal_moves(state, 0) if isinstance(m, DiscardAction)}
