"""render_svg(): the board of a view as a standalone SVG document.

Drawn from the view alone (so it shows exactly what the viewer may see): the water,
the villages in their colours, the islands, the stones, the planks in their colours
with their sizes, and the pawns; below it the seats' legend, the card being resolved
and, for a seat's own view, its programme. A plank's size sits in a white badge at its
middle and a pawn on a plank stands beside that badge, so the size stays readable; a
pawn has a white ring and its colour's initial, so it stays visible in its own
village, which has its colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from domain.kernel.picture import (
    INK,
    MARK,
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
from domain.mekong.narration import card, plank, stone, support

FILL = {
    "yellow": "#f2c916", "red": "#d7263d", "green": "#2a9d4b", "blue": "#1f5fbf",
    "black": "#222222", "white": "#f4f4f4", "pink": "#ef7fb6",
}  # fmt: skip
"""Designed: the drawing colour of each player colour."""
WATER, SAND, STONE = "#8cc7e8", "#e3c98f", "#8d8d8d"
MARGIN = 6.0
SCALE = 2.6
"""Designed: pixels per board unit, so the board's text is drawn in the legend's units."""
PAWN = 2.6
SMALLEST = 4.4
"""Designed: the least font size on the river, in board units: 11.4 px at ``SCALE`` and scale 1."""
HALO = 1.2
"""Designed: the width of the white outline round an island's number, in board units, so that it
reads on a grey stone or a black plank's end."""
PAWN_SHIFT = 7.0
"""How far a pawn on a plank stands from the plank's middle, across the plank."""


def render_svg(view: Mapping[str, Any], last: Last | None = None) -> str:
    """The board of ``view``; ``last`` outlines the plank or stone it touched."""
    board = view["board"]
    r = float(board["radius"]) + MARGIN
    side = 2 * r * SCALE
    colours = [s["colour"] for s in view["seats"]]
    points = {v["name"]: (v["x"], v["y"]) for v in board["villages"]}
    points.update({s["name"]: (s["x"], s["y"]) for s in view["stones"]})
    touched = _touched(last)
    heading, top = text_block(_title(view), 12, 6, side - 24, bold=True)
    parts = [
        f'<g class="board" data-frame="river" '
        f'transform="translate({side / 2:g} {side / 2 + top + 6:g}) scale({SCALE:g})">',
        f'<circle cx="0" cy="0" r="{board["radius"]}" fill="{WATER}" stroke="{INK}" stroke-width="0.6"/>',
    ]
    for v in board["villages"]:
        fill = FILL.get(v["name"], SAND)
        parts.append(
            _disc(v["x"], v["y"], board["village_radius"], fill, f"the {v['name']} village", ref=f"spot:{v['name']}")
        )
    for i in board["islands"]:
        parts.append(_island(i, board["island_radius"]))
    for s in view["stones"]:
        marked = s["name"] in touched
        parts.append(
            _disc(s["x"], s["y"], board["stone_radius"], STONE, stone(s["name"]), marked, ref=f"spot:{s['name']}")
        )
    for p in view["planks"]:
        parts.append(_plank(p, points, p["plank"] in touched))
    parts.append(_numbers(board["islands"], view["stones"]))
    parts.extend(_pawns(view, points))
    parts.append("</g>")
    y = side + top + 14
    keys = [
        Key(i, s["colour"], FILL.get(s["colour"], SAND), _note(s), i in view["awaiting"])
        for i, s in enumerate(view["seats"])
    ]
    drawn, height = legend(keys, 16, y, None if last is None else int(last["seat"]))
    parts.append(drawn)
    y += height + 8
    pieces, y = _pieces(view, y, min(side, HAND_WIDTH))
    parts.append(pieces)
    for line in _programmes(view):
        block, height = text_block(line, 16, y, side - 32)
        parts.append(block)
        y += height
    words, height = last_line(last, colours, 16, y + 4, side - 32)
    parts.append(words)
    y += height + 12
    head = open_svg("mekong", (0, 0, side, y), _title(view), _desc(view, colours, last))
    return "\n".join([*head, heading, *parts, "</svg>"]) + "\n"


def round_played(view: Mapping[str, Any]) -> int:
    """The round as people read it: never past the round limit. The state (and its view) counts on
    to the limit plus one once the last round has ended, ``RoundEnded`` opening the next round before
    ``RoundLimitReached`` ends the game; that count stays, as recorded games hash their states and
    the learning environments mirror the view, but a game over at the limit reads "round 30 of 30"."""
    return min(int(view["round"]), int(view["round_limit"]))


