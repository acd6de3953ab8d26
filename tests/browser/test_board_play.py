"""A whole game of each of the four games against a server bot, played by clicking the board only
(``board_play.py``): every decision the person makes is lit on the board and made there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.board_play import LIT, play_to_the_end_on_the_board
from tests.browser.pages import open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
Shoot = Callable[[Page, str], list[Path]]


# A move sent while the bot's move of a simultaneous phase (speeds, programmes) lands first is
# refused as "the game moved on" (409) and the page shows the game as it is now: the person plays again.
@pytest.mark.expect_http_error(409, "/moves")
@pytest.mark.parametrize(
    ("variant", "bot"),
    [
        ("tarasque/dragon-dice", "tarasque/greedy"),
        ("seven-dragons/full", "seven-dragons/greedy"),
        ("mekong/classic", "mekong/planner"),
        pytest.param(
            "drachenreiter/standard",
            "drachenreiter/racer",
            marks=pytest.mark.xfail(
                strict=False,
                reason="once in three CI runs a click's move did not land within 15 s (issue 37's note): "
                "not yet understood, so it may not turn CI red meanwhile",
            ),
        ),
    ],
)
def test_a_whole_game_is_played_by_clicking_the_board_only(
    page: Page, web_server: Server, variant: str, bot: str, shoot: Shoot
) -> None:
    sign_up(page, web_server.base, f"dee {variant.replace('/', ' ')}")
    open_table(page, variant, 2, bot=bot)
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    expect(page.locator(LIT).first).to_be_visible()
    shoot(page, f"board-play-{variant.split('/')[0]}")
    clicks = play_to_the_end_on_the_board(page)
    assert clicks, "the person made no decision"
    expect(page.locator("#outcome")).to_contain_text(re.compile(r"won|win|shared|draw", re.I))
    expect(page.locator(LIT)).to_have_count(0)
