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
from typing import Any, Generic, TypeVar

from domain.kernel.records import Event

S = TypeVar("S")


class Folded(list[Event], Generic[S]):
    """Events, each with the state it leads to (``states[i]`` follows ``self[i]``)."""

    __slots__ = ("states",)

    def __init__(self) -> None:
        super().__init__()
        self.states: list[S] = []


class Emitter(Generic[S]):
    """Collects events and folds each into ``state`` with the ruleset's ``evolve``, once."""

    __slots__ = ("_ruleset", "events", "state")

    def __init__(self, ruleset: Any, state: S) -> None:
        self._ruleset = ruleset
        self.state: S = state
        self.events: Folded[S] = Folded()

    def emit(self, event: Event) -> S:
        self.state = self._ruleset.evolve(self.state, event)
        self.events.append(event)
        self.events.states.append(self.state)
        return self.state


def states_after(ruleset: Any, state: S, events: Sequence[Event]) -> list[S]:
    """The state after each of ``events`` from ``state``: those a decider folded, if it built
    ``events`` with an ``Emitter`` (and did not change the list since), else folded now."""
    states = getattr(events, "states", None)
    if states is not None and len(states) == len(events):
        return list(states)
    out = []
    for e in events:
        state = ruleset.evolve(state, e)
        out.append(state)
    return out
