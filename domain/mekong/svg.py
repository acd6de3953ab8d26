"""render_svg(): the board of a view as a standalone SVG document.

Drawn from the view alone (so it shows exactly what the viewer may see): the
water, the villages in their colours, the islands, the stones, the planks in
their colours with their sizes, and the pawns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

FILL = {
    "yellow": "#f2c916", "red": "#d7263d", "green": "#2a9d4b", "blue": "#1f5fbf",
    "black": "#222222", "white": "#f4f4f4", "pink": "#ef7fb6",
}  # fmt: skip
"""Designed: the drawing colour of each player colour."""
WATER, SAND, STONE, INK = "#8cc7e8", "#e3c98f", "#8d8d8d", "#1b1b1b"
MARGIN = 6.0


def render_svg(view: Mapping[str, Any]) -> str:
    board = view["board"]
    r = float(board["radius"]) + MARGIN
    points = {v["name"]: (v["x"], v["y"]) for v in board["villages"]}
    points.update({s["name"]: (s["x"], s["y"]) for s in view["stones"]})
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-r} {-r} {2 * r} {2 * r}" width="600" height="600">',
        "<title>Les Dragons du Mékong</title>",
        f'<circle cx="0" cy="0" r="{board["radius"]}" fill="{WATER}" stroke="{INK}" stroke-width="0.6"/>',
    ]
    for v in board["villages"]:
        parts.append(_disc(v["x"], v["y"], board["village_radius"], FILL.get(v["name"], SAND), f"village {v['name']}"))
    for i in board["islands"]:
        parts.append(_disc(i["x"], i["y"], board["island_radius"], SAND, f"island {i['name']}", stroke=False))
    for s in view["stones"]:
        parts.append(_disc(s["x"], s["y"], board["stone_radius"], STONE, f"stone {s['name']}"))
    for p in view["planks"]:
        parts.append(_plank(p, points))
    parts.extend(_pawns(view, points, board))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _disc(x: float, y: float, radius: float, fill: str, title: str, stroke: bool = True) -> str:
    line = f' stroke="{INK}" stroke-width="0.4"' if stroke else ""
    return f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}"{line}><title>{escape(title)}</title></circle>'


def _plank(plank: Mapping[str, Any], points: Mapping[str, tuple[float, float]]) -> str:
    (x1, y1), (x2, y2) = (points[e] for e in plank["ends"])
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    fill = FILL.get(plank["colour"], SAND)
    text = "#ffffff" if plank["colour"] in ("black", "blue", "red", "green") else INK
    return (
        f"<g><title>plank {escape(plank['plank'])}</title>"
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{INK}" stroke-width="3.4" stroke-linecap="round"/>'
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{fill}" stroke-width="2.6" stroke-linecap="round"/>'
        f'<text x="{mx:.1f}" y="{my + 1:.1f}" font-size="3" text-anchor="middle" fill="{text}">{plank["size"]}</text>'
        "</g>"
    )


def _pawns(view: Mapping[str, Any], points: Mapping[str, tuple[float, float]], board: Mapping[str, Any]) -> list[str]:
    ends = {p["plank"]: p["ends"] for p in view["planks"]}
    out = []
    in_village: dict[str, int] = {}
    for seat in view["seats"]:
        spot = seat["pawn"]
        if spot is None:
            continue
        if spot in ends:
            (x1, y1), (x2, y2) = (points[e] for e in ends[spot])
            x, y = (x1 + x2) / 2, (y1 + y2) / 2 - 3.5
        else:
            k = in_village.get(spot, 0)
            in_village[spot] = k + 1
            x, y = points[spot]
            x += (k % 3 - 1) * 4.5
            y += (k // 3) * 4.5 - 2
        colour = FILL.get(seat["colour"], SAND)
        out.append(
            f"<g><title>{escape(seat['colour'])} pawn</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.6" fill="{colour}" stroke="{INK}" stroke-width="0.7"/></g>'
        )
    return out
