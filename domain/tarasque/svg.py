"""render_svg(): a Tarasque table as a standalone SVG document.

Drawn from the view alone, as the table looks: the face-up tiles in the middle beside
the hidden pile (its size only) and the egg supply; the six dice of the turn (in hand as
last rolled, set aside by symbol, the one on the egg, those spent); and for each seat its
dragon base with the tiles at each side (2, 3, 4 and 5 dice), its lair in rows with their
points, and its eggs. Nothing in Tarasque is hidden from a seat but the pile's order. The
rulebook's bases have no colour: seats are named by ``SEAT_COLOURS``.
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
from domain.tarasque.narration import tile as tile_words

TILE_FILL = {
    "red": "#c62828", "yellow": "#f9d71c", "green": "#2e7d32",
    "blue": "#1e5bb8", "purple": "#7b1fa2", "black": "#212121",
}  # fmt: skip
"""Designed: the drawing colour of each dragon colour (tiles and dragon dice)."""
WIDTH = 560
"""Designed: narrow enough that 12-unit text stays legible on a 375 px phone."""
TILE = 30
"""Designed: the side of a tile; a die is drawn a little smaller."""
ROW = TILE + 6
SIDE_ROWS = (2, 3, 4, 5)
SHORT = {
    "red": "R", "yellow": "Y", "green": "G", "blue": "B", "purple": "P", "black": "K",
    "desert": "De", "forest": "Fo", "glacier": "Gl", "meadow": "Me", "sea": "Se", "volcano": "Vo",
}  # fmt: skip
"""Designed: what a tile or a die too small for its word shows (the key under the table says
each, and its title the word)."""
PHASE_WORDS = {
    "remove": "remove a middle tile", "store": "store base tiles in the lair", "select": "set dice aside",
    "continue": "set aside more, roll again or stop", "take": "take tiles", "place": "choose a lair row",
}  # fmt: skip


def render_svg(view: Mapping[str, Any], last: Last | None = None) -> str:
    """The table of ``view``; ``last`` (``domain.kernel.picture``) is outlined where it shows."""
    colours = SEAT_COLOURS[: len(view["scores"])]
    marked = _marked_tile(last)
    title, y = text_block(_title(view, colours), 16, 8, WIDTH - 32, bold=True)
    body = [title]
    y += 14
    keys = [Key(s, colours[s], SEAT_FILL[colours[s]], _note(view, s), view["active"] == s) for s in range(len(colours))]
    drawn, height = legend(keys, 16, y, None if last is None else int(last["seat"]))
    body.append(drawn)
    y += height + 10
    body.append(_middle(view, 16, y, marked))
    y += ROW + 56
    body.append(_dice(view, 16, y))
    y += 2 * ROW + 66
    words, height = last_line(last, colours, 16, y, WIDTH - 32)
    body.append(words)
    y += height + 8
    for seat in range(len(colours)):
        panel, h = _seat(view, seat, colours[seat], 16, y, marked)
        body.append(panel)
        y += h + 10
    key = _key(view)
    if key:
        body.append(_label(16, y + 12, key, size=11))
        y += 22
    head = open_svg("tarasque", (0, 0, WIDTH, y + 6), _title(view, colours), _desc(view, colours, last))
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def _key(view: Mapping[str, Any]) -> str:
    """The key to the letters the tiles and dice show ("De desert, Fo forest"), those drawn only."""
    tiles = {v for info in view["tiles"].values() for k, v in info.items() if k not in ("colour", "symbol")}
    parts = [
        f"{what}: " + ", ".join(f"{short} {word}" for word, short in SHORT.items() if word in shown)
        for what, shown in (("Tiles", tiles), ("Dice", set(view["faces"])))
        if shown & set(SHORT)
    ]
    return "".join(f"{part}. " for part in parts).strip()


def _title(view: Mapping[str, Any], colours: Sequence[str]) -> str:
    if view["result"]:
        return f"Tarasque, over after round {view['round']}: {view['result']}"
    active = view["active"]
    if active is None:
        return f"Tarasque, round {view['round']}"
    task = PHASE_WORDS.get(view["phase"], view["phase"])
    if view["phase"] == "continue" and not view["turn"].get("may_set_aside", True):
        task = "roll again or stop"  # every die in hand shows a symbol that cannot be set aside
    return f"Tarasque, round {view['round']}: {seat_name(active, colours[active])} to {task}"


def _note(view: Mapping[str, Any], seat: int) -> str:
    eggs = view["eggs"][seat]
    bits = [_plural(view["scores"][seat], "point"), _plural(eggs, "egg")]
    if seat in view["left"]:
        bits.append("left the game")
    return ", ".join(bits)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _desc(view: Mapping[str, Any], colours: Sequence[str], last: Last | None) -> str:
    turn = view["turn"]
    scores = "; ".join(f"{seat_name(s, c)} {_note(view, s)}" for s, c in enumerate(colours))
    parts = [
        f"{_title(view, colours)}.",
        f"Scores: {scores}.",
        f"Middle: {_tiles(view['middle']) or 'empty'}; pile {view['pile']} tiles face down; "
        f"supply {view['supply']} eggs.",
        f"Dice in hand {turn['in_hand']}, showing {', '.join(turn['showing']) or 'nothing'}; set aside "
        f"{_counts(turn['set_aside'])}; on the egg {turn['egg'] or 'none'}; spent {_counts(turn['spent'])}.",
    ]
    for s, c in enumerate(colours):
        base = "; ".join(f"side {k}: {_tiles(t)}" for k, t in view["bases"][s].items() if t) or "empty"
        lair = "; ".join(f"row {i + 1}: {_tiles(r)}" for i, r in enumerate(view["lairs"][s])) or "empty"
        parts.append(f"{seat_name(s, c).capitalize()} base {base}; lair {lair}.")
    words = last_words(last, colours)
    return " ".join([*parts, words] if words else parts)


def _tiles(names: Sequence[str]) -> str:
    """Tiles in words, as the narrator names them ("red forest, blue sea")."""
    return ", ".join(tile_words(t).removeprefix("the ") for t in names)


def _counts(by_face: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {f}" for f, n in by_face.items()) or "none"


def _marked_tile(last: Last | None) -> str | None:
    move = None if last is None else last.get("move")
    tile = None if not move else move.get("tile")
    return tile if isinstance(tile, str) else None


def _tile(view: Mapping[str, Any], tile: str, x: float, y: float, marked: str | None) -> str:
    info = view["tiles"][tile]
    fill = TILE_FILL.get(info["colour"], "#999999")
    mark = next(v for k, v in info.items() if k not in ("colour", "symbol"))
    outline = f'stroke="{MARK}" stroke-width="3"' if tile == marked else f'stroke="{INK}" stroke-width="1"'
    return (
        f'<g class="tile" data-tile="{escape(tile)}" data-ref="tile:{escape(tile)}">'
        f"<title>{escape(info['colour'])} dragon, {escape(mark)}</title>"
        f'<rect x="{x:g}" y="{y:g}" width="{TILE}" height="{TILE}" rx="3" fill="{fill}" {outline}/>'
        f'<text x="{x + TILE / 2:g}" y="{y + TILE / 2 + 4:g}" font-size="11" text-anchor="middle" '
        f'fill="{ink_on(fill)}">{escape(SHORT.get(mark, mark))}</text></g>'
    )


def _die(view: Mapping[str, Any], face: str, x: float, y: float, label: str, ref: bool = False) -> str:
    """A die showing ``face``: in its colour for dragon dice, with pips' number for ordinary ones;
    ``ref``: a die in hand, which a click sets aside."""
    fill = TILE_FILL.get(face, "#ffffff")
    text = SHORT.get(face, face)
    named = f' data-ref="face:{escape(face)}"' if ref else ""
    return (
        f'<g class="die"{named}><title>{escape(label)}: {escape(face)}</title>'
        f'<rect x="{x:g}" y="{y:g}" width="{TILE - 4}" height="{TILE - 4}" rx="6" fill="{fill}" stroke="{INK}" '
        f'stroke-width="1.5"/><text x="{x + (TILE - 4) / 2:g}" y="{y + TILE / 2 + 2:g}" font-size="11" '
        f'text-anchor="middle" fill="{ink_on(fill)}">{escape(text)}</text></g>'
    )


def _label(x: float, y: float, words: str, size: int = 12, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{INK}"{weight}>{escape(words)}</text>'


def _middle(view: Mapping[str, Any], x: float, y: float, marked: str | None) -> str:
    out = ['<g class="middle">', _label(x, y + 12, "Middle of the table", bold=True)]
    for i, tile in enumerate(view["middle"]):
        out.append(_tile(view, tile, x + i * (TILE + 6), y + 20, marked))
    px = x + max(len(view["middle"]), 3) * (TILE + 6) + 14
    out.append(
        f'<g class="pile"><title>pile: {view["pile"]} tiles face down</title>'
        f'<rect x="{px:g}" y="{y + 20:g}" width="{TILE}" height="{TILE}" rx="3" fill="#8d6e63" stroke="{INK}"/>'
        f'<rect x="{px + 3:g}" y="{y + 17:g}" width="{TILE}" height="{TILE}" rx="3" fill="#a1887f" stroke="{INK}"/></g>'
    )
    out.append(_label(px + TILE + 10, y + 40, f"pile: {view['pile']} face down"))
    out.append(_egg(px + 8, y + 20 + ROW + 8))
    out.append(_label(px + TILE + 10, y + 20 + ROW + 12, f"egg supply: {view['supply']}"))
    if view["removed"]:
        out.append(_label(x, y + 20 + ROW + 12, f"out of the game: {_plural(len(view['removed']), 'tile')}"))
    out.append("</g>")
    return "".join(out)


def _egg(x: float, y: float) -> str:
    return f'<ellipse cx="{x:g}" cy="{y:g}" rx="6" ry="8" fill="#fff8e1" stroke="{INK}" stroke-width="1"/>'


def _dice(view: Mapping[str, Any], x: float, y: float) -> str:
    """The six dice: in hand as last rolled, then set aside, then the one on the egg; what was
    spent is written below (the egg's die counts 2)."""
    turn = view["turn"]
    rolled = f"roll {turn['rolls']}" if turn["rolls"] else "not rolled yet"
    out = ['<g class="dice">', _label(x, y + 12, f"Dice of the turn ({rolled})", bold=True)]
    top, below = y + 20, y + 20 + TILE + 12
    out.append(_label(x, below, f"in hand: {turn['in_hand']}", size=11))
    for i, face in enumerate(turn["showing"]):
        out.append(_die(view, face, x + i * TILE, top, "in hand", ref=True))
    cx = x + 6 * TILE + 20
    out.append(_label(cx, below, "set aside", size=11))
    for face, n in turn["set_aside"].items():
        for _ in range(n):
            out.append(_die(view, face, cx, top, "set aside"))
            cx += TILE
    ex = x + 12 * TILE + 40
    out.append(
        f'<g class="egg-spot" data-ref="egg"><title>the egg: a die set aside on it counts 2</title>'
        f'<rect x="{ex - 4:g}" y="{top - 4:g}" width="{TILE + 8}" height="{TILE + 8}" rx="8" fill="#ffffff" '
        f'fill-opacity="0" stroke="{INK}" stroke-dasharray="3 2"/>{_egg(ex + TILE / 2, top + TILE / 2)}</g>'
    )
    if turn["egg"]:
        out.append(_die(view, turn["egg"], ex + 2, top + 2, "on the egg (counts 2)"))
    out.append(_label(ex - 4, below, "on the egg", size=11))
    out.append(_label(x, below + 18, f"spent: {_counts(turn['spent'])}", size=11))
    if turn["pending"]:
        out.append(_label(x + 6 * TILE + 20, below + 18, "won with six dice, to place:", size=11))
        out.append(_tile(view, turn["pending"], WIDTH - 16 - TILE, below + 2, None))
    out.extend(_buttons(view, x, below + 30))
    out.append("</g>")
    return "".join(out)


BUTTONS = {"continue": (("roll", "Roll again"), ("stop", "Stop rolling")), "take": (("end-turn", "End the turn"),)}
"""The turn's own choices, drawn as buttons on the board in the phases that offer them."""


def _buttons(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    out = []
    for ref, words in BUTTONS.get(view["phase"], ()) if view["active"] is not None else ():
        width = 14 + len(words) * 7.4
        out.append(
            f'<g class="button" data-ref="{ref}"><rect x="{x:g}" y="{y:g}" width="{width:g}" height="26" rx="5" '
            f'fill="#ffffff" stroke="{INK}"/>{_label(x + 7, y + 18, words, size=13)}</g>'
        )
        x += width + 10
    return out


def _seat(view: Mapping[str, Any], seat: int, colour: str, x: float, y: float, marked: str | None) -> tuple[str, float]:
    """A seat's panel: its base (a row per side, the side's dice as pips) and its lair rows."""
    fill = SEAT_FILL[colour]
    lairs = view["lairs"][seat]
    height = 26 + (len(SIDE_ROWS) + len(lairs)) * ROW + 26
    out = [
        f'<g class="seat" data-seat="{seat}">',
        f'<rect x="{x:g}" y="{y:g}" width="{WIDTH - 2 * x:g}" height="{height:g}" rx="6" '
        f'fill="none" stroke="{fill}" stroke-width="3"/>',
        f'<rect x="{x:g}" y="{y:g}" width="{WIDTH - 2 * x:g}" height="22" rx="6" fill="{fill}"/>',
        f'<text x="{x + 8:g}" y="{y + 16:g}" font-size="13" font-weight="bold" fill="{ink_on(fill)}">'
        f"{escape(seat_name(seat, colour).capitalize())}: {escape(_note(view, seat))}</text>",
    ]
    for i, side in enumerate(SIDE_ROWS):
        top = y + 26 + i * ROW
        out.append(_spot(f"side:{seat}:{side}", x + 4, top, WIDTH - 2 * x - 8, ROW - 2))
        out.append(_label(x + 8, top + 20, f"side {side}", size=11))
        out.extend(_pip(x + 56 + 7 * k, top + 16) for k in range(side))
        for j, tile in enumerate(view["bases"][seat][str(side)]):
            out.append(_tile(view, tile, x + 100 + j * (TILE + 4), top, marked))
    lair_top = y + 26 + len(SIDE_ROWS) * ROW
    out.append(
        f'<line x1="{x + 8:g}" y1="{lair_top + 4:g}" x2="{WIDTH - x - 8:g}" y2="{lair_top + 4:g}" stroke="{fill}"/>'
    )
    out.append(_spot(f"lair:{seat}", x + 4, lair_top + 6, 150, 22))
    out.append(_label(x + 8, lair_top + 20, f"Lair: {_plural(view['lair_points'][seat], 'point')}", size=11))
    right = WIDTH - x - 112
    out.append(
        f'<g class="spot new-row" data-ref="row:{seat}:new"><rect x="{right:g}" y="{lair_top + 8:g}" width="104" '
        f'height="24" rx="4" fill="#ffffff" fill-opacity="0" stroke="{INK}" stroke-dasharray="4 3"/>'
        f"{_label(right + 8, lair_top + 25, '+ a new row', size=12)}</g>"
    )
    for i, row in enumerate(lairs):
        top = lair_top + 26 + i * ROW
        out.append(_spot(f"row:{seat}:{i}", x + 4, top, WIDTH - 2 * x - 8, ROW - 2))
        out.append(_label(x + 8, top + 20, f"row {i + 1}", size=11))
        for j, tile in enumerate(row):
            out.append(_tile(view, tile, x + 100 + j * (TILE + 4), top, marked))
    out.append("</g>")
    return "".join(out), height


def _spot(ref: str, x: float, y: float, width: float, height: float) -> str:
    """A place a tile may go (a base side, a lair row): invisible until the page lights it."""
    return (
        f'<rect class="spot" data-ref="{ref}" x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="4" '
        f'fill="#ffffff" fill-opacity="0"/>'
    )


def _pip(x: float, y: float) -> str:
    return f'<circle cx="{x:g}" cy="{y:g}" r="2.6" fill="{INK}"/>'
