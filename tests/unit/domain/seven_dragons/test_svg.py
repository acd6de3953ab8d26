"""The SVG drawing of a view: a grid of 2×2-panel cards."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.kernel import Viewer
from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import RAINBOW, Action
from domain.seven_dragons.svg import CELL, FILL

from .helpers import action, dragon, table

NS = "{http://www.w3.org/2000/svg}"


def _draw(state: object) -> ET.Element:
    return ET.fromstring(RULESET.render_svg(RULESET.view(state, Viewer.spectator())))  # type: ignore[arg-type]


def test_every_card_is_drawn_as_four_panels_in_its_colours() -> None:
    """Deck list: every card is a 2×2 grid of panels TL, TR, BL, BR."""
    rryy = dragon("RRYY")
    root = _draw(table(layout=[(rryy, 1, 0), (RAINBOW, 0, 1)]))
    cards = [g for g in root.iter(f"{NS}g") if g.get("class") == "card"]
    assert len(cards) == 3
    fills = {g.get("data-card"): [r.get("fill") for r in g.findall(f"{NS}rect[@class='panel']")] for g in cards}
    assert fills[str(rryy)] == [FILL["red"], FILL["red"], FILL["gold"], FILL["gold"]]
    assert fills[str(RAINBOW)] == [FILL["rainbow"]] * 4
    assert root.get("width") is None and root.get("viewBox", "").startswith("0 0 ")  # scales to its container


def test_the_silver_dragon_is_drawn_wild_or_in_the_top_discard_colour() -> None:
    """Rulebook (Dragon d'Argent): wild while the pile is empty, else the top action's colour."""
    wild = _draw(table())
    assert {r.get("fill") for r in wild.iter(f"{NS}rect") if r.get("class") == "panel"} == {FILL["wild"]}
    blue = _draw(table(discard=(action(Action.ROTATE_GOALS),)))
    assert {r.get("fill") for r in blue.iter(f"{NS}rect") if r.get("class") == "panel"} == {FILL["blue"]}
    assert "Silver Dragon: blue" in "".join(blue.itertext())


def test_a_turned_card_shows_its_printed_top_at_the_bottom() -> None:
    """README: cards turn 180°; the drawing marks each card's printed top."""
    rryy = dragon("RRYY")
    root = _draw(table(layout=[(rryy, 1, 0, 180)]))
    card = next(g for g in root.iter(f"{NS}g") if g.get("data-card") == str(rryy))
    panels = [r.get("fill") for r in card.findall(f"{NS}rect[@class='panel']")]
    assert panels == [FILL["gold"], FILL["gold"], FILL["red"], FILL["red"]]
    top = float(card.find(f"{NS}rect[@class='panel']").get("y"))  # type: ignore[union-attr, arg-type]
    assert float(card.find(f"{NS}circle").get("cy")) > top + CELL / 2  # type: ignore[union-attr, arg-type]
