"""An SVG drawing of a Seven Dragons view: the grid of 2×2-panel cards.

Drawn from the view alone (so it never shows more than the viewer may see): every
card as four coloured panels, each with its colour's letter (R, Y gold, B, G, K black,
``*`` rainbow or wild), the Silver Dragon outlined in grey, a dot marking each card's
printed top (at the bottom when the card is turned 180°); above the grid the seats with
their hand sizes and targets, the Silver Dragon's colour, the deck and the discard pile;
and, for a seat's own view, its goal and its hand. Seats have no colour in the game:
they are named by ``SEAT_COLOURS``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from domain.kernel.picture import (
    INK,
    MARK,
    SEAT_COLOURS,
    SEAT_FILL,
    Key,
    Last,
    ink_on,
    last_line,
    last_words,
    legend,
    open_svg,
    seat_name,
    text_block,
)
from domain.kernel.wording import upper_first
from domain.seven_dragons.narration import card as narrated_card
from domain.seven_dragons.narration import cell, turned

CELL = 64
"""Designed: the side of a card in pixels; a panel is half of it."""
MARGIN = 16
MIN_WIDTH = 520
"""Designed: wide enough for the legend beside a small layout, narrow enough for a phone."""

FILL = {
    "red": "#c62828",
    "gold": "#f2b705",
    "blue": "#1e5bb8",
    "green": "#2e7d32",
    "black": "#212121",
    "rainbow": "url(#rainbow)",
    "wild": "url(#silver)",
}
"""Designed: the fill of each panel colour."""
LETTER = {"red": "R", "gold": "Y", "blue": "B", "green": "G", "black": "K", "rainbow": "*", "wild": "*"}
"""The deck list's letters, written on each panel so that colour is not the only cue."""
KEY = "Panels: R red, Y gold, B blue, G green, K black, * rainbow (any colour)."
"""The key to ``LETTER`` under the table."""
PLAIN = {"rainbow": "#f5f5f5", "wild": "#d0d0d0"}
"""The colour text is contrasted against on a gradient fill."""

_DEFS = (
    "<defs>"
    '<linearGradient id="rainbow" x1="0" y1="0" x2="1" y2="1">'
    '<stop offset="0" stop-color="#c62828"/><stop offset="0.25" stop-color="#f2b705"/>'
    '<stop offset="0.5" stop-color="#2e7d32"/><stop offset="0.75" stop-color="#1e5bb8"/>'
    '<stop offset="1" stop-color="#212121"/></linearGradient>'
    '<linearGradient id="silver" x1="0" y1="0" x2="1" y2="1">'
    '<stop offset="0" stop-color="#f5f5f5"/><stop offset="0.5" stop-color="#b0b0b0"/>'
    '<stop offset="1" stop-color="#e0e0e0"/></linearGradient>'
    "</defs>"
)


def render_svg(view: Mapping[str, Any], last: Last | None = None) -> str:
    """The layout of ``view`` as a standalone SVG document; ``last`` outlines the card it placed."""
    grid = view.get("grid") or []
    empty = _empty_cells(grid)
    xs = [c["x"] for c in grid] + [x for x, _ in empty]
    ys = [c["y"] for c in grid] + [y for _, y in empty]
    left, top = min(xs), min(ys)
    colours = SEAT_COLOURS[: len(view["players"])]
    width = max((max(xs) - left + 1) * CELL + 2 * MARGIN, MIN_WIDTH)
    title, y = text_block(_title(view), MARGIN, 8, width - 2 * MARGIN, bold=True)
    caption, height = text_block(_caption(view), MARGIN, y + 8, width - 2 * MARGIN)
    parts = [title, caption]
    drawn, y = _legend(view, colours, last, y + 8 + height)
    parts.append(drawn)
    piles, y = _piles(view, y + 8)
    parts.append(piles)
    mine, y = _own(view, y)
    parts.append(mine)
    choices, y = _choices(view, y, width)
    parts.append(choices)
    words, height = last_line(last, colours, MARGIN, y, width - 2 * MARGIN)
    parts.append(words)
    y += height + 10
    spot = _placed_at(last)
    for cx, cy in empty:
        parts.append(_cell(MARGIN + (cx - left) * CELL, y + (cy - top) * CELL, cx, cy))
    for card in grid:
        x = MARGIN + (card["x"] - left) * CELL
        cy = y + (card["y"] - top) * CELL
        parts.append(_card(card, x, cy, CELL, (card["x"], card["y"]) == spot, ref=True))
    height = y + (max(ys) - top + 1) * CELL + 6
    parts.append(_text(MARGIN, height + 12, KEY, 11))
    height += 12 + MARGIN
    head = open_svg("seven-dragons", (0, 0, width, height), _title(view), _desc(view, colours, last))
    return "".join([*head, _DEFS, *parts, "</svg>"])


