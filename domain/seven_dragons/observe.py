"""``observe``: a state one seat cannot tell from the true one.

What a seat knows and keeps: its hand and goal, everything public (layout,
discard pile, cards set aside, hand sizes, who traded with whom), the cards it
knows to be in another hand (``known``: seen in a Trade Hands, or zapped in
public; they stay where they are), and where every goal it has held now lies
(``seen_goals``: goal moves are public permutations of the ring, so it can
follow each goal it saw).

What is resampled: the other cards of the other hands together with the deck
order (one pool, shuffled), and the goals it has not seen, over the places it
cannot place them, among the assignments where no playing seat has already
reached its target (else that seat would have won). What the other seats know
is unknown to it and is reset to the least they could know.

The observation is *canonical* (platform decision 2): it is a function of what
the seat knows and of the generator only. Every resampled part is built from a
canonical order of what is unknown (the pool of unseen cards sorted, the unseen
goals in colour order), never from the true arrangement, so two states the
seat cannot tell apart give the same observation for the same generator, and a
bot deciding on it cannot play on what its seat does not know.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations

from domain.seven_dragons.cards import COLOURS, Colour
from domain.seven_dragons.checks import board
from domain.seven_dragons.state import GoalSlot, Phase, SevenDragonsState

State = SevenDragonsState


def observe(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything hidden from ``seat`` resampled consistently with what it has seen."""
    if state.phase is not Phase.PLAY:
        return state
    hands, deck = _resample_cards(state, seat, rng)
    ring = _resample_goals(state, seat, rng) if state.table.goals else state.ring
    known = tuple(k if s == seat else frozenset() for s, k in enumerate(state.known))
    seen = list(state.seen_goals)
    for s in range(len(seen)):
        if s != seat:
            seen[s] = frozenset(slot.goal for slot in ring if slot.seat == s and slot.goal is not None)
    return replace(state, hands=hands, deck=deck, ring=ring, known=known, seen_goals=tuple(seen))


def _resample_cards(state: State, seat: int, rng: random.Random) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    if state.table.turn_up:  # Dragon connections: the turned-up card is public, only the deck is hidden.
        deck = sorted(state.deck)
        rng.shuffle(deck)
        return state.hands, tuple(deck)
    knows = state.known[seat]
    pool = list(state.deck)
    holes: list[tuple[int, int]] = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for i, card in enumerate(hand):
            if card not in knows:
                pool.append(card)
                holes.append((other, i))
    pool.sort()  # canonical: the unseen cards, never in the order they truly lie in
    rng.shuffle(pool)
    hands = [list(h) for h in state.hands]
    for (other, i), card in zip(holes, pool, strict=False):
        hands[other][i] = card
    return tuple(tuple(h) for h in hands), tuple(pool[len(holes) :])


def _resample_goals(state: State, seat: int, rng: random.Random) -> tuple[GoalSlot, ...]:
    seen = state.seen_goals[seat]
    hidden = {i: slot.goal for i, slot in enumerate(state.ring) if slot.goal is not None and slot.goal not in seen}
    if not hidden:  # (in play every slot has its goal: none is None)
        return state.ring
    free = list(hidden)
    goals = sorted(hidden.values(), key=lambda g: COLOURS.index(g))
    largest = board(state).largest()
    seats = [state.ring[i].seat for i in free]
    limits = [None if seat is None else state.targets[seat] for seat in seats]

    def possible(assignment: tuple[Colour, ...]) -> bool:
        """No playing seat holds a colour that has reached its target."""
        return all(
            limit is None or largest[COLOURS.index(g)] < limit for g, limit in zip(assignment, limits, strict=True)
        )

    # The true assignment is always possible while the game runs; should no assignment be, any will do,
    # but never the true one, which the seat does not know.
    options = [a for a in permutations(goals) if possible(a)] or list(permutations(goals))
    chosen = rng.choice(options)
    ring = list(state.ring)
    for i, goal in zip(free, chosen, strict=True):
        ring[i] = GoalSlot(ring[i].seat, goal)
    return tuple(ring)
