"""render_svg: a standalone SVG of a view: frame, track, yellow lines, finish line,
start grid, fields, symbols, traps, dragons and the last move's template.

Each dragon is its hexagonal base in its seat's colour with an arrow out of its front point,
so that which way it faces reads at a glance, a halo of its colour, and its seat's
number beside it. Below the track: the seats' legend and, for a seat's own view, its
hand, the speed it set and the card it laid (the view holds them only for that seat).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

import shapely

from domain.drachenreiter.dimensions import BASE_LENGTH, FIELD_RADIUS, SYMBOL_RADIUS, TRACK_WIDTH, TRAP_RADIUS
from domain.drachenreiter.narration import card, cards
from domain.drachenreiter.shapes import base, template
from domain.drachenreiter.track import Track, track
from domain.kernel.picture import (
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

WIDTH = 600.0
"""Designed: the picture's width in user units (the track is scaled to it): narrow enough that
12-unit text stays legible on a 375 px phone."""
FILL = {
    "red": "#d32f2f", "blue": "#1565c0", "green": "#2e7d32",
    "yellow": "#fbc02d", "purple": "#7b1fa2", "orange": "#ef6c00",
}  # fmt: skip
"""Designed: the drawing colour of each dragon colour."""


def _path(geom: shapely.Geometry) -> str:
    parts = []
    polygons = getattr(geom, "geoms", [geom])
    for poly in polygons:
        for ring in [poly.exterior, *poly.interiors]:
            pts = " L ".join(f"{x:.1f} {y:.1f}" for x, y in ring.coords)
            parts.append(f"M {pts} Z")
    return " ".join(parts)


def _line(tr: Track, s: float, colour: str, width: float) -> str:
    x1, y1 = tr.point_at(s, TRACK_WIDTH / 2)
    x2, y2 = tr.point_at(s, -TRACK_WIDTH / 2)
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="{width}"/>'


def render_svg(view: Mapping[str, Any], last: Last | None = None) -> str:
    """The race of ``view``; ``last`` outlines the dragon of the seat that decided last."""
    tr = track(view["track"], view["backwards"])
    minx, miny, maxx, maxy = tr.frame
    w, h = maxx - minx, maxy - miny
    k = WIDTH / w
    colours = [d["colour"] for d in view["dragons"]]
    last_seat = None if last is None else int(last["seat"])
    title = _title(view, tr)
    heading, header = text_block(title, 16, 6, WIDTH - 32, bold=True)
    header += 10
    out = [
        f'<g class="track" data-frame="track" transform="translate(0 {header:g}) scale({k:.5f}) '
        f'translate({-minx:.1f} {maxy:.1f}) scale(1 -1)">',
        f'<rect x="{minx:.1f}" y="{miny:.1f}" width="{w:.1f}" height="{h:.1f}" fill="#6b4f2a"/>',
        f'<path d="{_path(tr.area)}" fill="#c9d8b6" fill-rule="evenodd" stroke="#333" stroke-width="3"/>',
    ]
    out += [_line(tr, s, "#e8c020", 2) for s in tr.yellow]
    out.append(_line(tr, tr.finish_s, "#000", 6))
    for n, (x, y, hd) in enumerate(tr.grid, start=1):
        out.append(
            f'<path d="{_path(base(x, y, hd))}" fill="none" stroke="#fff" stroke-dasharray="4 3"/>'
            f"<!-- start place {n} -->"
        )
    out += [
        f'<circle cx="{f.x:.1f}" cy="{f.y:.1f}" r="{FIELD_RADIUS}" fill="#3a8fd8" opacity="0.8"/>' for f in tr.fields
    ]
    out += [
        f'<circle cx="{f.x:.1f}" cy="{f.y:.1f}" r="{SYMBOL_RADIUS}" fill="#8a3ad8" opacity="0.8"/>' for f in tr.symbols
    ]
    for t in view["traps"]:
        out.append(f'<circle cx="{t["x"]:.1f}" cy="{t["y"]:.1f}" r="{TRAP_RADIUS}" fill="#222" stroke="#d22"/>')
    t = view["template"]
    if t is not None:
        bar = template(t["x"], t["y"], t["direction"], t["reach"])
        out.append(f'<path d="{_path(bar)}" fill="#f0f0f0" opacity="0.7" stroke="#555"/>')
    on_track = [d for d in view["dragons"] if not d["out"] and d["place"] != 0]
    out += [_dragon(d, d["seat"] == last_seat, k) for d in on_track]
    if view.get("step") == "face" and view.get("facing") is not None:
        out.append(_handles(view["dragons"][view["facing"]]))
    out.append("</g>")
    focus = _focus(view, on_track)
    out += [_number(d, k, minx, maxy, header, d["seat"] == focus) for d in on_track]
    y = header + h * k + 12
    keys = [
        Key(d["seat"], d["colour"], _fill(d["colour"]), _note(d), d["seat"] in _awaited(view)) for d in view["dragons"]
    ]
    drawn, height = legend(keys, 16, y, last_seat)
    out.append(drawn)
    y += height + 8
    for line in _own(view):
        block, height = text_block(line, 16, y, WIDTH - 32)
        out.append(block)
        y += height
    words, height = last_line(last, colours, 16, y + 4, WIDTH - 32)
    out.append(words)
    y += height + 12
    head = open_svg("drachenreiter", (0, 0, WIDTH, y), title, _desc(view, title, colours, last))
    return "\n".join([*head, heading, *out, "</svg>"]) + "\n"


def _fill(colour: str) -> str:
    return FILL.get(colour, "#9e9e9e")


def _awaited(view: Mapping[str, Any]) -> set[int]:
    return {view["mover"]} if view.get("mover") is not None else set(view.get("window") or [])


HALO = 24.0
"""Designed: the least radius of a dragon's halo on the page, in pixels at scale 1, whatever the
track's scale: a base is drawn to the track's scale (under 20 px long on the largest tracks),
its halo and arrow large enough to find and read at a glance."""
TOKEN = 12.0
"""Designed: the radius of the disc that carries a dragon's seat number, in pixels at scale 1."""


