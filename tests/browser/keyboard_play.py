"""Playing by the keyboard only: Tab to the move controls (the keyboard and screen-reader path),
the arrow keys to change a select's value, Enter or Space to press a button. No mouse, no click."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

SENT = "Number(document.getElementById('play').dataset.sent || 0)"
"""How many moves the page has sent since it opened (the board's and the controls')."""
FOCUSED = """() => {
  const a = document.activeElement;
  const inControls = !!(a && a.closest && a.closest("#controls"));
  return { inControls, tag: a ? a.tagName : "", disabled: !!(a && a.disabled),
           options: a && a.tagName === "SELECT" ? a.options.length : 0, index: a ? a.selectedIndex : -1 };
}"""
"""Where the focus is: in the move controls or not, on which kind of element, usable or not."""


def focused(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(FOCUSED))


def play_one_decision_by_keyboard(page: Page, turn: int, most_keys: int = 150) -> int:
    """Makes the viewer's decision with the keyboard: Tab until a move control has the focus, the
    arrow key down once in a select that offers more than one value (on every other decision, so
    the first value is played too), then Enter or Space on a button (by turns). Returns how many
    Tabs it took to reach the controls: 0 when the focus was already on them."""
    version = page.locator("#version").inner_text()
    sent = page.evaluate(SENT)
    tabs, reached, moved = 0, None, False
    for _ in range(most_keys):
        at = focused(page)
        if at["inControls"] and reached is None:
            reached = tabs
        if at["inControls"] and at["tag"] == "SELECT" and at["options"] > 1 and turn % 2 and not moved:
            page.keyboard.press("ArrowDown")
            moved = True
        elif at["inControls"] and at["tag"] == "BUTTON" and not at["disabled"]:
            page.keyboard.press("Space" if turn % 2 else "Enter")
            if page.evaluate(SENT) > sent:
                expect(page.locator("#version")).not_to_have_text(version, timeout=15_000)
                return reached or 0
            continue  # the controls were drawn anew under the key: look again
        page.keyboard.press("Tab")
        tabs += 1
    raise AssertionError(f"no move was made in {most_keys} keys")


def wait_for_controls_or_end(page: Page) -> bool:
    """Waits until a move control may be used (True; the controls of a move just sent stay, disabled,
    until the game's next line) or the game has ended (False)."""
    usable = page.locator("#controls button:enabled, #controls select:enabled").first
    ended = page.locator("#outcome:not([hidden])")
    expect(usable.or_(ended)).to_be_visible(timeout=30_000)
    return not ended.is_visible()


def play_to_the_end_by_keyboard(page: Page, most: int = 400) -> list[int]:
    """Plays the viewer's decisions by keyboard until the game ends; the Tabs each took to reach
    the move controls."""
    tabs: list[int] = []
    while wait_for_controls_or_end(page):
        tabs.append(play_one_decision_by_keyboard(page, len(tabs)))
        assert len(tabs) < most, "the game did not end"
    return tabs