def _title(view: Mapping[str, Any]) -> str:
    head = f"Les Dragons du Mékong, round {round_played(view)} of {view['round_limit']}, {view['phase']}"
    if view["winner"] is not None:
        return f"{head}: {view['winner']} wins"
    if view["card"] is not None:
        return f"{head}: {card(view['card'])}"
    return head


def _note(seat: Mapping[str, Any]) -> str:
    spot = support(seat["pawn"]) if seat["pawn"] else "not on the board"
    bits = [f"from {seat['start']} to {seat['destination']}, pawn at {spot}", f"{seat['programmed']} cards programmed"]
    if seat["left"]:
        bits.append("left the game")
    return ", ".join(bits)


def _programmes(view: Mapping[str, Any]) -> list[str]:
    """The programmes the view shows face up (the viewer's own, and cards already revealed),
    a line each."""
    shown = []
    for i, seat in enumerate(view["seats"]):
        cards = [card(c) if c is not None else "face down" for c in seat["programme"]]
        if any(c is not None for c in seat["programme"]):
            shown.append(f"Programme of {seat_name(i, seat['colour'])}: {', '.join(cards)}")
    return shown


def _desc(view: Mapping[str, Any], colours: Sequence[str], last: Last | None) -> str:
    seats = "; ".join(f"{seat_name(i, s['colour'])} {_note(s)}" for i, s in enumerate(view["seats"]))
    planks = ", ".join(
        f"{plank(p['plank'])} ({support(p['ends'][0])} to {support(p['ends'][1])})" for p in view["planks"]
    )
    parts = [f"{_title(view)}.", f"Seats: {seats}.", f"Planks: {planks or 'none'}.", f"{len(view['stones'])} stones."]
    parts.extend(f"{line}." for line in _programmes(view))
    words = last_words(last, colours)
    return " ".join([*parts, words] if words else parts)


def _touched(last: Last | None) -> set[str]:
    """The planks and stones the last decision named: placed, removed, walked or jumped over."""
    move = None if last is None else last.get("move")
    if not move:
        return set()
    named = [move.get(k) for k in ("plank", "stone", "island", "over", "to")]
    path = move.get("path")
    if isinstance(path, list):
        named += path
    return {n for n in named if isinstance(n, str)}


def _disc(
    x: float, y: float, radius: float, fill: str, title: str, marked: bool = False, stroke: bool = True, ref: str = ""
) -> str:
    line = f' stroke="{INK}" stroke-width="0.4"' if stroke else ""
    if marked:
        line = f' stroke="{MARK}" stroke-width="1.2"'
    named = f' data-ref="{escape(ref)}"' if ref else ""
    return f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}"{line}{named}><title>{escape(title)}</title></circle>'


def island_number(name: str) -> str:
    """An island's label on the board: its number ("i16" is island 16)."""
    return name[1:] if name[:1] == "i" else name


def _island(island: Mapping[str, Any], radius: float) -> str:
    """An island, without its number: that is drawn over the stones and planks (``_numbers``)."""
    x, y, name = island["x"], island["y"], island["name"]
    return (
        f'<g class="island" data-ref="island:{escape(name)}"><title>island {escape(island_number(name))}</title>'
        f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{SAND}"/></g>'
    )


def _numbers(islands: Sequence[Mapping[str, Any]], stones: Sequence[Mapping[str, Any]]) -> str:
    """Every island's number, and in the challenge variant every dropped stone's, drawn above the
    stones and the planks' ends with a white halo: the log, the steps and the move controls name
    them by number ("place a stone on island 6"), so a stone must never hide it. Clicks pass
    through to the island, stone or plank beneath."""
    named = [(i["x"], i["y"], island_number(i["name"])) for i in islands]
    if not islands:
        named += [(s["x"], s["y"], s["name"][1:]) for s in stones]
    labels = "".join(
        f'<text x="{x}" y="{y + 1.6:.1f}" font-size="{SMALLEST:g}" text-anchor="middle" fill="{INK}" '
        f'stroke="#ffffff" stroke-width="{HALO:g}" stroke-linejoin="round" paint-order="stroke">{escape(n)}</text>'
        for x, y, n in named
    )
    return f'<g class="numbers" pointer-events="none">{labels}</g>'


