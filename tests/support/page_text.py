"""What a person must never read on a page or in a sentence: the API's words instead of the game's.

``machine_words(text)`` lists each piece of ``text`` that looks like the wire form: an id (a UUID, or
the 8 hex digits of its short form), JSON or a Python literal, a raw float, a seat named by its number
("seat 2", from 0 or 1: seats are named by player and colour), a version number shown as such. A
"step N" is allowed: it is how people refer to a point of a game.
``narration_faults`` is stricter, for the sentences the narrators write: no wire name, and nothing said
to be hidden. ``bot_names`` is for pages: a server bot is named by its level ("Level 3 bot"), never by
the name the code knows it by ("greedy bot").
"""

from __future__ import annotations

import re
from functools import cache

from domain.catalog import GAMES

PATTERNS: dict[str, re.Pattern[str]] = {
    "a UUID": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
    "a short id": re.compile(r"(?<![\w-])(?=[0-9a-f]{0,7}[a-f])(?=[0-9a-f]{0,7}[0-9])[0-9a-f]{8}(?![\w-])"),
    "JSON": re.compile(r"\{\s*\"|\"\s*:\s*[\[{\"\d]|\[\s*\{|\{\s*'|'\s*:\s*"),
    "a Python or JSON literal": re.compile(r"\b(True|False|None|null)\b"),
    "a raw float": re.compile(r"\d\.\d{3,}"),
    "a seat named by its number": re.compile(r"\bseats?[ \t]*(?:no\.?[ \t]*)?\d", re.I),
    "a version number": re.compile(r"\b(v\d+|versions?\s+\d+)\b", re.I),
    "a file name": re.compile(r"\b[\w-]+\.(?:txt|md|json|py)\b"),
    "a card's deck code": re.compile(r"(?<![\w*])[RYBGK*]{4}(?![\w*])"),
    "coordinates": re.compile(r"\(-?\d+, -?\d+\)"),
}
NARRATION: dict[str, re.Pattern[str]] = {
    "a wire name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a hidden value": re.compile(r"\bhidden\b", re.I),
    "a brace or bracket": re.compile(r"[{}\[\]]"),
}


def machine_words(text: str) -> list[str]:
    """Each match of a forbidden pattern in ``text``, named, with a little context."""
    found = []
    for what, pattern in PATTERNS.items():
        for m in pattern.finditer(text):
            start, end = max(0, m.start() - 30), min(len(text), m.end() + 30)
            found.append(f"{what}: …{text[start:end]}…")
    return found


def narration_faults(text: str) -> list[str]:
    """What is wrong with a narrated sentence or phrase (empty when nothing is)."""
    found = machine_words(text)
    for what, pattern in NARRATION.items():
        found += [f"{what}: {text!r}" for _ in pattern.finditer(text)]
    if not text.strip():
        found.append("an empty sentence")
    return found


@cache
def _bot_name() -> re.Pattern[str]:
    names = sorted({bot for game in GAMES for bot in game.bots}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")[ -]bots?\b", re.I)


def bot_names(text: str) -> list[str]:
    """Each server bot named in ``text`` by its code name ("greedy bot") instead of its level."""
    return [f"a bot's code name: …{text[max(0, m.start() - 30) : m.end() + 30]}…" for m in _bot_name().finditer(text)]
