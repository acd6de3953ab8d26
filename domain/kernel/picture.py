"""What every board picture shares: an accessible root, a legend of the seats, the last decision.

A board is drawn from a view alone, so it never shows more than the viewer may see. It
scales to its container: a ``viewBox`` and no fixed width. Its root is ``role="img"``,
labelled by a ``<title>`` and described by a ``<desc>`` that says in words what the
picture shows (whose turn, the scores, what the viewer holds), for screen readers.
Colours are never the only cue: each seat's swatch carries its number and its colour's
name, and text is drawn in black or white, whichever contrasts more with what lies under it.

The last decision (``last``) is what the platform's event history shows the viewer of the
last seat decision: ``{"version", "seat", "kind", "move"}``, ``kind`` being ``move``,
``timed_out`` or ``resigned`` and ``move`` the command as the viewer may see it (secret
fields as ``{"hidden": ...}``), or ``None``; the platform adds ``who`` (the seat as the viewer
names it) and ``text`` (the move in the game's words, ``domain.kernel.narration``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from domain.kernel.wording import chose

INK = "#1b1b1b"
PAPER = "#fbf8f0"
MARK = "#d4145a"
"""Designed: the outline of whatever the last decision touched (magenta: no seat's colour)."""
LINE = 18
"""Designed: the height of one line of the legend, in user units at font size 12."""
CHAR = 6.6
"""Designed: a generous average advance of one character at font size 12, to wrap text by."""

Last = Mapping[str, Any]

SEAT_COLOURS = ("teal", "orange", "brown", "slate", "olive", "navy")
"""Designed: names for the seats of a game whose seats have no colour of their own (chosen
apart from the pieces' colours of the four games), in seat order."""
SEAT_FILL = {"teal": "#00796b", "orange": "#ef6c00", "brown": "#6d4c41", "slate": "#546e7a",
             "olive": "#827717", "navy": "#283593"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Key:
    """One seat in the legend: its swatch, its number and its words."""

    seat: int
    colour: str
    """The colour's name, written beside the swatch."""
    fill: str
    note: str = ""
    """What else the legend says of the seat (score, eggs, ``left``)."""
    active: bool = False
    """Whether the seat is awaited now."""


def luminance(fill: str) -> float:
    """The relative luminance of ``#rrggbb`` (WCAG 2.1)."""
    channels = [int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    return "#000000" if contrast(fill, "#000000") >= contrast(fill, "#ffffff") else "#ffffff"


def open_svg(slug: str, box: tuple[float, float, float, float], title: str, desc: str) -> list[str]:
    """The XML declaration and the root element (left open) with its title and description,
    and a paper background."""
    x, y, w, h = box
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="{slug}-title {slug}-desc" '
        f'viewBox="{x:g} {y:g} {w:g} {h:g}" preserveAspectRatio="xMidYMid meet" font-family="sans-serif">',
        f'<title id="{slug}-title">{escape(title)}</title>',
        f'<desc id="{slug}-desc">{escape(desc)}</desc>',
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{PAPER}"/>',
    ]


def seat_name(seat: int, colour: str) -> str:
    """How pictures name a seat: by its number counted from 1 (as players count) and its colour."""
    return f"seat {seat + 1} ({colour})"


def legend(keys: Sequence[Key], x: float, y: float, last_seat: int | None = None) -> tuple[str, float]:
    """The seats' legend with its top-left corner at (x, y), and its height. The awaited seat
    is written in bold with an arrow; the seat of the last decision is outlined in ``MARK``."""
    out = [
        f'<g class="legend" transform="translate({x:g} {y:g})">',
        f'<text x="0" y="12" font-size="12" fill="{INK}">Seats</text>',
    ]
    for i, k in enumerate(keys):
        top = LINE * (i + 1)
        outline = f'stroke="{MARK}" stroke-width="2.5"' if k.seat == last_seat else f'stroke="{INK}" stroke-width="1"'
        weight = ' font-weight="bold"' if k.active else ""
        words = f"{'▶ ' if k.active else ''}{seat_name(k.seat, k.colour).capitalize()}{': ' + k.note if k.note else ''}"
        out.append(
            f'<g class="seat" data-seat="{k.seat}" data-ref="seat:{k.seat}">'
            f'<rect x="0" y="{top}" width="16" height="14" rx="2" fill="{k.fill}" {outline}/>'
            f'<text x="8" y="{top + 11}" font-size="11" text-anchor="middle" '
            f'fill="{ink_on(k.fill)}">{k.seat + 1}</text>'
            f'<text x="22" y="{top + 11}" font-size="12" fill="{INK}"{weight}>{escape(words)}</text></g>'
        )
    out.append("</g>")
    return "".join(out), LINE * (len(keys) + 1)


def move_words(move: Mapping[str, Any] | None) -> str:
    """A command in words: its type and its fields, a hidden field as ``hidden``."""
    if not move:
        return ""
    fields = []
    for name, value in move.items():
        if name == "type" or value is None:
            continue
        shown = "hidden" if isinstance(value, Mapping) and "hidden" in value else _plain(value)
        fields.append(f"{name.replace('_', ' ')} {shown}")
    kind = str(move.get("type", "move")).replace("_", " ")
    return f"{kind} ({', '.join(fields)})" if fields else kind


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(_plain(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def last_words(last: Last | None, colours: Sequence[str]) -> str:
    """The last decision in one sentence, or ``""`` when there is none."""
    if last is None:
        return ""
    seat = int(last["seat"])
    who = last.get("who") or (seat_name(seat, colours[seat]) if 0 <= seat < len(colours) else f"seat {seat + 1}")
    move = last.get("text") or move_words(last.get("move"))
    kind = str(last.get("kind"))
    if kind == "resigned":
        what = "resigned"
    elif kind == "timed_out":
        what = f"ran out of time{'; the server played ' + chr(8216) + move + chr(8217) if move else ''}"
    else:
        what = chose(move) if last.get("text") else f"played {move}"
    return f"Last move: {who} {what}."


def wrap(words: str, width: float) -> list[str]:
    """``words`` in lines that fit ``width`` at font size 12; every line but the last keeps its
    trailing space, so that the lines joined give back ``words``."""
    most = max(16, int(width / CHAR))
    lines: list[str] = []
    for word in words.split(" "):
        if lines and len(lines[-1]) + len(word) <= most:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return [f"{line} " for line in lines[:-1]] + lines[-1:]


def text_block(words: str, x: float, top: float, width: float, bold: bool = False) -> tuple[str, float]:
    """``words`` wrapped to ``width`` below ``top`` as one ``<text>`` of a ``<tspan>`` a line,
    and the height it takes."""
    lines = wrap(words, width)
    weight = ' font-weight="bold"' if bold else ""
    spans = "".join(
        f'<tspan x="{x:g}" y="{top + 12 + i * (LINE - 2):g}">{escape(line)}</tspan>' for i, line in enumerate(lines)
    )
    return f'<text font-size="12" fill="{INK}"{weight}>{spans}</text>', len(lines) * (LINE - 2) + 4


def last_line(last: Last | None, colours: Sequence[str], x: float, top: float, width: float) -> tuple[str, float]:
    """The last decision written below ``top``, beside a square outlined in ``MARK`` as its board
    marks are; and the height it takes (none without a decision)."""
    words = last_words(last, colours)
    if not words:
        return "", 0.0
    block, height = text_block(words, x + 16, top, width - 16)
    square = f'<rect x="{x:g}" y="{top + 2:g}" width="10" height="10" fill="none" stroke="{MARK}" stroke-width="2.5"/>'
    return f'<g class="last-decision">{square}{block}</g>', height
