"""Les Dragons du Mékong's action space: places by name, a programme as five cards in order.

* ``Program``: five cards in order, each one of the card kinds (15^5 actions; the hand
  allows a few thousand of them at a time).
* ``PlaceStoneAt`` (challenge variant): the drop point on the engine's own grid
  (``building.DROP_GRID``, 12 units) from -96 to 96 on each axis.
* Supports are villages (by colour), islands (``i0``...) and dropped stones (``s1``...,
  up to ``DROPS``); a path is one or two steps among planks and villages.

The mask hook numbers a hand's programmes straight from the action encoding: the legal
programmes are the orders of five distinct cards of the hand, at most one a dragon, and
their actions depend on the hand alone, so they are computed once per hand (there are a
few: a hand is the 8 actions and the dragons of the other colours in play) instead of
listing and indexing up to 48,720 ``Program`` commands at every programming step. The
other phases list a few dozen moves, indexed as usual.

The observation encoder adds the view's leaves straight from the state, key by key in the
view's order, and renders once what recurs: the fixed board, the stones, the planks, the
task, and each seat (keyed by all the view shows of it: its programme only as far as the
viewer may see it, ``revealed_count``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

import numpy as np

from domain import mekong
from domain.kernel import Viewer
from domain.mekong.board import BOARD_RADIUS, ISLANDS, SIZES, Site
from domain.mekong.building import DROP_GRID
from domain.mekong.cards import Card, Programmes
from domain.mekong.commands import Program
from domain.mekong.decide import awaiting
from domain.mekong.state import Bridge, MekongState, Phase, plank_colour, plank_name, plank_size
from domain.mekong.turns import current_actor
from domain.mekong.view import board_view, revealed_count
from rl.actions import Grid, Path, Seq, Values
from rl.features import Leaves, path, path_from
from rl.specs import GameSpec, codec_for, register_spec

DROPS = 40
"""Designed: more stones than the reserve holds (27)."""

COLOURS = tuple(c.dragon for c in Card if c.dragon is not None)
PLANKS = Values(plank_name(c, s) for c in COLOURS for s in SIZES)
STONES = Values((*(i.name for i in ISLANDS), *(f"s{n}" for n in range(1, DROPS + 1))))
SUPPORTS = Values((*COLOURS, *STONES.values))
SPOTS = Values((*PLANKS.values, *COLOURS))
_EDGE = (BOARD_RADIUS // DROP_GRID) * DROP_GRID
DROP = Grid(-_EDGE, _EDGE, DROP_GRID)
PROGRAMME = Seq(Values(Card), 5)


def legal_actions(state: MekongState, seat: int) -> np.ndarray | None:
    """The programmes of ``seat``'s hand while it programmes; None (list the moves) otherwise."""
    if state.phase is not Phase.PROGRAMMING or seat not in awaiting(state):
        return None
    return _programmes(state.hand(seat))


@lru_cache(maxsize=64)
def _programmes(held: tuple[Card, ...]) -> np.ndarray:
    """The actions of every programme of ``held``, in increasing order (read-only: shared)."""
    offset = codec_for(mekong.RULESET).blocks_by_type[Program].offset
    local = [PROGRAMME.index(cards) for cards in Programmes(held)]
    out = np.array(sorted(offset + i for i in local if i is not None), dtype=np.int64)
    out.flags.writeable = False
    return out


_VARIANT, _PHASE, _ROUND, _LIMIT, _FIRST = (path(k) for k in ("variant", "phase", "round", "round_limit", "first"))
_POSITION, _AWAITING, _CARD, _TASK, _BOARD = (path(k) for k in ("position", "awaiting", "card", "task", "board"))
_STONES, _RESERVE, _PLANKS, _LOST, _WINNER = (path(k) for k in ("stones", "stone_reserve", "planks", "lost", "winner"))
_ENDING = path("ending")


