"""Seats named on a board picture as the viewer names them ("Bruno (orange)", "You (teal)").

A picture is drawn from a view alone, which knows seats and colours but not players: the kernel
writes each seat as "seat N (colour)" (``domain.kernel.picture.seat_name``), counted from 1. The
platform, which knows the players, writes their names there instead, in one place for every game.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from domain.kernel.narration import Names

SEAT = re.compile(r"\b([Ss])eat (\d+) \(([a-z]+)\)")
"""How ``picture.seat_name`` writes a seat: its number from 1 and its colour's name."""


def name_seats(picture: str, names: Names) -> str:
    """``picture`` with each "seat N (colour)" whose colour is that seat's written as the viewer
    names the seat; a capital S keeps a capital ("You", "Bruno"), a small one is within a sentence."""

    def named(found: re.Match[str]) -> str:
        seat = int(found.group(2)) - 1
        full = names.full(seat, start=found.group(1) == "S")
        if seat < 0 or not full.endswith(f"({found.group(3)})"):
            return found.group(0)  # not a seat as the platform knows it: left as drawn
        return escape(full)

    return SEAT.sub(named, picture)
