"""Playing by clicking the board only: the lit elements of the board picture (``data-ref``) and the
board's own choices under it (a choice with no place on the board, a move two clicks left open),
never the move controls."""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route, expect

from tests.browser.pages import wait_for_turn_or_end

LIT = ".board-panel [data-ref].pickable"
CONFIRM = "#board-pick button.confirm"
SENT = "window.DHBoard.sent()"
"""How many moves the board has sent since the page opened."""
CLICKS = "window.DHBoard.clicks()"
"""How many clicks the board has taken (its elements and its own buttons) since the page opened."""


def click_once(page: Page) -> bool:
    """Clicks the first lit element, else the first move offered to confirm; False when what was
    found went away before the click (the board is lit anew as the game moves)."""
    lit = page.locator(LIT)
    try:
        if lit.count():
            # force: a plank's end lies over the stone it rests on; the board takes the click at the
            # point for any lit element there, as it does a person's (elementsFromPoint)
            lit.first.click(force=True, timeout=2_000)
        else:
            page.locator(CONFIRM).first.click(timeout=2_000)
    except PlaywrightError:
        return False
    return True


def play_one_decision_on_the_board(page: Page, most_clicks: int = 12) -> int:
    """Makes the viewer's decision by clicking the board: the first lit element while there is one,
    else the first move the board offers to confirm; returns the clicks it took."""
    version = page.locator("#version").inner_text()
    sent = page.evaluate(SENT)
    ended = page.locator("#outcome:not([hidden])")
    expect(page.locator(LIT).or_(page.locator(CONFIRM)).or_(ended).first).to_be_visible(timeout=30_000)
    if ended.is_visible():
        return 0  # the game ended as the turn came: nothing to play
    clicks = 0
    for _ in range(most_clicks * 2):
        if not click_once(page):
            continue  # the board was lit again under the pointer: look again
        clicks += 1
        if page.evaluate(SENT) > sent:
            expect(page.locator("#version")).not_to_have_text(version, timeout=15_000)
            return clicks
    raise AssertionError(f"no move was made in {most_clicks} clicks on the board")


def play_to_the_end_on_the_board(page: Page, most: int = 400) -> list[int]:
    """Plays the viewer's decisions on the board until the game ends; the clicks of each."""
    clicks: list[int] = []
    while wait_for_turn_or_end(page):
        made = play_one_decision_on_the_board(page)
        if made:
            clicks.append(made)
        assert len(clicks) < most, "the game did not end"
    return clicks


def hold_a_move_from_the_board(page: Page) -> list[Route]:
    """Makes the viewer's decision on the board and holds its ``POST /moves`` in flight: the routes
    held, to ``continue_()`` (then ``unroute``) once the test has looked at the page meanwhile."""
    held: list[Route] = []
    page.route("**/api/v1/games/*/moves", lambda route: held.append(route))
    sent = page.evaluate(SENT)
    for _ in range(12):
        if page.evaluate(SENT) > sent:
            break
        click_once(page)
    for _ in range(100):  # the board has sent it: its request reaches the route a moment later
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "no move was sent from the board"
    return held
