"""Tarasque's action space: tiles by name, lair rows up to the most a lair can hold.

Every move is discrete. ``row`` runs 0 to ``ROWS - 1`` or ``None`` (a new row).

The observation encoder adds the view's leaves straight from the state (``domain.tarasque.view``,
key by key in its order) and renders once what recurs: the deck's description of its 36 tiles
(two thirds of the view, the same all game), the removed tiles, the bases, the lairs, the turn.
The listing is short (a few dozen moves), so the mask needs no hook.
"""

from __future__ import annotations

from typing import Any

from domain import tarasque
from domain.tarasque import lair
from domain.tarasque.state import AWAITING, Base, Board, Lair, TarasqueState, Turn
from domain.tarasque.tiles import COLOURS, DECKS, DICE, LANDSCAPES, NUMBERS, SIDES
from rl.actions import Values
from rl.features import Leaves, path
from rl.specs import GameSpec, register_spec

ROWS = 12
"""Designed: more lair rows than a game has been seen to build (random games reach 7)."""

TILES = Values(f"{c}-{s}" for c in COLOURS for s in (*LANDSCAPES, *NUMBERS))
SYMBOLS = Values((*COLOURS, *NUMBERS))
ROW = Values((*range(ROWS), None))
DICE_COUNT = Values(range(1, DICE + 1))
TAKE_DICE = Values(range(1, DICE + 2))
"""A tile may be taken with every die of its symbol set aside, the die on the egg counting 2."""

_VARIANT, _PHASE, _ACTIVE, _ROUND = (path(k) for k in ("variant", "phase", "active", "round"))
_PILE, _MIDDLE = path("pile"), path("middle")
_REMOVED, _BASES, _EGGS, _SUPPLY, _SCORES = (path(k) for k in ("removed", "bases", "eggs", "supply", "scores"))
_LAIRS = 0
_LEFT, _RESULT, _TURN, _SHOWING = path("left"), path("result"), path("turn"), path("turn", "showing")


def observation(state: TarasqueState, seat: int) -> Leaves:
    """The leaves of ``view(state, Viewer.of(seat))``: everything but the pile's order (which a
    seat's view never shows) is public, so this reads the state as the view does."""
    board, turn = state.board, state.turn
    out = Leaves(seat)
    add = out.add
    add(_VARIANT, state.variant)
    add(_PHASE, turn.phase.value)
    add(_ACTIVE, turn.seat if turn.phase in AWAITING else None)
    add(_ROUND, turn.round)
    out.grouped(board, lambda part: _add_board(part, board))
    add(_LEFT, state.left)
    _add_turn(out, state.variant, turn)
    out.cached(0, ("deck", state.variant), lambda: _deck(state.variant))
    add(_RESULT, state.result or None)
    return out


def _add_board(out: Leaves, board: Board) -> None:
    """The view's keys from ``pile`` to ``scores``: all the board shows (the pile only its size)."""
    out.add(_PILE, len(board.pile))
    out.add(_MIDDLE, board.middle)
    out.kept(_REMOVED, board.removed, tuple, board.removed)
    out.kept(_BASES, board.bases, _bases, board.bases)
    out.kept(_LAIRS, board.lairs, _lairs, board.lairs)
    out.add(_EGGS, board.eggs)
    out.add(_SUPPLY, board.supply)
    out.add(_SCORES, [lair.score(rows) + eggs for rows, eggs in zip(board.lairs, board.eggs, strict=True)])


def _bases(bases: tuple[Base, ...]) -> list[dict[str, Any]]:
    return [{str(side): list(tiles) for side, tiles in zip(SIDES, base, strict=True)} for base in bases]


def _lairs(lairs: tuple[Lair, ...]) -> dict[str, Any]:
    """The view's ``lairs`` and ``lair_points``, added at the root (``_LAIRS``)."""
    return {"lairs": lairs, "lair_points": [lair.score(rows) for rows in lairs]}


def _add_turn(out: Leaves, variant: str, turn: Turn) -> None:
    """The view's ``turn``, in four parts cached apart: the turn as a whole seldom recurs (its
    dice do not), its parts do."""
    faces = DECKS[variant].faces
    out.cached(
        _TURN,
        (turn.seat, turn.rolls, turn.dice),
        lambda: {"seat": turn.seat, "rolls": turn.rolls, "in_hand": turn.dice},
    )
    out.cached(_SHOWING, turn.showing, lambda: turn.showing)
    out.cached(
        _TURN,
        (variant, turn.aside, turn.spent),
        lambda: {
            "set_aside": {f: n for f, n in zip(faces, turn.aside, strict=True) if n},
            "spent": {f: n for f, n in zip(faces, turn.spent, strict=True) if n},
        },
    )
    out.cached(
        _TURN,
        (turn.egg, turn.pending, turn.extra),
        lambda: {"egg": turn.egg, "pending": turn.pending, "extra_turn": turn.extra},
    )


def _deck(variant: str) -> dict[str, Any]:
    deck = DECKS[variant]
    return {"faces": deck.faces, "tiles": {t: deck.describe(t) for t in deck.tiles}}


register_spec(
    GameSpec(
        tarasque.RULESET.slug,
        {
            "remove_tile": {"tile": TILES},
            "store_tile": {"tile": TILES, "row": ROW},
            "set_aside": {"symbol": SYMBOLS, "count": DICE_COUNT, "egg": Values((False, True))},
            "take_tile": {"tile": TILES, "dice": TAKE_DICE},
            "move_lair_tile": {"tile": TILES, "row": ROW},
        },
        max_chance_outcomes=72,
        observation=observation,
    )
)