def _focus(view: Mapping[str, Any], on_track: Sequence[Mapping[str, Any]]) -> int | None:
    """The dragon the board opens on: the viewer's own (the one whose hand the view holds),
    else the leader's."""
    own = [d["seat"] for d in on_track if d["hand"] is not None]
    if own:
        return int(own[0])
    placed = sorted(on_track, key=lambda d: d["place"])
    return int(placed[0]["seat"]) if placed else None


def _dragon(d: Mapping[str, Any], marked: bool, k: float = 1.0) -> str:
    """The base in its colour, a halo in that colour (a base is small beside the track on a
    phone), and an arrow from its front point outwards, both at least ``HALO`` pixels out."""
    x, y, hd = d["x"], d["y"], d["heading"]
    cos, sin = math.cos(math.radians(hd)), math.sin(math.radians(hd))
    halo = max(BASE_LENGTH, HALO / k)
    front, tip = BASE_LENGTH / 2, max(BASE_LENGTH * 1.4, halo + 10 / k)
    head, shaft = max(20.0, 9 / k), max(6.0, 3 / k)
    fx, fy = x + front * cos, y + front * sin
    tx, ty = x + tip * cos, y + tip * sin
    bx, by = x + (tip - head) * cos, y + (tip - head) * sin
    wing = (bx - head * 0.6 * sin, by + head * 0.6 * cos), (bx + head * 0.6 * sin, by - head * 0.6 * cos)
    stroke, weight = (MARK, 5.0) if marked else ("#000", 1.5)
    return (
        f'<g class="dragon" data-seat="{d["seat"]}" data-ref="dragon:{d["seat"]}">'
        f"<title>{escape(seat_name(d['seat'], d['colour']))}: "
        f"{escape(_note(d))}, facing {hd:.0f}°</title>"
        f'<path d="{_path(base(x, y, hd))}" fill="{_fill(d["colour"])}" stroke="{stroke}" stroke-width="{weight}"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{halo:.1f}" fill="none" stroke="{_fill(d["colour"])}" '
        f'stroke-width="{max(6.0, 4 / k):.1f}" opacity="0.7"/>'
        f'<line x1="{fx:.1f}" y1="{fy:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="#000" stroke-width="{shaft:.1f}"/>'
        f'<path d="M {tx:.1f} {ty:.1f} L {wing[0][0]:.1f} {wing[0][1]:.1f} L {wing[1][0]:.1f} {wing[1][1]:.1f} Z" '
        f'fill="#000" stroke="#fff" stroke-width="1.5"/></g>'
    )


