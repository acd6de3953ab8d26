"""Seven Dragons' action space: cards by number, cells on a square grid around the Silver Dragon.

Cells run from ``-REACH`` to ``REACH`` on both axes: the table the rules hold the cards on
(``board.TABLE``, 12 cells from the centre), so every placement the rules allow has an action.
An action card's command numbers only the copies of that action (three cards each), which keeps
Move a Card's block to 3 x 67 x 25 x 25 x 2 x 2 actions.

The observation reads the view with its grid keyed by cell (``"x,y"``, in the view's row-major
order) instead of by place in the list (``observed_view``): a card placed before another in that
order would otherwise shift every later card's features, for the learner and for the encoder's
caches alike. The observation encoder adds the observed view's leaves straight from the state, key
by key in the view's order (``domain.seven_dragons.view``). What a seat may see is decided first, as the view
decides it (its hand, its goal, the goals and cards it knows of, the turned-up hands), and
the visible content is the key of each cached part: a placed card, a hand, a player's entry,
the goal ring. A placed card is rendered by the view's own ``_placed``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from domain import seven_dragons
from domain.kernel import Command
from domain.seven_dragons.board import TABLE
from domain.seven_dragons.cards import (
    ACTION_OF_CARD,
    CARDS,
    COLOURS,
    DRAGONS,
    IS_DRAGON,
    ORIENTATIONS,
    SILVER,
    Action,
    oriented,
)
from domain.seven_dragons.checks import board
from domain.seven_dragons.commands import (
    Direction,
    Discard,
    DiscardAction,
    MoveCard,
    PlaceDragon,
    RotateGoals,
    SetAside,
    TradeGoals,
    TradeHands,
    ZapCard,
)
from domain.seven_dragons.state import Phase, Placed, SevenDragonsState
from domain.seven_dragons.variants import MAX_SEATS
from domain.seven_dragons.view import _placed, describe, rules_of, silver_colour
from rl.action_fields import Values
from rl.features import Leaves, path, path_from
from rl.games.seven_dragons_grid import Grids
from rl.specs import GameSpec, codec_for, register_spec

REACH = TABLE
"""The table the rules hold the cards on (random games stay within 9 cells of the centre)."""

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
    grid = _GRIDS.leaves(state.layout, silver)
    out.extend(grid.buckets, grid.weights)
    out.cached(_LARGEST, largest, lambda: {c.value: n for c, n in zip(COLOURS, largest, strict=True)})
    add(_DECK, len(state.deck))
    out.grouped(state.discard, lambda leaves: _add_cards(leaves, _DISCARD, state.discard))
    out.grouped(state.set_aside, lambda leaves: _add_cards(leaves, _SET_ASIDE, state.set_aside))
    add(_YOU, me)
    if me is None:
        add(_HAND, None)
    else:
        _add_cards(out, _HAND, state.hands[me])
    goal = state.goal_of(me) if me is not None else None
    add(_GOAL, None if goal is None else goal.value)
    add(_TARGET, state.targets[me] if me is not None else None)
    knows_goals = state.seen_goals[me] if me is not None else frozenset()
    for s, (head, cards, shown) in enumerate(_players(state, me, largest, knows_goals)):
        at = _player_path(s)
        out.cached(at, head, _head, head)
        if cards is not None:
            _add_cards(out, path_from(at, cards[0]), cards[1])
        if shown is not None:
            out.cached(at, shown, _goal, shown)
    ring = tuple(
        (slot.seat, slot.goal.value if slot.goal and (slot.seat == me or slot.goal in knows_goals) else None)
        for slot in state.ring
    )
    out.cached(_RING, ring, lambda: [{"seat": s, "goal": g} for s, g in ring])
    add(_WINNERS, state.winners)
    add(_END, state.end.value if state.end else None)
    return out


def observed_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view with its ``grid`` a mapping from ``"x,y"`` to the card there, in the same order."""
    return {**view, "grid": {f"{c['x']},{c['y']}": c for c in view["grid"]}}


