"""Seven Dragons' action space: cards by number, cells on a square grid around the Silver Dragon.

Cells run from ``-REACH`` to ``REACH`` on both axes; a placement farther out (a layout
stretched in one line beyond 12 cards from the centre) is legal but has no action, so it
is left out of the mask. An action card's command numbers only the copies of that action
(three cards each), which keeps Move a Card's block to 3 x 67 x 25 x 25 x 2 x 2 actions.

The observation encoder adds the view's leaves straight from the state, key by key in the
view's order (``domain.seven_dragons.view``). What a seat may see is decided first, as the view
decides it (its hand, its goal, the goals and cards it knows of, the turned-up hands), and
the visible content is the key of each cached part: a placed card, a hand, a player's entry,
the goal ring. A placed card is rendered by the view's own ``_placed``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from domain import seven_dragons
from domain.seven_dragons.cards import ACTION_OF_CARD, CARDS, COLOURS, DRAGONS, ORIENTATIONS, SILVER
from domain.seven_dragons.checks import board
from domain.seven_dragons.commands import Direction, Discard
from domain.seven_dragons.state import Phase, SevenDragonsState
from domain.seven_dragons.variants import MAX_SEATS
from domain.seven_dragons.view import _placed, describe, silver_colour
from rl.actions import Values
from rl.features import Leaves, path
from rl.specs import GameSpec, register_spec

REACH = 12
"""Designed: random games stay within 9 cells of the centre."""

CELL = Values(range(-REACH, REACH + 1))
ANY_CARD = Values(range(len(CARDS)))
SEAT = Values(range(MAX_SEATS))
TURN = Values(ORIENTATIONS)
PILE = Values(Discard)


def _copies(command: str) -> Values:
    return Values(sorted(c for c, a in ACTION_OF_CARD.items() if a.value == command))


ACTION_CARDS = Values(sorted(ACTION_OF_CARD))

_PHASE, _TURN, _SILVER, _LARGEST, _DECK = (path(k) for k in ("phase", "turn", "silver", "largest_groups", "deck_size"))
_DISCARD, _SET_ASIDE, _YOU, _HAND, _GOAL = (path(k) for k in ("discard", "set_aside", "you", "hand", "goal"))
_TARGET, _RING, _WINNERS, _END = (path(k) for k in ("target", "goal_ring", "winners", "end"))


def observation(state: SevenDragonsState, seat: int) -> Leaves:
    """The leaves of ``view(state, Viewer.of(seat))``."""
    me = seat if 0 <= seat < state.seats else None
    largest = board(state).largest() if state.layout else (0,) * len(COLOURS)
    silver = silver_colour(state)
    table = state.table
    out = Leaves(seat)
    add = out.add
    out.cached(0, table, lambda: _rules(state))
    add(_PHASE, state.phase.value)
    add(_TURN, state.turn if state.phase is Phase.PLAY else None)
    add(_SILVER, silver)
    for i, p in enumerate(sorted(state.layout, key=lambda p: (p.y, p.x))):
        out.cached(_grid_path(i), (p, silver), partial(_placed, p, silver))
    out.cached(_LARGEST, largest, lambda: {c.value: n for c, n in zip(COLOURS, largest, strict=True)})
    add(_DECK, len(state.deck))
    out.cached(_DISCARD, state.discard, lambda: [describe(c) for c in state.discard])
    out.cached(_SET_ASIDE, state.set_aside, lambda: [describe(c) for c in state.set_aside])
    add(_YOU, me)
    if me is None:
        add(_HAND, None)
    else:
        out.cached(_HAND, state.hands[me], lambda: [describe(c) for c in state.hands[me]])
    goal = state.goal_of(me) if me is not None else None
    add(_GOAL, None if goal is None else goal.value)
    add(_TARGET, state.targets[me] if me is not None else None)
    knows_goals = state.seen_goals[me] if me is not None else frozenset()
    for s, entry in enumerate(_players(state, me, largest, knows_goals)):
        out.cached(_player_path(s), entry, partial(_entry, entry))
    ring = tuple(
        (slot.seat, slot.goal.value if slot.goal and (slot.seat == me or slot.goal in knows_goals) else None)
        for slot in state.ring
    )
    out.cached(_RING, ring, lambda: [{"seat": s, "goal": g} for s, g in ring])
    add(_WINNERS, state.winners)
    add(_END, state.end.value if state.end else None)
    return out


def _rules(state: SevenDragonsState) -> dict[str, Any]:
    table = state.table
    return {
        "variant": table.variant,
        "rules": {
            "actions": [a.value for a in table.actions],
            "silver_dragon": table.silver,
            "rainbow_dragon": table.rainbow,
            "goals": table.goals,
            "turn_up": table.turn_up,
            "strict_edges": table.strict_edges,
        },
    }


def _players(
    state: SevenDragonsState, me: int | None, largest: tuple[int, ...], knows_goals: frozenset[Any]
) -> list[tuple[Any, ...]]:
    """What the view shows of each player, decided as the view decides it: (seat, hand size,
    target, left, which cards as ``hand`` or ``known_cards``, goal and its group or None)."""
    knows_cards = state.known[me] if me is not None else frozenset()
    out = []
    for s, hand in enumerate(state.hands):
        cards: tuple[str, tuple[int, ...]] | None = None
        if s == me or state.table.turn_up:
            cards = ("hand", hand)
        elif knows_cards:
            cards = ("known_cards", tuple(c for c in hand if c in knows_cards))
        goal = state.goal_of(s)
        shown = None
        if goal is not None and (s == me or goal in knows_goals):
            shown = (goal.value, largest[COLOURS.index(goal)])
        out.append((s, len(hand), state.targets[s], s in state.left, cards, shown))
    return out


def _entry(entry: tuple[Any, ...]) -> dict[str, Any]:
    s, size, target, left, cards, shown = entry
    out: dict[str, Any] = {"seat": s, "hand_size": size, "target": target, "left": left}
    if cards is not None:
        out[cards[0]] = [describe(c) for c in cards[1]]
    if shown is not None:
        out["goal"], out["group"] = shown
    return out


def _grid_path(i: int) -> int:
    return _GRID[i] if i < len(_GRID) else path("grid", i)


def _player_path(s: int) -> int:
    return _PLAYERS[s] if s < len(_PLAYERS) else path("players", s)


_GRID = tuple(path("grid", i) for i in range(len(CARDS)))
_PLAYERS = tuple(path("players", s) for s in range(MAX_SEATS))

register_spec(
    GameSpec(
        seven_dragons.RULESET.slug,
        {
            "place_dragon": {"card": Values((*DRAGONS, SILVER)), "x": CELL, "y": CELL, "orientation": TURN},
            "trade_hands": {"card": _copies("trade_hands"), "seat": SEAT, "discard": PILE},
            "trade_goals": {
                "card": _copies("trade_goals"),
                "seat": Values((*range(MAX_SEATS), None)),
                "unused": Values((*range(MAX_SEATS), None)),
                "discard": PILE,
            },
            "rotate_goals": {"card": _copies("rotate_goals"), "direction": Values(Direction), "discard": PILE},
            "move_card": {
                "card": _copies("move_card"),
                "target": ANY_CARD,
                "x": CELL,
                "y": CELL,
                "orientation": TURN,
                "discard": PILE,
            },
            "zap_card": {"card": _copies("zap_card"), "target": ANY_CARD, "discard": PILE},
            "discard_action": {"card": ACTION_CARDS},
            "set_aside": {"card": ANY_CARD},
        },
        max_chance_outcomes=len(CARDS),
        observation=observation,
    )
)