CHIP_H = 26
HAND_WIDTH = 350.0
"""Designed: the width the pieces to click (a programme's cards, a reserve's planks) wrap in, in
pixels at scale 1: what a 375 px phone shows of the board's box, so that all of them are in view
together once the box is scrolled to them."""


def _pieces(view: Mapping[str, Any], y: float, width: float) -> tuple[str, float]:
    """What the awaited seats play from, as pieces to click: while programming, each one's cards
    (clicked in programme order); while resolving, each one's planks in reserve. All public."""
    out = []
    programming = view["phase"] == "programming"
    for i in view["awaiting"]:
        seat = view["seats"][i]
        names = seat["hand"] if programming else seat["reserve"]
        if not names:
            continue
        what = "cards to programme" if programming else "planks in reserve"
        out.append(_text_at(16, y + 14, f"{seat['colour'].capitalize()}'s {what}:"))
        x, y = 16.0, y + 22
        for name in names:
            ref = f"hand:{i}:{name}" if programming else f"plank:{name}"
            words = upper_first(card(name) if programming else plank_words(name))
            w = 14 + len(words) * 7.2
            if x + w > width - 16:
                x, y = 16.0, y + CHIP_H + 6
            fill = FILL.get(name.split("-")[0], "#ffffff") if not programming else "#ffffff"
            out.append(
                f'<g class="piece" data-ref="{escape(ref)}"><rect x="{x:g}" y="{y:g}" width="{w:g}" height="{CHIP_H}" '
                f'rx="5" fill="{fill}" stroke="{INK}"/>{_text_at(x + 7, y + 18, words, ink_on(fill))}</g>'
            )
            x += w + 6
        y += CHIP_H + 10
    return "".join(out), y


def _text_at(x: float, y: float, words: str, fill: str = INK) -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="13" fill="{fill}">{escape(words)}</text>'


def plank_words(name: str) -> str:
    """A plank as its title says it: "white 6 plank"."""
    return plank(name).removeprefix("the ")


def _plank(plank: Mapping[str, Any], points: Mapping[str, tuple[float, float]], marked: bool) -> str:
    (x1, y1), (x2, y2) = (points[e] for e in plank["ends"])
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    fill = FILL.get(plank["colour"], SAND)
    edge, width = (MARK, 6.0) if marked else (INK, 3.4)
    ends = f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke-linecap="round"'
    return (
        f'<g class="plank" data-ref="plank:{escape(plank["plank"])}">'
        f"<title>{escape(plank_words(plank['plank']))}</title>"
        f'<line {ends} stroke="{edge}" stroke-width="{width}"/><line {ends} stroke="{fill}" stroke-width="2.6"/>'
        f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="2.8" fill="#ffffff" stroke="{INK}" stroke-width="0.3"/>'
        f'<text x="{mx:.1f}" y="{my + 1.5:.1f}" font-size="{SMALLEST:g}" text-anchor="middle" fill="{INK}">'
        f"{plank['size']}</text>"
        "</g>"
    )


def _pawns(view: Mapping[str, Any], points: Mapping[str, tuple[float, float]]) -> list[str]:
    ends = {p["plank"]: p["ends"] for p in view["planks"]}
    out = []
    in_village: dict[str, int] = {}
    for seat in view["seats"]:
        spot = seat["pawn"]
        if spot is None:
            continue
        if spot in ends:
            x, y = _beside(*(points[e] for e in ends[spot]))
        else:
            k = in_village.get(spot, 0)
            in_village[spot] = k + 1
            x, y = points[spot]
            x += (k % 3 - 1) * 5.2
            y += (k // 3) * 5.2 - 2
        colour = FILL.get(seat["colour"], SAND)
        out.append(
            f'<g class="pawn"><title>{escape(seat["colour"])} pawn on {escape(support(spot))}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PAWN + 0.9}" fill="#ffffff" stroke="{INK}" stroke-width="0.5"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PAWN}" fill="{colour}" stroke="{INK}" stroke-width="0.5"/>'
            f'<text x="{x:.1f}" y="{y + 1.5:.1f}" font-size="{SMALLEST:g}" text-anchor="middle" '
            f'fill="{ink_on(colour)}">{escape(seat["colour"][:1].upper())}</text></g>'
        )
    return out


def _beside(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """Where a pawn on the plank from ``a`` to ``b`` stands: off its middle, across it."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    return (x1 + x2) / 2 - dy / length * PAWN_SHIFT, (y1 + y2) / 2 + dx / length * PAWN_SHIFT
