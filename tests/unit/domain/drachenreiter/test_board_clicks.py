"""Setting a speed on the board: one click, even with magic cards in hand.

A magic card laid with the speed is clicked first, then the speed; so a speed alone is not the
beginning of a speed with a card, and the page plays it at its one click instead of asking to
confirm it (``domain.kernel.pointing``).
"""

from __future__ import annotations

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import SetSpeed

from .helpers import dragon, new_race


def test_a_speed_alone_is_one_click_and_a_laid_card_comes_before_its_speed() -> None:
    state = dragon(new_race(), 0, hand=(Magic.LASSO, Magic.AMULET))
    ways = {move: RULESET.point(state, 0, move).ways for move in RULESET.legal_moves(state, 0)}
    assert {type(m) for m in ways} == {SetSpeed} and any(m.card for m in ways)
    made = {way: move for move, all_ways in ways.items() for way in all_ways}
    for way, move in made.items():
        assert way[-1] == f"speed:{move.speed}"
        assert len(way) == (1 if move.card is None else 2)
        assert all(way[:k] not in made for k in range(1, len(way))), f"{way[:-1]} already makes a move"
