"""Checks every board picture passes (issue 22): it parses, is labelled and described, scales
(a viewBox, no fixed width), and names every seat in its legend."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from domain.kernel.picture import PAPER, contrast

NS = "{http://www.w3.org/2000/svg}"


def accessible(svg: str, seats: int) -> ET.Element:
    """The parsed picture, once it is shown to be accessible and to name its ``seats``."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("role") == "img"
    assert root.get("width") is None and len((root.get("viewBox") or "").split()) == 4
    labels = (root.get("aria-labelledby") or "").split()
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    assert [by_id[i].tag for i in labels] == [f"{NS}title", f"{NS}desc"]
    assert all((by_id[i].text or "").strip() for i in labels)
    assert legend_seats(root) == list(range(seats))
    return root


def legend_seats(root: ET.Element) -> list[int]:
    """The seats the legend names, once each is shown to be named in words (not by colour
    alone) and its swatch to stand out from the paper (WCAG 1.4.11: 3:1, by fill or outline)
    with its number readable on it (1.4.3: 4.5:1)."""
    legend = next(g for g in root.iter(f"{NS}g") if g.get("class") == "legend")
    entries = [g for g in legend.iter(f"{NS}g") if g.get("class") == "seat"]
    for g in entries:
        words = "".join(g.itertext())
        assert f"Seat {int(g.get('data-seat', '-1')) + 1} (" in words, words
        swatch, number = next(g.iter(f"{NS}rect")), next(g.iter(f"{NS}text"))
        fill = swatch.get("fill", "")
        assert max(contrast(fill, PAPER), contrast(swatch.get("stroke", PAPER), PAPER)) >= 3, fill
        assert contrast(number.get("fill", ""), fill) >= 4.5, fill
    return [int(g.get("data-seat", "-1")) for g in entries]


def description(root: ET.Element) -> str:
    return next(root.iter(f"{NS}desc")).text or ""


def last_words(root: ET.Element) -> str:
    marks = [g for g in root.iter(f"{NS}g") if g.get("class") == "last-decision"]
    return "".join(marks[0].itertext()) if marks else ""


def last(seat: int, move: dict[str, Any], version: int = 42, kind: str = "move") -> dict[str, Any]:
    """A last decision as services.reads.queries passes it."""
    return {"version": version, "seat": seat, "kind": kind, "move": move}
