"""What a player must see of the board on a phone (375×812), in Chromium, as the page opens and
as a decision comes: the board's box scrolls to what the decision is made with (a Mékong
programme's cards lie below the river), opens on the viewer's own dragon (a Drachenreiter track
is larger than the screen), and says in words when it is larger than its box; and the move
panel says the move was played as soon as its answer is back, not "sending" until the next
line of the game comes."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.board_play import LIT, play_one_decision_on_the_board
from tests.browser.pages import open_table, sign_up, wait_for_turn_or_end
from tests.support.processes import Server

pytestmark = pytest.mark.slow
PHONE = {"width": 375, "height": 812}

IN_VIEW = """(selector) => {
  const box = document.querySelector("#board").getBoundingClientRect();
  const seen = (r) => r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 &&
    r.top >= Math.max(box.top, 0) - 1 && r.bottom <= Math.min(box.bottom, innerHeight) + 1;
  const found = [...document.querySelectorAll(selector)];
  return found.length ? found.filter((e) => !seen(e.getBoundingClientRect())).length : -1;
}"""
"""How many of the elements ``selector`` finds lie outside what the person sees of the board's
box (the box's part inside the window); -1 when none is found."""


def assert_in_view(page: Page, selector: str, what: str) -> None:
    """Waits (up to 5 s) for every element ``selector`` finds to lie in the board's box in view: the
    page scrolls the box after a redraw or a resize, on a later frame, not at once."""
    try:
        page.wait_for_function(f"() => ({IN_VIEW})({json.dumps(selector)}) === 0", timeout=5000)
    except PlaywrightTimeout:
        raise AssertionError(f"{what}: {page.evaluate(IN_VIEW, selector)} outside the box in view") from None


OVERFLOWS = """() => { const b = document.querySelector("#board");
  return b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1; }"""


def on_a_phone(page: Page, base: str, name: str, variant: str, bot: str) -> None:
    page.set_viewport_size(PHONE)
    sign_up(page, base, name)
    open_table(page, variant, 2, bot=bot)
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"


def test_a_mekong_programmes_cards_are_in_view_on_a_phone_when_they_are_to_be_chosen(
    page: Page, web_server: Server
) -> None:
    on_a_phone(page, web_server.base, "dee mekong phone", "mekong/classic", "mekong/planner")
    cards = ".board-panel [data-ref^='hand:'].pickable"
    expect(page.locator(cards).first).to_be_visible()
    expect(page.locator("#board-pick")).to_contain_text("Choose on the board")
    assert_in_view(page, cards, "cards to programme lie outside the board's box in view")
    page.set_viewport_size({"width": 1440, "height": 900})  # all of the board in view: its box is not scrolled
    page.set_viewport_size(PHONE)  # the phone turned back: the cards are brought back into view
    assert_in_view(page, cards, "after a resize the cards lie outside the board's box in view")
    page.locator(cards).first.click()
    assert_in_view(page, cards, "the board's box moved the cards away after a click")


def test_a_drachenreiter_board_opens_on_the_viewers_dragon_on_a_phone(page: Page, web_server: Server) -> None:
    on_a_phone(page, web_server.base, "dee dragon phone", "drachenreiter/standard", "drachenreiter/racer")
    page.reload()  # the board as the page opens it, not as the first decision left it
    expect(page.locator("#board svg")).to_be_visible()
    mine = page.locator("#board [data-focus]")
    expect(mine).to_have_count(1)
    expect(mine).to_have_text("1")  # the person opened the table: the first seat's dragon
    assert_in_view(page, "#board [data-focus]", "the viewer's dragon is off the board's box")
    assert page.evaluate(OVERFLOWS)
    expect(page.locator(".board-cue")).to_contain_text("larger than its box")


@pytest.mark.parametrize(("variant", "bot"), [("seven-dragons/full", "seven-dragons/greedy")])
def test_a_board_larger_than_its_box_on_a_phone_says_so(page: Page, web_server: Server, variant: str, bot: str) -> None:
    on_a_phone(page, web_server.base, "dee seven phone", variant, bot)
    expect(page.locator(LIT).first).to_be_visible()
    assert page.evaluate(OVERFLOWS), "the board fits its box: nothing to say"
    cue = page.locator(".board-cue")
    expect(cue).to_be_visible()
    expect(cue).to_contain_text(re.compile(r"larger than its box: drag or scroll it"))
    page.set_viewport_size({"width": 1440, "height": 900})
    if not page.evaluate(OVERFLOWS):
        expect(cue).to_be_hidden()


def test_a_phone_shows_the_whole_board_at_the_viewers_wish_and_it_is_played_on_so(
    page: Page, web_server: Server
) -> None:
    """The button "Show the whole board" shrinks the board to its box (it no longer scrolls), is remembered
    from page to page, and the board so shown is played on by clicks as at its full size."""
    on_a_phone(page, web_server.base, "dee whole board", "tarasque/dragon-dice", "tarasque/greedy")
    expect(page.locator(LIT).first).to_be_visible()
    assert page.evaluate(OVERFLOWS), "the board fits its box on a phone: nothing to show whole"
    page.get_by_role("button", name="Show the whole board").click()
    full_size = page.get_by_role("button", name="Show the board at its full size")
    expect(full_size).to_be_visible()
    page.wait_for_function(f"() => !({OVERFLOWS})()", timeout=5000)
    page.reload()
    expect(full_size).to_be_visible()  # remembered: the next page shows its board whole too
    page.wait_for_function(f"() => !({OVERFLOWS})()", timeout=5000)
    assert play_one_decision_on_the_board(page) > 0
    full_size.click()
    expect(page.get_by_role("button", name="Show the whole board")).to_be_visible()
    page.wait_for_function(OVERFLOWS, timeout=5000)


HOLD_LINES = """(() => {
  const add = EventSource.prototype.addEventListener;
  window.heldLines = []; window.holdLines = false;
  EventSource.prototype.addEventListener = function (type, fn, options) {
    if (type !== "game" && type !== "events") return add.call(this, type, fn, options);
    const held = (m) => { if (window.holdLines) window.heldLines.push(() => fn(m)); else fn(m); };
    return add.call(this, type, held, options);
  };
})();"""
"""A stream whose lines a test holds back (``holdLines``) and lets go (``heldLines``): a slow line."""


def test_the_move_panel_says_the_move_was_played_once_its_answer_is_back(page: Page, web_server: Server) -> None:
    page.add_init_script(HOLD_LINES)
    sign_up(page, web_server.base, "dee sent move")
    open_table(page, "tarasque/dragon-dice", 2, bot="tarasque/greedy")
    assert wait_for_turn_or_end(page), "the game ended before the person's first decision"
    turn = page.locator("#turn")
    expect(turn).to_contain_text("Choose one of")
    page.evaluate("window.holdLines = true")
    group = page.locator("#controls fieldset").first
    play = group.get_by_role("button", name=re.compile(r"^Play "))
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as answer:
        (play if play.count() else group.get_by_role("button").first).click()
    assert answer.value.status == 201, answer.value.text()
    expect(turn).not_to_contain_text("Sending")
    expect(turn).to_contain_text(re.compile(r"^Your move was played\. (Your turn|Waiting for )"))
    page.evaluate("window.holdLines = false; window.heldLines.splice(0).forEach((f) => f())")
    expect(turn).not_to_contain_text("Your move was played")
