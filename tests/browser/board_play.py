"""Playing by clicking the board only: the lit elements of the board picture (``data-ref``) and the
board's own choices under it (a move two clicks left open, "Turn it"), never the move controls."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import wait_for_turn_or_end

LIT = "#board [data-ref].pickable"
CONFIRM = "#board-pick button.confirm"
SENT = "window.DHBoard.sent()"
"""How many moves the board has sent since the page opened."""


def play_one_decision_on_the_board(page: Page, most_clicks: int = 12) -> int:
    """Makes the viewer's decision by clicking the board: the first lit element while there is one,
    else the first move the board offers to confirm; returns the clicks it took."""
    version = page.locator("#version").inner_text()
    sent = page.evaluate(SENT)
    expect(page.locator(LIT).or_(page.locator(CONFIRM)).first).to_be_visible()
    for clicks in range(1, most_clicks + 1):
        lit = page.locator(LIT)
        if lit.count():
            # force: a plank's end lies over the stone it rests on; the board takes the click at the
            # point for any lit element there, as it does a person's (elementsFromPoint)
            lit.first.click(force=True)
        else:
            page.locator(CONFIRM).first.click()
        if page.evaluate(SENT) > sent:
            expect(page.locator("#version")).not_to_have_text(version, timeout=15_000)
            return clicks
    raise AssertionError(f"no move was made in {most_clicks} clicks on the board")


def play_to_the_end_on_the_board(page: Page, most: int = 400) -> list[int]:
    """Plays the viewer's decisions on the board until the game ends; the clicks of each."""
    clicks: list[int] = []
    while wait_for_turn_or_end(page):
        clicks.append(play_one_decision_on_the_board(page))
        assert len(clicks) < most, "the game did not end"
    return clicks
