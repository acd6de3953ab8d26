"""The SVG drawing of a view: a grid of 2×2-panel cards."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

from domain.kernel import Viewer
from domain.kernel.picture import MARK
from domain.seven_dragons import RULESET
from domain.seven_dragons.cards import RAINBOW, Action, Colour
from domain.seven_dragons.state import End, Phase
from domain.seven_dragons.svg import CELL, FILL, KEY
from tests.support.pictures import accessible, description, last, last_words

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


def _picture(state: object, viewer: Viewer, last: dict[str, object] | None = None) -> str:
    return RULESET.render_svg(RULESET.view(state, viewer), last)  # type: ignore[arg-type]


def test_a_seat_sees_its_own_hand_and_goal_and_a_spectator_sees_neither() -> None:
    """Rulebook: a seat's hand and goal card are its own; the picture draws what the view holds."""
    hand = [dragon("RRYY"), dragon("KGKG"), action(Action.ROTATE_GOALS)]
    state = table(seats=2, hands=[hand, [dragon("BBKK")]], goals=[Colour.GREEN, Colour.BLUE])
    own = accessible(_picture(state, Viewer.of(0)), 2)
    drawn = {g.get("data-card") for g in own.iter(f"{NS}g") if g.get("class") == "card"}
    assert {str(c) for c in hand} <= drawn and str(dragon("BBKK")) not in drawn
    assert "Your goal: green" in "".join(own.itertext()) and (
        "You hold the red and gold card (red on top), the black and green card (black on the left), Rotate Goals"
    ) in description(own)
    for viewer in (Viewer.spectator(), Viewer.of(1)):
        text = _picture(state, viewer).replace(KEY, "")  # the key names every colour, for everyone
        shown = {g.get("data-card") for g in accessible(text, 2).iter(f"{NS}g") if g.get("class") == "card"}
        assert not shown & {str(c) for c in hand}
        assert "green" not in text and "red and gold" not in text  # seat 1's goal and its hand, by name


def test_the_legend_names_the_seat_to_play_and_the_card_placed_last_is_outlined() -> None:
    rryy = dragon("RRYY")
    state = table(seats=3, layout=[(rryy, 1, 0, 0, 2)], turn=0)
    root = accessible(
        _picture(state, Viewer.spectator(), last(2, {"type": "place_dragon", "card": rryy, "x": 1, "y": 0})), 3
    )
    card = next(g for g in root.iter(f"{NS}g") if g.get("data-card") == str(rryy))
    assert any(r.get("stroke") == MARK for r in card.iter(f"{NS}rect"))
    assert "seat 3 (brown) played place dragon (card" in last_words(root)
    bold = [
        g.get("data-seat") for g in root.iter(f"{NS}g") if g.get("class") == "seat" and "▶" in "".join(g.itertext())
    ]
    assert bold == ["0"] and "Seven Dragons: seat 1 (teal) to play" in description(root)


def test_a_finished_board_names_its_winners_and_each_card_s_player_by_seat_and_colour() -> None:
    """The platform writes a player's name over "seat N (colour)" (``services.reads.board_names``): a
    seat written any other way ("won by seat 2") would reach the page as a bare number."""
    rryy = dragon("RRYY")
    state = replace(table(seats=3, layout=[(rryy, 1, 0, 0, 1)]), phase=Phase.OVER, winners=(1, 2), end=End.GOAL)
    root = _draw(state)
    title = "".join(next(root.iter(f"{NS}title")).itertext())
    assert title == "Seven Dragons, over (goal completed): won by seat 2 (orange) and seat 3 (brown)"
    card = next(g for g in root.iter(f"{NS}g") if g.get("data-card") == str(rryy))
    assert "placed by seat 2 (orange)" in "".join(next(card.iter(f"{NS}title")).itertext())


def test_a_card_s_title_names_it_in_words_with_its_cell_and_way_up_never_by_code() -> None:
    """A person hovering a card reads what the log would say of it, not the deck list's code,
    coordinates or an angle (``KGYR (-2, -2) 180°``)."""
    kgyr = dragon("KGYR")
    state = table(seats=2, layout=[(kgyr, -2, -2, 180, 0)], hands=[[dragon("GGBB")], []])
    root = accessible(_picture(state, Viewer.of(0)), 2)
    titles = ["".join(t.itertext()) for t in root.iter(f"{NS}title")]
    placed = next(t for g in root.iter(f"{NS}g") if g.get("data-card") == str(kgyr) for t in g.iter(f"{NS}title"))
    assert "".join(placed.itertext()) == (
        "The black, green, gold and red card (in quarters) 2 left and 2 up from the centre, turned round, "
        "placed by seat 1 (teal)"
    )
    words = " ".join([*titles, description(root)])
    assert not re.search(r"\b[RYBGK*]{4}\b|°|\(-?\d+, -?\d+\)|_", words), words


def test_the_panels_letters_are_explained_under_the_table() -> None:
    """Colour is not a panel's only cue: its letter is, and the key under the table says each."""
    state = table(seats=2, layout=[(dragon("KGYR"), 1, 0)])
    text = " ".join(accessible(_picture(state, Viewer.spectator()), 2).itertext())
    assert "Panels: R red, Y gold, B blue, G green, K black, * rainbow (any colour)." in text


def test_the_set_aside_button_says_when_it_applies() -> None:
    """Rulebook: a card is set aside only when no card of the hand can be played; the button's words
    alone ("Set a card aside") do not say so, so its tooltip does."""
    root = ET.fromstring(_picture(table(hands=[[dragon("RRYY")], [], []]), Viewer.of(0)))
    button = next(g for g in root.iter(f"{NS}g") if g.get("data-ref") == "set-aside")
    title = button.find(f"{NS}title")
    assert title is not None and "when no card in your hand can be played" in (title.text or "")
