"""``view``: the only code that decides what a viewer sees of a Seven Dragons game.

Public: the layout with every card's panels and orientation, the Silver Dragon's
colour, the largest group of each colour, the deck size, the discard pile, the
cards set aside, hand sizes, the goal ring's shape and every seat's target.
A seat also sees its hand and goal, the goals it knows the place of (it held
them: every goal move since was public), and the cards it knows to be in
another hand. In Dragon connections the turned-up card is public. After the
game, ``Viewer.everyone()`` sees all.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from domain.seven_dragons.cards import CARDS, COLOUR_OF_BIT, COLOURS, SILVER, WILD, Colour, Kind, oriented
from domain.seven_dragons.checks import board
from domain.seven_dragons.state import Phase, Placed, SevenDragonsState, Table

State = SevenDragonsState


def describe(card: int) -> dict[str, Any]:
    """A card as clients show it."""
    c = CARDS[card]
    out: dict[str, Any] = {"card": card, "kind": c.kind.value, "name": c.name}
    if c.kind is Kind.DRAGON:
        out["panels"] = [_panel(m, c.rainbow) for m in c.panels]
    if c.colour is not None:
        out["colour"] = c.colour.value
    return out


def _panel(mask: int, rainbow: bool) -> str:
    if mask == WILD:
        return "rainbow" if rainbow else "wild"
    return COLOUR_OF_BIT[mask].value


def silver_colour(state: State) -> str | None:
    """``wild``, a colour, or None when the game has no Silver Dragon."""
    mask = state.silver_mask()
    if not mask:
        return None
    return "wild" if mask == WILD else COLOUR_OF_BIT[mask].value


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    me = viewer.seat if viewer.seat is not None and 0 <= viewer.seat < state.seats else None
    sees_all = viewer.omniscient
    knows_goals = state.seen_goals[me] if me is not None else frozenset()
    knows_cards = state.known[me] if me is not None else frozenset()
    largest = board(state).largest() if state.layout else (0,) * len(COLOURS)
    silver = silver_colour(state)
    table = state.table

    def goal_visible(seat: int | None, goal: Colour) -> bool:
        return sees_all or (seat is not None and seat == me) or goal in knows_goals

    players = []
    for seat, hand in enumerate(state.hands):
        entry: dict[str, Any] = {
            "seat": seat,
            "hand_size": len(hand),
            "target": state.targets[seat],
            "left": seat in state.left,
        }
        if sees_all or seat == me or table.turn_up:
            entry["hand"] = [describe(c) for c in hand]
        elif knows_cards:
            entry["known_cards"] = [describe(c) for c in hand if c in knows_cards]
        goal = state.goal_of(seat)
        if goal is not None and goal_visible(seat, goal):
            entry["goal"] = goal.value
            entry["group"] = largest[COLOURS.index(goal)]
        players.append(entry)

    return {
        "variant": table.variant,
        "rules": rules_of(table),
        "phase": state.phase.value,
        "turn": state.turn if state.phase is Phase.PLAY else None,
        "silver": silver,
        "grid": [_placed(p, silver) for p in sorted(state.layout, key=lambda p: (p.y, p.x))],
        "largest_groups": {c.value: n for c, n in zip(COLOURS, largest, strict=True)},
        "deck_size": len(state.deck),
        "discard": [describe(c) for c in state.discard],
        "set_aside": [describe(c) for c in state.set_aside],
        "you": me,
        "hand": [describe(c) for c in state.hands[me]] if me is not None else None,
        "goal": _value(state.goal_of(me)) if me is not None else None,
        "target": state.targets[me] if me is not None else None,
        "players": players,
        "goal_ring": [
            {"seat": slot.seat, "goal": slot.goal.value if slot.goal and goal_visible(slot.seat, slot.goal) else None}
            for slot in state.ring
        ],
        "winners": list(state.winners),
        "end": state.end.value if state.end else None,
    }


def _value(goal: Colour | None) -> str | None:
    return None if goal is None else goal.value


def _placed(p: Placed, silver: str | None) -> dict[str, Any]:
    c = CARDS[p.card]
    if p.card == SILVER:
        panels = [silver] * 4
    else:
        panels = [_panel(m, c.rainbow) for m in oriented(p.card, p.orientation)]
    return {
        "card": p.card,
        "kind": c.kind.value,
        "name": c.name,
        "x": p.x,
        "y": p.y,
        "orientation": p.orientation,
        "panels": panels,
        "placed_by": p.by,
    }


def rules_of(table: Table) -> dict[str, Any]:
    """The variant's rules as every view shows them (the learning environments' encoder too)."""
    return {
        "actions": [a.value for a in table.actions],
        "silver_dragon": table.silver,
        "rainbow_dragon": table.rainbow,
        "goals": table.goals,
        "turn_up": table.turn_up,
        "strict_edges": table.strict_edges,
    }
