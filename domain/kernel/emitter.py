"""A helper for ``decide``: emit events while keeping the folded state current.

Deciders often need the state *after* an event to decide what follows
automatically (refill the middle, pass the turn, check for a winner). Instead of
folding by hand, a decider writes::

    out = Emitter(self, state)
    out.emit(DiceRolled(...))
    if not valid_dice(out.state): out.emit(RollingEnded(...))
    return out.events
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from domain.kernel.records import Event

S = TypeVar("S")


class Emitter(Generic[S]):
    """Collects events and folds each into ``state`` with the ruleset's ``evolve``."""

    __slots__ = ("_ruleset", "events", "state")

    def __init__(self, ruleset: Any, state: S) -> None:
        self._ruleset = ruleset
        self.state: S = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> S:
        self.events.append(event)
        self.state = self._ruleset.evolve(self.state, event)
        return self.state
