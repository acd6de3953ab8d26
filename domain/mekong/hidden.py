"""observe(): a state a seat cannot tell from the true one.

The only hidden information is the other seats' face-down programmed cards.
While programming, each other seat that has programmed gets a random legal
programme of its hand; during resolution, the cards not yet revealed are
redrawn from what is left of its hand, still with at most one dragon.
"""

from __future__ import annotations

import random
from dataclasses import replace

from domain.mekong.cards import PROGRAMME_LENGTH, Card, Programmes
from domain.mekong.state import MekongState
from domain.mekong.view import revealed_count


def observe(state: MekongState, seat: int, rng: random.Random) -> MekongState:
    shown = revealed_count(state)
    programmes = list(state.programmes)
    for other, programme in enumerate(state.programmes):
        if other == seat or not programme or shown >= len(programme):
            continue
        held = state.hand(other)
        if shown == 0:
            options = Programmes(held)
            programmes[other] = options[rng.randrange(len(options))]
        else:
            programmes[other] = programme[:shown] + _redraw(held, programme[:shown], rng)
    return replace(state, programmes=tuple(programmes))


def _redraw(held: tuple[Card, ...], kept: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    """Cards for the hidden positions: from the rest of the hand, at most one dragon in all."""
    pool = [c for c in held if c not in kept]
    rng.shuffle(pool)
    dragons_left = 0 if any(c.dragon for c in kept) else 1
    out: list[Card] = []
    for card in pool:
        if len(out) == PROGRAMME_LENGTH - len(kept):
            break
        if card.dragon is not None:
            if not dragons_left:
                continue
            dragons_left -= 1
        out.append(card)
    return tuple(out)