def _add_placed(p: Placed, silver: str | None, out: Leaves) -> None:
    """The leaves of ``_placed(p, silver)`` at its cell, in its order: the card's own and its
    panels' parts cached apart from its cell and who placed it, so that a card newly placed costs
    a few lookups, not a render (a placed card is seldom met twice at one cell by one seat)."""
    at = _cell_path(p.x, p.y)
    out.cached(at, p.card, _card_head, p.card)
    out.add(path_from(at, "x"), p.x)
    out.add(path_from(at, "y"), p.y)
    out.add(path_from(at, "orientation"), p.orientation)
    out.cached(at, (p.card, p.orientation, silver), _panels, p.card, p.orientation, silver)
    out.add(path_from(at, "placed_by"), p.by)


_GRIDS = Grids(_add_placed)


def _card_head(card: int) -> dict[str, Any]:
    c = CARDS[card]
    return {"card": card, "kind": c.kind.value, "name": c.name}


def _panels(card: int, orientation: int, silver: str | None) -> dict[str, Any]:
    return {"panels": _placed(Placed(card, 0, 0, orientation, 0), silver)["panels"]}


def _rules(state: SevenDragonsState) -> dict[str, Any]:
    table = state.table
    return {"variant": table.variant, "rules": rules_of(table)}


def _players(
    state: SevenDragonsState, me: int | None, largest: tuple[int, ...], knows_goals: frozenset[Any]
) -> list[tuple[Any, ...]]:
    """What the view shows of each player, decided as the view decides it: (seat, hand size,
    target, left), the cards shown as ``hand`` or ``known_cards`` or None, and its goal and the
    goal's group or None."""
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
        out.append(((s, len(hand), state.targets[s], s in state.left), cards, shown))
    return out


def _head(head: tuple[int, int, int, bool]) -> dict[str, Any]:
    s, size, target, left = head
    return {"seat": s, "hand_size": size, "target": target, "left": left}


def _goal(shown: tuple[str, int]) -> dict[str, Any]:
    return {"goal": shown[0], "group": shown[1]}


def _add_cards(out: Leaves, at: int, cards: tuple[int, ...]) -> None:
    """A list of described cards, card by card: a hand changes by a card or two a turn, a pile
    by one."""
    for i, card in enumerate(cards):
        out.cached(_item_path(at, i), card, describe, card)


@cache
def _item_path(at: int, i: int) -> int:
    return path_from(at, i)


@cache
def _cell_path(x: int, y: int) -> int:
    return path("grid", f"{x},{y}")


def _player_path(s: int) -> int:
    return _PLAYERS[s] if s < len(_PLAYERS) else path("players", s)


_PLAYERS = tuple(path("players", s) for s in range(MAX_SEATS))


# ------------------------------------------------------------ the mask hook


def legal_actions(state: SevenDragonsState, seat: int) -> np.ndarray | None:
    """The actions of ``legal.legal_moves(state, seat)``, numbered part by part as it lists them
    (dragon placements per card and orientation, each action card's effects per discard, its
    plain discard, set-asides when nothing else can be played), the cells of a placement or a
    move by table: no command is built for them. None when ``seat`` is not to play."""
    if state.phase is not Phase.PLAY or seat != state.turn:
        return None
    codec = codec_for(seven_dragons.RULESET)
    hand = sorted(set(state.hands[seat]))
    b = board(state)
    strict = state.table.strict_edges
    out: list[int] = []
    terms = _terms(PlaceDragon)
    for card in hand:
        if IS_DRAGON[card]:
            for orientation in ORIENTATIONS:
                cells = b.fits(oriented(card, orientation), strict)
                _cells(out, _base(PlaceDragon, card=card, orientation=orientation), terms, cells)
    commands: list[Command] = []
    others = tuple(s for s in state.active() if s != seat)
    targets = sorted(p.card for p in state.layout if p.card != SILVER)
    for card in hand:
        if not IS_DRAGON[card]:
            for discard in _discards(state):
                _effects(state, card, discard, others, targets, out, commands)
            commands.append(DiscardAction(card))
    if not out and not commands:
        commands = [SetAside(card) for card in hand]
    out.extend(a for a in map(codec.index, commands) if a is not None)
    return np.sort(np.array(out, dtype=np.int64))  # the listing holds no move twice