def card_name(card: Mapping[str, Any]) -> str:
    """A card as the narrator names it, by what it shows ("the red and gold card (red on top)",
    "Trade Goals"), never by the deck list's code."""
    number = card.get("card")
    return narrated_card(number) if isinstance(number, int) else str(card["name"]).replace("_", " ")


def _text(x: float, y: float, words: str, size: int = 12) -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{INK}">{escape(words)}</text>'


def _title(view: Mapping[str, Any]) -> str:
    if view.get("end"):
        winners = " and ".join(seat_name(s, SEAT_COLOURS[s]) for s in view["winners"]) or "nobody"
        return f"Seven Dragons, over ({view['end']}): won by {winners}"
    turn = view.get("turn")
    if turn is None:
        return "Seven Dragons"
    return f"Seven Dragons: {seat_name(turn, SEAT_COLOURS[turn])} to play"


def _caption(view: Mapping[str, Any]) -> str:
    silver = view.get("silver")
    bits = [] if silver is None else [f"Silver Dragon: {silver}"]
    bits.append(f"deck: {view.get('deck_size', 0)}")
    discard = view.get("discard") or []
    if discard:
        bits.append(f"on the discard pile: {card_name(discard[-1])}")
    return " · ".join(bits)


def _note(player: Mapping[str, Any]) -> str:
    n = player["hand_size"]
    bits = [f"{n} card{'' if n == 1 else 's'} in hand", f"target {player['target']}"]
    if "goal" in player:
        bits.append(f"goal {player['goal']} (largest group {player['group']})")
    if player["left"]:
        bits.append("left the game")
    return ", ".join(bits)


def _legend(view: Mapping[str, Any], colours: Sequence[str], last: Last | None, top: float) -> tuple[str, float]:
    """The seats' legend below ``top``, and where it ends."""
    keys = [
        Key(p["seat"], colours[p["seat"]], SEAT_FILL[colours[p["seat"]]], _note(p), p["seat"] == view.get("turn"))
        for p in view["players"]
    ]
    drawn, height = legend(keys, MARGIN, top, None if last is None else int(last["seat"]))
    return drawn, top + height


def _piles(view: Mapping[str, Any], y: float) -> tuple[str, float]:
    """The deck face down with its size, and the discard pile's top card (it gives the Silver
    Dragon its colour); and where they end."""
    half = CELL // 2 + 8
    out = [
        '<g class="piles">',
        f'<rect class="deck" x="{MARGIN}" y="{y:g}" width="{half}" height="{half}" rx="4" fill="#5b4a2f" '
        f'stroke="{INK}"/>',
        _text(MARGIN + half + 6, y + half / 2 + 4, f"deck: {view.get('deck_size', 0)}"),
    ]
    discard = view.get("discard") or []
    if discard:
        out.append(_card(discard[-1], MARGIN + 150, y, half, False))
        out.append(_text(MARGIN + 150 + half + 6, y + half / 2 + 4, f"discard pile: {card_name(discard[-1])}"))
    out.append("</g>")
    return "".join(out), y + half + 8


