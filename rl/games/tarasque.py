"""Tarasque's action space: tiles by name, lair rows up to the most a lair can hold.

Every move is discrete. ``row`` runs 0 to ``ROWS - 1`` or ``None`` (a new row).

The observation encoder adds the view's leaves straight from the state (``domain.tarasque.view``,
key by key in its order) and renders once what recurs: the deck's description of its 36 tiles
(two thirds of the view, the same all game), the board (while it stays), each seat's base and
lair, the removed tiles (kept as the list grows), the parts of the turn.
The listing is short (a few dozen moves), so the mask needs no hook.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from domain import tarasque
from domain.tarasque import lair
from domain.tarasque.queries import may_set_aside
from domain.tarasque.state import AWAITING, Base, Board, Phase, TarasqueState, Turn
from domain.tarasque.tiles import COLOURS, DECKS, DICE, LANDSCAPES, NUMBERS, SIDES
from rl.action_fields import Values
from rl.features import Leaves, path, path_from
from rl.specs import GameSpec, register_spec

ROWS = 12
"""Designed: more lair rows than a game has been seen to build (random games reach 7)."""

TILES = Values(f"{c}-{s}" for c in COLOURS for s in (*LANDSCAPES, *NUMBERS))
SYMBOLS = Values((*COLOURS, *NUMBERS))
ROW = Values((*range(ROWS), None))
DICE_COUNT = Values(range(1, DICE + 1))
TAKE_DICE = Values(range(1, DICE + 2))
"""A tile may be taken with every die of its symbol set aside, the die on the egg counting 2."""

_PILE, _MIDDLE = path("pile"), path("middle")
_REMOVED, _BASES, _LAIRS = path("removed"), path("bases"), path("lairs")
_LEFT, _RESULT, _TURN = path("left"), path("result"), path("turn")
_SHOWING, _MAY_SET_ASIDE = path("turn", "showing"), path("turn", "may_set_aside")


def observation(state: TarasqueState, seat: int) -> Leaves:
    """The leaves of ``view(state, Viewer.of(seat))``: everything but the pile's order (which a
    seat's view never shows) is public, so this reads the state as the view does."""
    board, turn = state.board, state.turn
    out = Leaves(seat)
    active = turn.seat if turn.phase in AWAITING else None
    out.cached(
        0, ("head", state.variant, turn.phase, active, turn.round), _head, state.variant, turn.phase, active, turn.round
    )
    out.grouped(board, lambda part: _add_board(part, board))
    out.sequence(_LEFT, state.left)
    _add_turn(out, state.variant, turn, may_set_aside(state))
    out.cached(0, ("deck", state.variant), _deck, state.variant)
    out.add(_RESULT, state.result or None)
    return out


def _head(variant: str, phase: Phase, active: int | None, round_: int) -> dict[str, Any]:
    return {"variant": variant, "phase": phase.value, "active": active, "round": round_}


def _add_board(out: Leaves, board: Board) -> None:
    """The view's keys from ``pile`` to ``scores``: all the board shows (the pile only its size).
    Lists whose items change one at a time (a tile removed, a seat's base or lair) go item by
    item, so that a change costs the rendering of that item alone."""
    add = out.add
    add(_PILE, len(board.pile))
    out.sequence(_MIDDLE, board.middle)
    out.sequence(_REMOVED, board.removed)
    for s, base in enumerate(board.bases):
        out.kept(_item(_BASES, s), base, _base, base)
    for s, rows in enumerate(board.lairs):
        out.kept(_item(_LAIRS, s), rows, tuple, rows)
    points = tuple(map(_score, board.lairs))
    out.cached(0, ("points", points, board.eggs, board.supply), _points, points, board.eggs, board.supply)


_score = lru_cache(maxsize=4096)(lair.score)
"""A lair's points, kept by its rows: a board change leaves most lairs as they were."""


def _points(points: tuple[int, ...], eggs: tuple[int, ...], supply: int) -> dict[str, Any]:
    """The view's keys from ``lair_points`` to ``scores``."""
    scores = [p + e for p, e in zip(points, eggs, strict=True)]
    return {"lair_points": points, "eggs": eggs, "supply": supply, "scores": scores}


@cache
def _item(at: int, i: int) -> int:
    return path_from(at, i)


def _base(base: Base) -> dict[str, Any]:
    return {str(side): list(tiles) for side, tiles in zip(SIDES, base, strict=True)}


def _add_turn(out: Leaves, variant: str, turn: Turn, may: bool) -> None:
    """The view's ``turn``, part by part: the turn as a whole seldom recurs (its dice do not),
    its parts do."""
    out.cached(_TURN, (turn.seat, turn.rolls, turn.dice), _hand, turn.seat, turn.rolls, turn.dice)
    out.sequence(_SHOWING, turn.showing)
    out.add(_MAY_SET_ASIDE, may)
    out.cached(_TURN, (variant, turn.aside, turn.spent), _counts, variant, turn.aside, turn.spent)
    out.cached(_TURN, (turn.egg, turn.pending, turn.extra), _rest, turn.egg, turn.pending, turn.extra)


def _hand(seat: int, rolls: int, dice: int) -> dict[str, Any]:
    return {"seat": seat, "rolls": rolls, "in_hand": dice}


def _counts(variant: str, aside: tuple[int, ...], spent: tuple[int, ...]) -> dict[str, Any]:
    faces = DECKS[variant].faces
    return {
        "set_aside": {f: n for f, n in zip(faces, aside, strict=True) if n},
        "spent": {f: n for f, n in zip(faces, spent, strict=True) if n},
    }


def _rest(egg: bool, pending: str | None, extra: bool) -> dict[str, Any]:
    return {"egg": egg, "pending": pending, "extra_turn": extra}


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
