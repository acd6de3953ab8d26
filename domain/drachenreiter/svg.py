"""render_svg: a standalone SVG of a view: frame, track, yellow lines, finish line,
start grid, fields, symbols, traps, dragons and the last move's template."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

import shapely

from domain.drachenreiter.dimensions import FIELD_RADIUS, SYMBOL_RADIUS, TRACK_WIDTH, TRAP_RADIUS
from domain.drachenreiter.shapes import base, template
from domain.drachenreiter.track import Track, track


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


def render_svg(view: Mapping[str, Any]) -> str:
    tr = track(view["track"], view["backwards"])
    minx, miny, maxx, maxy = tr.frame
    w, h = maxx - minx, maxy - miny
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h:.0f}" width="{w:.0f}" height="{h:.0f}">',
        f"<title>Chevaliers des dragons: {escape(tr.layout.title)}, round {view['round']}</title>",
        f'<g transform="translate({-minx:.1f} {maxy:.1f}) scale(1 -1)">',
        f'<rect x="{minx:.1f}" y="{miny:.1f}" width="{w:.1f}" height="{h:.1f}" fill="#6b4f2a"/>',
        f'<path d="{_path(tr.area)}" fill="#c9d8b6" fill-rule="evenodd" stroke="#333" stroke-width="3"/>',
    ]
    out += [_line(tr, s, "#e8c020", 2) for s in tr.yellow]
    out.append(_line(tr, tr.finish_s, "#000", 6))
    for k, (x, y, hd) in enumerate(tr.grid, start=1):
        out.append(
            f'<path d="{_path(base(x, y, hd))}" fill="none" stroke="#fff" stroke-dasharray="4 3"/>'
            f"<!-- start place {k} -->"
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
    for d in view["dragons"]:
        if d["out"] or d["place"] == 0:
            continue
        out.append(
            f'<path d="{_path(base(d["x"], d["y"], d["heading"]))}" fill="{d["colour"]}" '
            f'stroke="#000" stroke-width="1.5"><title>seat {d["seat"]}: energy {d["energy"]}, '
            f"speed {d['speed']}</title></path>"
        )
    out += ["</g>", "</svg>"]
    return "\n".join(out)