def _own(view: Mapping[str, Any], y: float) -> tuple[str, float]:
    """The viewer's own goal and hand, where the view holds them (a seat's own view)."""
    hand = view.get("hand")
    if view.get("you") is None or hand is None:
        return "", y
    goal = view.get("goal")
    out = ['<g class="own">', _text(MARGIN + 22, y + 12, f"Your goal: {goal or 'none'} · your hand:")]
    if goal:
        fill = FILL.get(goal, "#cccccc")
        out.append(
            f'<rect class="goal" x="{MARGIN}" y="{y}" width="16" height="16" fill="{fill}" stroke="{INK}"/>'
            f'<text x="{MARGIN + 8}" y="{y + 13}" font-size="11" text-anchor="middle" '
            f'fill="{ink_on(fill)}">{LETTER.get(goal, "")}</text>'
        )
    half = CELL // 2 + 8
    for i, card in enumerate(hand):
        out.append(_card(card, MARGIN + i * (half + 6), y + 22, half, False, ref=True))
    out.append("</g>")
    return "".join(out), y + 22 + half + 8


def _desc(view: Mapping[str, Any], colours: Sequence[str], last: Last | None) -> str:
    seats = "; ".join(f"{seat_name(p['seat'], colours[p['seat']])} {_note(p)}" for p in view["players"])
    parts = [f"{_title(view)}.", f"Seats: {seats}.", f"{_caption(view)}.", f"{len(view.get('grid') or [])} cards laid."]
    if view.get("you") is not None and view.get("hand") is not None:
        cards = ", ".join(card_name(c) for c in view["hand"]) or "no cards"
        parts.append(f"You hold {cards}; your goal is {view.get('goal') or 'none'}.")
    words = last_words(last, colours)
    return " ".join([*parts, words] if words else parts)


def _placed_at(last: Last | None) -> tuple[int, int] | None:
    move = None if last is None else last.get("move")
    if not move or not isinstance(move.get("x"), int) or not isinstance(move.get("y"), int):
        return None
    return move["x"], move["y"]


def card_words(card: Mapping[str, Any]) -> str:
    """A card's name at the start of a sentence ("The red dragon card", "Zap a Card")."""
    return upper_first(card_name(card))


def _action(card: Mapping[str, Any], x: int, y: float, size: int) -> str:
    """An Action card: its colour (what the Silver Dragon takes from it) and its name."""
    fill = FILL.get(card.get("colour", ""), "#cccccc")
    words = card_words(card).split(" ")
    lines = "".join(
        f'<tspan x="{x + size / 2:g}" y="{y + size / 2 + (i - (len(words) - 1) / 2) * 12 + 4:g}">{escape(w)}</tspan>'
        for i, w in enumerate(words)
    )
    return (
        f'<rect class="action" x="{x}" y="{y:g}" width="{size}" height="{size}" fill="{fill}"/>'
        f'<text font-size="11" text-anchor="middle" fill="{ink_on(fill)}">{lines}</text>'
    )


