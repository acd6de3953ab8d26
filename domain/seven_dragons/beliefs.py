"""What a seat can believe about the goals it cannot see, from what it may see.

A bot receives ``observe(state, seat)``: the goals of others are resampled there,
so they are never read. What is read:

* the goals the seat has held (``seen_goals[seat]``): every goal move is public,
  so their places in the ring are certain;
* the layout, where every card records the seat that last placed or moved it:
  a player who keeps connecting one colour probably holds that goal;
* the targets and the largest groups: a playing seat whose goal had reached its
  target would have won, so no playing seat holds such a colour.

The result is, per ring place, a distribution over colours (independent
marginals, a deliberate simplification).
"""

from __future__ import annotations

from domain.seven_dragons.board import SIDES, Board
from domain.seven_dragons.cards import COLOURS, SILVER, WILD, Colour, oriented
from domain.seven_dragons.state import SevenDragonsState

Belief = dict[Colour, float]

EVIDENCE_WEIGHT = 0.6
"""Designed: how much one same-colour connection made by a player raises the odds it holds that colour."""


def evidence(state: SevenDragonsState, b: Board) -> dict[int, dict[Colour, int]]:
    """Per seat, how many matching contacts of each colour its layout cards make."""
    out: dict[int, dict[Colour, int]] = {}
    for p in state.layout:
        if p.by is None or p.card == SILVER:
            continue
        own = oriented(p.card, p.orientation)
        counts = out.setdefault(p.by, {})
        for dx, dy, pairs in SIDES:
            q = b.masks.get((p.x + dx, p.y + dy))
            if q is None:
                continue
            for a, c in pairs:
                m = own[a] & q[c]
                if m and own[a] != WILD:
                    colour = COLOURS[own[a].bit_length() - 1]
                    counts[colour] = counts.get(colour, 0) + 1
    return out


def ring_beliefs(state: SevenDragonsState, seat: int, b: Board) -> list[Belief]:
    """Per ring place, the chance of each colour, as ``seat`` may judge it."""
    seen = state.seen_goals[seat]
    certain = {i: slot.goal for i, slot in enumerate(state.ring) if slot.goal in seen}
    unknown = [c for c in COLOURS if c not in certain.values()]
    largest = b.largest()
    clues = evidence(state, b)
    out: list[Belief] = []
    for i, slot in enumerate(state.ring):
        goal = certain.get(i)
        if goal is not None:
            out.append({goal: 1.0})
            continue
        weights: Belief = {}
        for colour in unknown:
            w = 1.0
            if slot.seat is not None:
                if largest[COLOURS.index(colour)] >= state.targets[slot.seat]:
                    continue
                w += EVIDENCE_WEIGHT * clues.get(slot.seat, {}).get(colour, 0)
            weights[colour] = w
        total = sum(weights.values()) or 1.0
        out.append({c: w / total for c, w in weights.items()})
    return out
