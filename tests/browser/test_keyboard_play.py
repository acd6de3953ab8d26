"""A whole game of each of the four games against a server bot, played by the keyboard only
(``keyboard_play.py``): Tab, the arrow keys, Enter and Space through the move controls, the path a
keyboard or screen-reader user takes. Once the keyboard has reached the controls, each later
decision finds the focus already there, though the controls are drawn anew at every turn.

At every decision, every label, legend, option and button of the controls reads in the game's words
(``control_faults``), never a move's type or field name ("place dragon", "orientation", "cards 1"), a
JSON literal, a bare coordinate ("x -1"), a bare number or "none": the keyboard's game is also
where the controls' words are read (``test_page_text.py`` reads the other pages' words)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keyboard_play import control_faults, play_to_the_end_by_keyboard
from tests.browser.pages import WHOLE_GAMES, open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
Shoot = Callable[[Page, str], list[Path]]


# A move sent while the bot's move of a simultaneous phase lands first is refused as "the game moved
# on" (409) and the page shows the game as it is now: the person plays again.
@pytest.mark.expect_http_error(409, "/moves")
@pytest.mark.parametrize(
    ("variant", "bot"),
    WHOLE_GAMES,
)
def test_a_whole_game_is_played_by_the_keyboard_only(
    page: Page, web_server: Server, variant: str, bot: str, shoot: Shoot
) -> None:
    sign_up(page, web_server.base, f"kay {variant.replace('/', ' ')}")
    open_table(page, variant, 2, bot=bot)
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    faults: dict[str, int] = {}

    def read_the_controls(page: Page) -> None:
        for fault in control_faults(page):
            faults[fault] = faults.get(fault, 0) + 1

    tabs = play_to_the_end_by_keyboard(page, before_each=read_the_controls)
    assert tabs, "the person made no decision"
    assert not faults, f"{len(faults)} kinds of raw words in the move controls:\n" + "\n".join(
        f"{n}x {f}" for f, n in list(faults.items())[:60]
    )
    assert tabs[0] > 0, "the page opened with the focus in the move controls: the test did not tab there"
    later = [n for n in tabs[1:] if n]
    assert not later, f"the focus left the move controls between decisions ({len(later)} of {len(tabs) - 1})"
    expect(page.locator("#outcome")).to_contain_text(re.compile(r"won|win|shared|draw", re.I))
    expect(page.locator("#controls button, #controls select")).to_have_count(0)
    shoot(page, f"keyboard-play-{variant.split('/')[0]}")
