"""Board pictures speak the game: what a person reads on a board (its text, the titles shown on
hover, the description and labels read aloud) names things as the narrator does, never by the
ids the rules and the wire use: no hyphenated id ("fireball-800", "white-2", "red-forest"), no
snake_case word ("zap_card"), no island or stone written as its id ("i16"), no Python literal.
Checked at random points of random games of every game, variant and table size, for every seat
and a spectator."""

from __future__ import annotations

import random
import re
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from domain.kernel import Rng, Ruleset, Viewer, all_games
from tests.support.runs import count

CASES = [
    pytest.param(g, v.name, n, id=f"{g.slug}-{v.name}-{n}p")
    for g in all_games()
    if type(g).render_svg is not Ruleset.render_svg
    for v in g.variants
    for n in sorted({v.min_seats, v.max_seats})
]
MACHINE = re.compile(r"\b[a-z]+(?:[-_][a-z0-9]+)+\b|\b[is]\d+\b|\b(?:True|False|None)\b")
"""An id as the rules name a thing (lower case joined by hyphens or underscores, an island or a
stone's id), or a Python literal: never a word a person reads. Names of cards with a hyphen
("Counter-wind") are capitalised as on the card."""
POSITIONS = count(24, 60)
"""States read per game (every fifth of one random game, from its start): the first 24 in ``make
test``, 60 with ``--thorough``; and always its last."""
READ = ("title", "desc", "text")
"""The elements whose words a person reads (``text`` with its ``tspan`` lines)."""


def said(svg: str) -> list[str]:
    """Every piece of words the picture shows or reads aloud."""
    root = ET.fromstring(svg.encode())
    out = []
    for node in root.iter():
        if node.tag.rsplit("}", 1)[-1] in READ:
            out.append(" ".join(node.itertext()))
        out += [v for k, v in node.attrib.items() if k in ("aria-label", "title")]
    return out


def positions(ruleset: Any, variant: str, seats: int, seed: int) -> list[Any]:
    """Every fifth state of a random game, to its end."""
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.configure(variant, None, seats), Rng(b"board-words", f"{seed}"))
    kept = [state]
    for decision in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        seat = rng.choice(ruleset.awaiting(state))
        moves = ruleset.legal_moves(state, seat)
        events = ruleset.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"board-words", f"{decision}"))
        state = ruleset.fold(state, events)
        if decision % 5 == 0:
            kept.append(state)
    return [*kept, state]


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
def test_no_board_shows_an_id_instead_of_the_games_words(ruleset: Any, variant: str, seats: int) -> None:
    found: set[str] = set()
    states = positions(ruleset, variant, seats, 3)
    for state in [*states[:POSITIONS], states[-1]]:
        for viewer in [*(Viewer.of(s) for s in range(seats)), Viewer.spectator()]:
            for words in said(ruleset.render_svg(ruleset.view(state, viewer), None) or "<svg/>"):
                found |= {f"{m.group()!r} in {words[:120]!r}" for m in MACHINE.finditer(words)}
    assert not found, "\n".join(sorted(found)[:20])
