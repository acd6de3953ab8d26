"""Les Dragons du Mékong's action space: places by name, a programme as five cards in order.

* ``Program``: five cards in order, each one of the card kinds (15^5 actions; the hand
  allows a few thousand of them at a time).
* ``PlaceStoneAt`` (challenge variant): the drop point in whole units (the rules take no
  other: ``rulebook.DROP_RESOLUTION``) from -97 to 97 on each axis, as far as a stone's
  centre may lie from the board's (the engine lists every ``building.DROP_GRID``-th).
* Supports are villages (by colour), islands (``i0``...) and dropped stones (``s1``...,
  up to ``DROPS``, the reserve's size); a path is one or two steps among planks and villages.

The mask hook numbers a hand's programmes straight from the action encoding: the legal
programmes are the orders of five distinct cards of the hand, at most one a dragon, and
their actions depend on the hand alone, so they are computed once per hand (there are a
few: a hand is the 8 actions and the dragons of the other colours in play) instead of
listing and indexing up to 48,720 ``Program`` commands at every programming step. The
other phases list a few dozen moves, indexed as usual.

The observation reads the view with its stones keyed by name and its planks by plank
(``observed_view``), so that an item's features stay where they are when another is put in
before it. The observation encoder adds the observed view's leaves straight from the state, key
by key in the view's order, and renders once what recurs: the fixed board, the stones, the planks, the
task, and each seat's parts (its programme card by card, and only as far as the viewer may see it,
``revealed_count``).
"""

from __future__ import annotations

from functools import lru_cache, partial
from itertools import permutations
from typing import Any

import numpy as np

from domain import mekong
from domain.kernel import Viewer
from domain.mekong.board import BOARD_RADIUS, ISLANDS, SIZES, STONE_RADIUS, Site
from domain.mekong.cards import PROGRAMME_LENGTH, Card
from domain.mekong.commands import Program
from domain.mekong.decide import awaiting
from domain.mekong.state import STONES as STONE_RESERVE
from domain.mekong.state import Bridge, MekongState, Phase, plank_colour, plank_name, plank_size
from domain.mekong.turns import current_actor
from domain.mekong.view import board_view, revealed_count
from rl.action_fields import Grid, Path, Seq, Values
from rl.features import Leaves, path
from rl.specs import GameSpec, codec_for, register_spec

DROPS = STONE_RESERVE
"""The dropped stones an action can name (``s1`` to ``s27``): a drop takes the lowest name no stone
in the water bears (``building.stone_name``), and the reserve holds 27."""

COLOURS = tuple(c.dragon for c in Card if c.dragon is not None)
PLANKS = Values(plank_name(c, s) for c in COLOURS for s in SIZES)
STONES = Values((*(i.name for i in ISLANDS), *(f"s{n}" for n in range(1, DROPS + 1))))
SUPPORTS = Values((*COLOURS, *STONES.values))
SPOTS = Values((*PLANKS.values, *COLOURS))
_EDGE = float(BOARD_RADIUS - STONE_RADIUS)
DROP = Grid(-_EDGE, _EDGE, 1.0)
PROGRAMME = Seq(Values(Card), 5)


def legal_actions(state: MekongState, seat: int) -> np.ndarray | None:
    """The programmes of ``seat``'s hand while it programmes; None (list the moves) otherwise."""
    if state.phase is not Phase.PROGRAMMING or seat not in _awaiting(state):
        return None
    return _programmes(state.hand(seat))


def _awaiting(state: MekongState) -> tuple[int, ...]:
    """``awaiting(state)``, kept for the last state asked about: the encoder and the mask hook
    both ask it of each position, and it walks the turn order."""
    global _LAST_AWAITING
    last = _LAST_AWAITING  # one tuple, read and replaced whole: safe for environments in threads
    if last[0] is not state:
        last = _LAST_AWAITING = (state, awaiting(state))
    return last[1]


_LAST_AWAITING: tuple[MekongState | None, tuple[int, ...]] = (None, ())