def _effects(
    state: SevenDragonsState,
    card: int,
    discard: Discard,
    others: tuple[int, ...],
    targets: list[int],
    out: list[int],
    commands: list[Command],
) -> None:
    """The actions of playing action card ``card`` with its effect: Move a Card's and Zap a
    Card's (one per layout card) into ``out`` by number, the others' (a few) as commands."""
    action = ACTION_OF_CARD[card]
    if action is Action.TRADE_HANDS:
        commands.extend(TradeHands(card, other, discard) for other in others)
    elif action is Action.TRADE_GOALS:
        commands.extend(TradeGoals(card, seat=other, discard=discard) for other in others)
        commands.extend(TradeGoals(card, unused=k, discard=discard) for k in range(len(state.unused_slots())))
    elif action is Action.ROTATE_GOALS:
        commands.extend(RotateGoals(card, d, discard) for d in Direction)
    elif action is Action.ZAP_A_CARD:
        zap = _base(ZapCard, card=card, discard=discard, target=0)
        if len(state.layout) > 1 and zap is not None:
            step = _stride(ZapCard, "target")
            out.extend(zap + target * step for target in targets)  # target is numbered by card number
    else:
        b = board(state)
        _moves(card, discard, b, state.table.strict_edges, targets, out)


def _moves(card: int, discard: Discard, b: Any, strict: bool, targets: list[int], out: list[int]) -> None:
    """Move a Card's actions: for each layout card, the cells it may move to upright, turned,
    and the (cell, orientation) pairs next to it, by table."""
    move = codec_for(seven_dragons.RULESET).blocks_by_type[MoveCard]
    first = move.base(card=card, target=targets[0], orientation=0, discard=discard) if targets else None
    # ``target`` is numbered by card number (ANY_CARD): its index is the card itself
    if first is None:
        return
    get = _terms(MoveCard).get
    step, turn = move.stride("target"), {o: TURN.values.index(o) * move.stride("orientation") for o in ORIENTATIONS}
    first -= targets[0] * step
    for target in targets:
        upright, turned, near = b.destinations(target, strict)
        at = first + target * step
        out.extend(at + t for t in map(get, upright) if t is not None)
        at_turned = at + turn[180]
        out.extend(at_turned + t for t in map(get, turned) if t is not None)
        for cell, orientation in near:
            t = get(cell)
            if t is not None:
                out.append(at + turn[orientation] + t)


def _cells(out: list[int], base: int | None, terms: dict[tuple[int, int], int], cells: Any) -> None:
    """The actions ``base + terms[cell]`` of the cells within reach (a cell beyond has no action)."""
    if base is not None:
        out.extend(base + t for t in map(terms.get, cells) if t is not None)


@cache
def _base(kind: type[Command], **fixed: Any) -> int | None:
    return codec_for(seven_dragons.RULESET).blocks_by_type[kind].base(**fixed)


@cache
def _stride(kind: type[Command], name: str) -> int:
    return codec_for(seven_dragons.RULESET).blocks_by_type[kind].stride(name)


@cache
def _terms(kind: type[Command]) -> dict[tuple[int, int], int]:
    """Each cell within reach and what its ``x`` and ``y`` add to an action of block ``kind``."""
    block = codec_for(seven_dragons.RULESET).blocks_by_type[kind]
    sx, sy = block.stride("x"), block.stride("y")
    return {(x, y): CELL.values.index(x) * sx + CELL.values.index(y) * sy for x in CELL.values for y in CELL.values}


def _discards(state: SevenDragonsState) -> tuple[Discard, ...]:
    return (Discard.TOP, Discard.BOTTOM) if state.table.silver else (Discard.TOP,)


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
        observed_view=observed_view,
        observation=observation,
        legal_actions=legal_actions,
    )
)
