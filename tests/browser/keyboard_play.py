"""Playing by the keyboard only: Tab to the move controls (the keyboard and screen-reader path),
the arrow keys to change a select's value, Enter or Space to press a button. No mouse, no click."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.page_text import machine_words

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


def play_to_the_end_by_keyboard(
    page: Page, most: int = 400, before_each: Callable[[Page], None] | None = None
) -> list[int]:
    """Plays the viewer's decisions by keyboard until the game ends; the Tabs each took to reach
    the move controls. ``before_each`` looks at the page as each decision's controls are shown."""
    tabs: list[int] = []
    while wait_for_controls_or_end(page):
        if before_each is not None:
            before_each(page)
        tabs.append(play_one_decision_by_keyboard(page, len(tabs)))
        assert len(tabs) < most, "the game did not end"
    return tabs


CONTROL_WORDS = """() => {
  const schema = (JSON.parse(document.getElementById("page-data").textContent).move_schema || {}).$defs || {};
  const fields = new Set(Object.values(schema).flatMap((d) => Object.keys(d.properties || {})));
  const texts = Array.from(document.querySelectorAll(
    "#controls label, #controls legend, #controls option, #controls button"),
    (e) => ({ tag: e.tagName.toLowerCase(), text: e.textContent.trim() }));
  const spaced = (names) => [...names].map((f) => f.replace(/[_-]+/g, " "));
  return { fields: spaced(fields), types: spaced(Object.keys(schema)), texts };
}"""
"""Every word of the move controls (with the move schema's field names, to tell one when read)."""
RAW_CONTROL_WORDS: dict[str, re.Pattern[str]] = {
    "a field name in snake_case": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a JSON literal": re.compile(r"\b(null|true|false)\b|[\[\]{}]"),
    "a bare coordinate": re.compile(r"\b[xy]\s*[:=]?\s*-?\d"),
    "'none'": re.compile(r"\bnone\b", re.I),
    "a bare number": re.compile(r"^-?\d+(\.\d+)?$"),
}


def control_faults(page: Page) -> list[str]:
    """What the move controls show that is not the game's words: the patterns above, the page-wide
    machine words, a label or legend that is a move field's name as the wire spells it (lower case,
    with or without a position: "cards 1"), and a legend that is a move type's ("place dragon")."""
    read = page.evaluate(CONTROL_WORDS)
    field_name = re.compile(r"^(?:" + "|".join(re.escape(f) for f in read["fields"] if f) + r")(?: \d+)?:?$")
    faults = []
    for item in read["texts"]:
        text, tag = item["text"], item["tag"]
        found = [f"{what}" for what, pattern in RAW_CONTROL_WORDS.items() if pattern.search(text)]
        found += machine_words(text)
        if tag in ("label", "legend") and read["fields"] and field_name.match(text):
            found.append("a move field's name")
        if tag == "legend" and text.split(" (")[0] in read["types"]:
            found.append("a move type's name")
        if not text:
            found.append("no words at all")
        faults += [f"<{tag}> {text!r}: {f}" for f in found]
    return faults
