"""An SVG drawing of a Seven Dragons view: the grid of 2×2-panel cards.

Drawn from the view alone (so it never shows more than the viewer may see):
every card as four coloured panels, the Rainbow and a wild Silver Dragon in
their own fills, a dot marking each card's printed top (at the bottom when the
card is turned 180°), and a caption with the Silver Dragon's colour, the deck
and the discard pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

CELL = 64
"""Designed: the side of a card in pixels; a panel is half of it."""
MARGIN = 16
CAPTION = 28

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


def render_svg(view: Mapping[str, Any]) -> str:
    """The layout of ``view`` as a standalone SVG document."""
    grid = view.get("grid") or []
    xs = [c["x"] for c in grid] or [0]
    ys = [c["y"] for c in grid] or [0]
    left, top = min(xs), min(ys)
    width = (max(xs) - left + 1) * CELL + 2 * MARGIN
    height = (max(ys) - top + 1) * CELL + 2 * MARGIN + CAPTION
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        _DEFS,
        f'<rect width="{width}" height="{height}" fill="#f4efe1"/>',
        f'<text x="{MARGIN}" y="{MARGIN + 8}" font-family="sans-serif" font-size="12">{escape(_caption(view))}</text>',
    ]
    for card in grid:
        x = MARGIN + (card["x"] - left) * CELL
        y = MARGIN + CAPTION + (card["y"] - top) * CELL
        parts.append(_card(card, x, y))
    parts.append("</svg>")
    return "".join(parts)


def _caption(view: Mapping[str, Any]) -> str:
    silver = view.get("silver")
    bits = [] if silver is None else [f"Silver Dragon: {silver}"]
    bits.append(f"deck: {view.get('deck_size', 0)}")
    discard = view.get("discard") or []
    if discard:
        bits.append(f"discard top: {discard[-1]['name']}")
    return " · ".join(bits)


def _card(card: Mapping[str, Any], x: int, y: int) -> str:
    half = CELL // 2
    title = f"{card['name']} ({card['x']}, {card['y']}) {card['orientation']}°"
    if card.get("placed_by") is not None:
        title += f", placed by seat {card['placed_by']}"
    out = [f'<g class="card" data-card="{card["card"]}"><title>{escape(title)}</title>']
    for i, colour in enumerate(card["panels"]):
        px, py = x + (i % 2) * half, y + (i // 2) * half
        fill = FILL.get(colour or "wild", "#cccccc")
        out.append(f'<rect class="panel" x="{px}" y="{py}" width="{half}" height="{half}" fill="{fill}"/>')
    stroke, weight = ("#7a7a7a", 3) if card.get("kind") == "silver" else ("#5b4a2f", 1.5)
    out.append(
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="{stroke}" '
        f'stroke-width="{weight}" rx="4"/>'
    )
    top = y + 5 if card["orientation"] == 0 else y + CELL - 5
    out.append(f'<circle cx="{x + half}" cy="{top}" r="2.5" fill="#ffffff" stroke="#5b4a2f" stroke-width="0.8"/>')
    out.append("</g>")
    return "".join(out)
