"""``view``: the board as a viewer sees it. Everything is public but the pile's order."""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from domain.tarasque import lair
from domain.tarasque.queries import may_set_aside, scores
from domain.tarasque.state import AWAITING, TarasqueState
from domain.tarasque.tiles import SIDES


def view(state: TarasqueState, viewer: Viewer) -> dict[str, Any]:
    """The same for every viewer but one thing: the pile shows only its size, and its
    order only to ``Viewer.everyone()`` (after the game)."""
    board, turn, deck = state.board, state.turn, state.deck
    out = {
        "variant": state.variant,
        "phase": turn.phase.value,
        "active": turn.seat if turn.phase in AWAITING else None,
        "round": turn.round,
        "pile": len(board.pile),
        "middle": list(board.middle),
        "removed": list(board.removed),
        "bases": [{str(side): list(tiles) for side, tiles in zip(SIDES, base, strict=True)} for base in board.bases],
        "lairs": [[list(row) for row in rows] for rows in board.lairs],
        "lair_points": [lair.score(rows) for rows in board.lairs],
        "eggs": list(board.eggs),
        "supply": board.supply,
        "scores": list(scores(state)),
        "left": list(state.left),
        "turn": {
            "seat": turn.seat,
            "rolls": turn.rolls,
            "in_hand": turn.dice,
            "showing": list(turn.showing),
            "may_set_aside": may_set_aside(state),
            "set_aside": {f: n for f, n in zip(deck.faces, turn.aside, strict=True) if n},
            "spent": {f: n for f, n in zip(deck.faces, turn.spent, strict=True) if n},
            "egg": turn.egg,
            "pending": turn.pending,
            "extra_turn": turn.extra,
        },
        "faces": list(deck.faces),
        "tiles": {t: deck.describe(t) for t in deck.tiles},
        "result": state.result or None,
    }
    if viewer.omniscient:
        out["pile_order"] = list(board.pile)
    return out