def _empty_cells(grid: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """The empty cells beside the layout (where a card could ever go), in reading order."""
    taken = {(c["x"], c["y"]) for c in grid}
    if not taken:
        return [(0, 0)]
    beside = {(x + dx, y + dy) for x, y in taken for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return sorted(beside - taken, key=lambda c: (c[1], c[0]))


def _cell(x: float, y: float, cx: int, cy: int) -> str:
    """An empty cell beside the layout: faint until the page lights it as a place to play."""
    return (
        f'<rect class="spot cell" data-ref="cell:{cx},{cy}" x="{x + 2:g}" y="{y + 2:g}" width="{CELL - 4}" '
        f'height="{CELL - 4}" rx="4" fill="#ffffff" fill-opacity="0" stroke="#d8d2c2" stroke-dasharray="4 4"/>'
    )


CHOICE_WORDS = {
    "pile:top": "Discard without its effect", "pile:bottom": "Put it at the bottom",
    "rotate:left": "Goals pass left", "rotate:right": "Goals pass right", "set-aside": "Set a card aside",
}  # fmt: skip
"""The board's own choices for the viewer's action cards, drawn as buttons under the hand."""
CHOICE_TITLES = {
    "set-aside": "Set a card aside: when no card in your hand can be played, choose this, then the card "
    "to put out of the game",
}
"""What a choice does, where its words alone do not say (the button's tooltip)."""


def _choices(view: Mapping[str, Any], y: float, width: float) -> tuple[str, float]:
    """Buttons for what the viewer's hand may need beyond cards, cells and seats: the discard
    pile's two ends (with an action card), Rotate Goals' directions, the unused goals (with
    Trade Goals), setting a card aside; and where they end."""
    hand = view.get("hand")
    if view.get("you") is None or not hand:
        return "", y
    names = {c["name"] for c in hand}
    refs: list[tuple[str, str]] = []
    if any(c["kind"] == "action" for c in hand):
        refs += [("pile:top", CHOICE_WORDS["pile:top"]), ("pile:bottom", CHOICE_WORDS["pile:bottom"])]
    if "rotate_goals" in names:
        refs += [("rotate:left", CHOICE_WORDS["rotate:left"]), ("rotate:right", CHOICE_WORDS["rotate:right"])]
    if "trade_goals" in names:
        unused = [slot for slot in view.get("goal_ring") or [] if slot["seat"] is None]
        refs += [(f"goal:unused:{i}", f"Unused goal {i + 1}") for i in range(len(unused))]
    refs.append(("set-aside", CHOICE_WORDS["set-aside"]))
    out, x = ['<g class="choices">'], float(MARGIN)
    for ref, words in refs:
        w = 16 + len(words) * 7.2
        if x + w > width - MARGIN:
            x, y = float(MARGIN), y + 34
        title = f"<title>{escape(CHOICE_TITLES[ref])}</title>" if ref in CHOICE_TITLES else ""
        out.append(
            f'<g class="button" data-ref="{ref}">{title}<rect x="{x:g}" y="{y:g}" width="{w:g}" height="26" rx="5" '
            f'fill="#ffffff" stroke="#9e9684"/>{_text(x + 8, y + 18, words, 13)}</g>'
        )
        x += w + 8
    out.append("</g>")
    return "".join(out), y + 34


def _card(card: Mapping[str, Any], x: int, y: float, size: int, marked: bool, ref: bool = False) -> str:
    half = size / 2
    title = card_words(card)
    if "orientation" in card:
        title += f" {cell(card['x'], card['y'])}{turned(card['orientation'])}"
    if card.get("placed_by") is not None:
        title += f", placed by {seat_name(card['placed_by'], SEAT_COLOURS[card['placed_by']])}"
    named = f' data-ref="card:{card["card"]}"' if ref else ""
    out = [f'<g class="card" data-card="{card["card"]}"{named}><title>{escape(title)}</title>']
    if card.get("kind") == "action":
        out.append(_action(card, x, y, size))
    for i, colour in enumerate(card.get("panels") or []):
        px, py = x + (i % 2) * half, y + (i // 2) * half
        name = colour or "wild"
        fill = FILL.get(name, "#cccccc")
        out.append(f'<rect class="panel" x="{px:g}" y="{py:g}" width="{half:g}" height="{half:g}" fill="{fill}"/>')
        ink = ink_on(PLAIN.get(name, fill))
        out.append(
            f'<text x="{px + half / 2:g}" y="{py + half / 2 + 4:g}" font-size="{max(half / 3, 11):g}" '
            f'text-anchor="middle" '
            f'fill="{ink}">{LETTER.get(name, "?")}</text>'
        )
    stroke, weight = ("#7a7a7a", 3.0) if card.get("kind") == "silver" else ("#5b4a2f", 1.5)
    if marked:
        stroke, weight = MARK, 4.0
    out.append(
        f'<rect x="{x}" y="{y:g}" width="{size}" height="{size}" fill="none" stroke="{stroke}" '
        f'stroke-width="{weight}" rx="4"/>'
    )
    if "orientation" in card:
        dot = y + 5 if card["orientation"] == 0 else y + size - 5
        out.append(
            f'<circle cx="{x + half:g}" cy="{dot:g}" r="2.5" fill="#ffffff" stroke="#5b4a2f" stroke-width="0.8"/>'
        )
    out.append("</g>")
    return "".join(out)