@lru_cache(maxsize=64)
def _programmes(held: tuple[Card, ...]) -> np.ndarray:
    """The actions of every programme of ``held``, in increasing order (read-only: shared).

    The programmes of ``cards.Programmes``: the orders of five of the hand's actions, and of
    four with one dragon at any place. Built by ``itertools.permutations`` over the cards'
    numbers and numbered in one product, a fresh hand costs milliseconds rather than a
    ``Programmes`` item and a ``Seq.index`` per programme."""
    number = {card: PROGRAMME.item.index(card) for card in held}
    actions = [number[c] for c in held if c.dragon is None]
    dragons = [number[c] for c in held if c.dragon is not None]
    rows = list(permutations(actions, PROGRAMME_LENGTH))
    for four in permutations(actions, PROGRAMME_LENGTH - 1):
        rows.extend((*four[:at], d, *four[at:]) for d in dragons for at in range(PROGRAMME_LENGTH))
    places = PROGRAMME.item.size ** np.arange(PROGRAMME_LENGTH - 1, -1, -1, dtype=np.int64)
    offset = codec_for(mekong.RULESET).blocks_by_type[Program].offset
    out = np.sort(offset + np.array(rows, dtype=np.int64).reshape(-1, PROGRAMME_LENGTH) @ places)
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
    head = (state.variant, state.phase, state.round, state.round_limit, state.first, state.position)
    out.cached(0, ("head", *head), _head, *head)
    out.sequence(_AWAITING, _awaiting(state))
    add(_CARD, None if card is None else card.value)
    task = state.task
    out.kept(_TASK, task, lambda: {"done": task.done, "retry": task.retry, "tried": task.tried})
    viewer, revealed = Viewer.of(seat), revealed_count(state)
    for s in range(state.seats):
        _add_seat(out, state, s, len(state.programmes[s]) if viewer.sees(s) and state.programmes else revealed)
    out.cached(_BOARD, state.variant, lambda: board_view(state))
    out.keyed(_STONES, state.stones, _stone_name, _stone)
    add(_RESERVE, state.stone_reserve)
    out.keyed(_PLANKS, state.bridges, _plank_name, _plank)
    add(_LOST, state.lost)
    add(_WINNER, state.winner)
    add(_ENDING, state.ending)
    return out


def _head(variant: str, phase: Phase, round_: int, limit: int, first: int, position: int) -> dict[str, Any]:
    return {
        "variant": variant,
        "phase": phase.value,
        "round": round_,
        "round_limit": limit,
        "first": first,
        "position": position,
    }


@lru_cache(maxsize=256)
def _seat_paths(s: int) -> tuple[int, ...]:
    return tuple(path("seats", s, *key) for key in ((), ("pawn",), ("reserve",), ("left",), ("hand",), ("programmed",)))


@lru_cache(maxsize=4096)
def _programme_path(s: int, i: int) -> int:
    return path("seats", s, "programme", i)


def _add_seat(out: Leaves, state: MekongState, s: int, shown: int) -> None:
    """``view._seat``: its parts apart, as they change apart (a pawn moves, a reserve shrinks),
    and of the programme only its first ``shown`` cards."""
    at, pawn, reserve, left, hand, _ = _seat_paths(s)
    colours = state.colours
    out.cached(
        at,
        (state.variant, colours, s),
        lambda: {"colour": colours[s], "start": state.start(s), "destination": state.destination(s)},
    )
    out.add(pawn, state.pawns[s] if state.pawns else None)
    out.sequence(reserve, state.reserves[s] if state.reserves else ())
    out.add(left, not state.in_play(s))
    out.cached(hand, (colours, s), lambda: [c.value for c in state.hand(s)])
    programme = state.programmes[s] if state.programmes else ()
    out.grouped(programme, partial(_add_programme, s, programme, shown), also=(s, shown))


def _add_programme(s: int, programme: tuple[Card, ...], shown: int, out: Leaves) -> None:
    """A seat's ``programmed`` and ``programme``, its first ``shown`` cards showing."""
    out.add(_seat_paths(s)[-1], len(programme))
    for i, card in enumerate(programme):
        out.add(_programme_path(s, i), card.value if i < shown else None)


def observed_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view with its ``stones`` keyed by name and its ``planks`` by plank, in the same order:
    a stone placed in its sorted place would otherwise shift every later stone's features."""
    return {
        **view,
        "stones": {s["name"]: s for s in view["stones"]},
        "planks": {p["plank"]: p for p in view["planks"]},
    }


def _stone_name(s: Site) -> str:
    return s.name


def _plank_name(b: Bridge) -> str:
    return b.plank


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
        observed_view=observed_view,
        legal_actions=legal_actions,
        observation=observation,
    )
)
