"""A helper for ``decide``: emit events while keeping the folded state current.

Deciders often need the state *after* an event to decide what follows
automatically (refill the middle, pass the turn, check for a winner). Instead of
folding by hand, a decider writes::

    out = Emitter(self, state)
    out.emit(DiceRolled(...))
    if not valid_dice(out.state): out.emit(RollingEnded(...))
    return out.events

``out.events`` is a ``Folded`` list: the events, and the state each one leads to.
The platform records those states with the events (their hashes, who is awaited)
instead of folding the events a second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from domain.kernel.records import Event

S = TypeVar("S")


class Evolves(Protocol[S]):
    """What folding needs of a game: its ``evolve`` (a ``Ruleset`` has it; so may a
    module-level holder of the game's ``evolve`` function)."""

    def evolve(self, state: S, event: Event, /) -> S: ...


class Folded(list[Event], Generic[S]):
    """Events, each with the state it leads to (``states[i]`` follows ``self[i]``)."""

    __slots__ = ("states",)

    def __init__(self) -> None:
        super().__init__()
        self.states: list[S] = []


class Emitter(Generic[S]):
    """Collects events and folds each into ``state`` with the ruleset's ``evolve``, once."""

    __slots__ = ("_ruleset", "events", "state")

    def __init__(self, ruleset: Evolves[S], state: S) -> None:
        self._ruleset = ruleset
        self.state: S = state
        self.events: Folded[S] = Folded()

    def emit(self, event: Event) -> S:
        self.state = self._ruleset.evolve(self.state, event)
        self.events.append(event)
        self.events.states.append(self.state)
        return self.state


def states_after(ruleset: Evolves[S], state: S, events: Sequence[Event]) -> list[S]:
    """The state after each of ``events`` from ``state``: those a decider folded, if it built
    ``events`` with an ``Emitter`` (and did not change the list since), else folded now."""
    if isinstance(events, Folded) and len(events.states) == len(events):
        return list(events.states)
    out = []
    for e in events:
        state = ruleset.evolve(state, e)
        out.append(state)
    return out


def state_after(ruleset: Evolves[S], state: S, events: Sequence[Event]) -> S:
    """The state after all of ``events`` from ``state``: the one a decider folded last, if it built
    ``events`` with an ``Emitter``, else folded now. What an offline player (``rl.match``) keeps."""
    if isinstance(events, Folded) and len(events.states) == len(events):
        return events.states[-1] if events.states else state
    for e in events:
        state = ruleset.evolve(state, e)
    return state
