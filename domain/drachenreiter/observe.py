"""observe: a state ``seat`` cannot tell from the true one, built only from what it knows.

Platform decision: ``observe`` is a function of the seat's knowledge. Two states
the seat cannot tell apart give, for the same generator, the same observation; so
every resampled part is built from a canonical order of what is unknown (sorted),
never from the true arrangement, and the generator is consumed in an order that
depends only on public facts.

Resampled, consistently with what the seat knows:

* the cards it cannot see (the pile, the others' hands and their face-down laid
  cards), as one sorted pool, shuffled and dealt back in the same counts (the
  others in seat order: hand, then laid card), the rest in the pile;
* the speeds others set and have not shown, drawn from what their dials allowed;
* the others' secret answers in an open alliance window: no for a resampled card
  that is not a forced alliance, else drawn at even odds;
* the values of the traps in the stock and on the track, one sorted pool shuffled.
"""

from __future__ import annotations

import random
from dataclasses import replace

from domain.drachenreiter.cards import Magic
from domain.drachenreiter.race import settable_speeds
from domain.drachenreiter.state import Dragon, RaceState


def _hidden_card(d: Dragon) -> Magic | None:
    """The card ``d`` has laid face down, if any."""
    return d.laid if not d.shown else None


def observe(state: RaceState, seat: int, rng: random.Random) -> RaceState:
    dragons = list(state.dragons)
    pool = list(state.deck)
    for s, d in enumerate(dragons):
        if s != seat:
            pool += d.hand
            if (card := _hidden_card(d)) is not None:
                pool.append(card)
    pool.sort(key=lambda c: c.value)
    rng.shuffle(pool)
    for s, d in enumerate(dragons):
        if s == seat:
            continue
        hand = tuple(sorted((pool.pop() for _ in d.hand), key=lambda c: c.value))
        laid = pool.pop() if _hidden_card(d) is not None else d.laid
        set_speed = d.set_speed
        if set_speed is not None and not (state.mover == s or d.moved):
            set_speed = rng.choice(settable_speeds(d))
        answer = d.answer
        if answer is not None:
            answer = laid is Magic.ALLIANCE and rng.random() < 0.5
        dragons[s] = replace(d, hand=hand, laid=laid, set_speed=set_speed, answer=answer)
    values = sorted(list(state.stock) + [t.value for t in state.traps])
    rng.shuffle(values)
    traps = tuple(replace(t, value=values.pop()) for t in state.traps)
    return replace(state, dragons=tuple(dragons), deck=tuple(pool), stock=tuple(values), traps=traps)