def observation(state: MekongState, seat: int) -> Leaves:
    """The leaves of ``view(state, Viewer.of(seat))``."""
    actor = current_actor(state)
    card = state.card(actor) if actor is not None else None
    out = Leaves(seat)
    add = out.add
    add(_VARIANT, state.variant)
    add(_PHASE, state.phase.value)
    add(_ROUND, state.round)
    add(_LIMIT, state.round_limit)
    add(_FIRST, state.first)
    add(_POSITION, state.position)
    add(_AWAITING, awaiting(state))
    add(_CARD, None if card is None else card.value)
    task = state.task
    out.kept(_TASK, task, lambda: {"done": task.done, "retry": task.retry, "tried": task.tried})
    viewer, revealed = Viewer.of(seat), revealed_count(state)
    for s in range(state.seats):
        _add_seat(out, state, s, len(state.programmes[s]) if viewer.sees(s) and state.programmes else revealed)
    out.cached(_BOARD, state.variant, lambda: board_view(state))
    out.grouped(state.stones, partial(_add_items, _STONES, state.stones, _stone))
    add(_RESERVE, state.stone_reserve)
    out.grouped(state.bridges, partial(_add_items, _PLANKS, state.bridges, _plank))
    add(_LOST, state.lost)
    add(_WINNER, state.winner)
    add(_ENDING, state.ending)
    return out


@lru_cache(maxsize=256)
def _seat_paths(s: int) -> tuple[int, int, int, int, int]:
    return (
        path("seats", s),
        path("seats", s, "pawn"),
        path("seats", s, "reserve"),
        path("seats", s, "left"),
        path("seats", s, "hand"),
    )


def _add_seat(out: Leaves, state: MekongState, s: int, shown: int) -> None:
    """``view._seat``: its parts apart, as they change apart (a pawn moves, a reserve shrinks),
    and of the programme only its first ``shown`` cards."""
    at, pawn, reserve, left, hand = _seat_paths(s)
    colours = state.colours
    out.cached(
        at,
        (state.variant, colours, s),
        lambda: {"colour": colours[s], "start": state.start(s), "destination": state.destination(s)},
    )
    out.add(pawn, state.pawns[s] if state.pawns else None)
    out.add(reserve, state.reserves[s] if state.reserves else ())
    out.add(left, not state.in_play(s))
    out.cached(hand, (colours, s), lambda: [c.value for c in state.hand(s)])
    programme = state.programmes[s] if state.programmes else ()
    visible = tuple(c.value if i < shown else None for i, c in enumerate(programme))
    out.cached(at, ("programme", visible), lambda: {"programmed": len(visible), "programme": visible})


def _add_items(at: int, items: tuple[Any, ...], render: Callable[[Any], Any], out: Leaves) -> None:
    """A list of the view whose items the state keeps from step to step (a stone placed, a plank
    laid or taken): item by item, each found by identity."""
    for i, item in enumerate(items):
        out.kept(_item_path(at, i), item, render, item)


@lru_cache(maxsize=4096)
def _item_path(at: int, i: int) -> int:
    return path_from(at, i)


def _stone(s: Site) -> dict[str, Any]:
    return {"name": s.name, "x": s.x, "y": s.y}


def _plank(b: Bridge) -> dict[str, Any]:
    return {"plank": b.plank, "colour": plank_colour(b.plank), "size": plank_size(b.plank), "ends": b.ends}


register_spec(
    GameSpec(
        mekong.RULESET.slug,
        {
            "program": {"cards": PROGRAMME},
            "place_stone": {"island": STONES},
            "place_stone_at": {"x": DROP, "y": DROP},
            "place_plank": {"plank": PLANKS, "ends": Seq(SUPPORTS, 2)},
            "remove_plank": {"plank": PLANKS},
            "remove_stone": {"stone": STONES},
            "move": {"path": Path(SPOTS, 2)},
            "jump": {"over": PLANKS, "to": SPOTS},
        },
        max_chance_outcomes=256,
        legal_actions=legal_actions,
        observation=observation,
    )
)