HEADING_STEP = 15
"""The headings offered around a dragon its player turns, in degrees (``facing.HEADING_STEP``)."""


def _handles(d: Mapping[str, Any]) -> str:
    """Around a dragon its player must turn, a handle for each heading: a click faces it there."""
    out = ['<g class="headings">']
    reach = BASE_LENGTH * 2.2
    for k in range(-180 // HEADING_STEP + 1, 180 // HEADING_STEP + 1):
        h = k * HEADING_STEP
        x = d["x"] + reach * math.cos(math.radians(h))
        y = d["y"] + reach * math.sin(math.radians(h))
        out.append(
            f'<circle class="handle" data-ref="heading:{h:g}" cx="{x:.1f}" cy="{y:.1f}" r="{BASE_LENGTH * 0.35:.1f}" '
            f'fill="#ffffff" stroke="#000" stroke-width="2"><title>face {h}°</title></circle>'
        )
    out.append("</g>")
    return "".join(out)


def _number(d: Mapping[str, Any], k: float, minx: float, maxy: float, header: float, focus: bool = False) -> str:
    """The seat's number on a disc of its colour over its base, written in the page's frame (the
    track's is mirrored); the dragon the board opens on carries ``data-focus``."""
    px, py = (d["x"] - minx) * k, header + (maxy - d["y"]) * k
    fill = _fill(d["colour"])
    mark = ' data-focus="true"' if focus else ""
    return (
        f'<g class="dragon-token" pointer-events="none"{mark}>'
        f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{TOKEN:g}" fill="{fill}" stroke="#ffffff" stroke-width="2"/>'
        f'<text x="{px:.1f}" y="{py + 5:.1f}" font-size="14" font-weight="bold" text-anchor="middle" '
        f'fill="{ink_on(fill)}">{d["seat"] + 1}</text></g>'
    )


def _title(view: Mapping[str, Any], tr: Track) -> str:
    head = f"Chevaliers des dragons: {tr.layout.title}, round {view['round']}"
    if view["result"]:
        return f"{head}, over: {view['result']}"
    if view.get("mover") is not None:
        return f"{head}: {seat_name(view['mover'], view['dragons'][view['mover']]['colour'])} to move"
    return f"{head}, {PHASES.get(view['phase'], view['phase'])}"


PHASES = {"setup": "setting up", "speed": "speeds being set", "move": "movement", "over": "over"}
"""The phases in words."""


def _note(d: Mapping[str, Any]) -> str:
    bits = [f"place {d['place']}" if d["place"] else "not started", f"energy {d['energy']}", f"speed {d['speed']}"]
    bits.append(f"{d['hand_size']} card{'' if d['hand_size'] == 1 else 's'}")
    if d["out"]:
        bits.append("out of the race")
    return ", ".join(bits)


def _own(view: Mapping[str, Any]) -> list[str]:
    """The seat's own secrets, where the view holds them: hand, speed set, card laid, answer."""
    lines = []
    for d in view["dragons"]:
        if d["hand"] is None:
            continue
        bits = [f"hand: {cards(d['hand']) if d['hand'] else 'empty'}"]
        if d["set_speed"] is not None:
            bits.append(f"speed set {d['set_speed']}")
        if d["laid"] is not None:
            bits.append(f"card laid: {card(d['laid'])}")
        if d["answer"] is not None:
            bits.append("turns the alliance" if d["answer"] else "keeps its card face down")
        lines.append(f"{seat_name(d['seat'], d['colour']).capitalize()}: {'; '.join(bits)}")
    return lines


def _desc(view: Mapping[str, Any], title: str, colours: Sequence[str], last: Last | None) -> str:
    seats = "; ".join(f"{seat_name(d['seat'], d['colour'])} {_note(d)}" for d in view["dragons"])
    parts = [f"{title}.", f"Dragons: {seats}.", f"Deck {view['deck']} cards, {len(view['traps'])} traps on the track."]
    parts += [f"{line}." for line in _own(view)]
    words = last_words(last, colours)
    return " ".join([*parts, words] if words else parts)
