"""observe: a state ``seat`` cannot tell from the true one.

Resampled, consistently with what the seat knows: the cards it cannot see (the
pile, the others' hands and their face-down laid cards) are shuffled and dealt
back in the same counts; the speeds others set and have not shown are drawn from
what their dials allowed; the trap values in the stock and on the track are
shuffled among themselves.
"""

from __future__ import annotations

import random
from dataclasses import replace

from domain.drachenreiter.race import settable_speeds
from domain.drachenreiter.state import RaceState


def observe(state: RaceState, seat: int, rng: random.Random) -> RaceState:
    dragons = list(state.dragons)
    pool = list(state.deck)
    for s, d in enumerate(dragons):
        if s != seat:
            pool += d.hand
            if d.laid is not None and not d.shown:
                pool.append(d.laid)
    rng.shuffle(pool)
    for s, d in enumerate(dragons):
        if s == seat:
            continue
        hand = tuple(sorted((pool.pop() for _ in d.hand), key=lambda c: c.value))
        laid = pool.pop() if d.laid is not None and not d.shown else d.laid
        set_speed = d.set_speed
        if set_speed is not None and not (state.mover == s or d.moved):
            set_speed = rng.choice(settable_speeds(d))
        dragons[s] = replace(d, hand=hand, laid=laid, set_speed=set_speed)
    values = list(state.stock) + [t.value for t in state.traps]
    rng.shuffle(values)
    traps = tuple(replace(t, value=values.pop()) for t in state.traps)
    return replace(state, dragons=tuple(dragons), deck=tuple(pool), stock=tuple(values), traps=traps)
