"""The state of a Seven Dragons game: frozen, JSON-decodable, free of caches.

Where every card is: the deck (top first), the hands, the layout, the discard
pile (bottom first, top last), the cards set aside out of the game, and the
action being resolved (``in_play``). The five goals lie in the ``ring``, the
circle of places used by Rotate Goals: players' places and imaginary seats
holding the unused goals.

``known`` and ``seen_goals`` record what each seat has seen of the others' secrets
(cards it knows to be in another hand, goals it has held), so that ``observe``
can resample only what a seat cannot know. They are secret and never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from domain.seven_dragons.cards import COLOUR_BIT, WILD, Action, Colour


class Phase(Enum):
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


class End(Enum):
    """How a game ended; the value is the outcome's reason."""

    GOAL = "goal completed"
    ALL_CARDS_PLAYED = "all cards played"
    LAST_CARD = "last card placed"
    LAST_SEAT = "last seat standing"


@dataclass(frozen=True, slots=True)
class Table:
    """The rules in force, derived from the variant and its options."""

    variant: str
    actions: tuple[Action, ...]
    """The action types in the deck."""
    silver: bool
    """Whether the Silver Dragon starts the layout (else a dragon turned up at random)."""
    rainbow: bool
    goals: bool
    """Whether players hold secret goals and hands (all but Dragon connections)."""
    turn_up: bool
    """Dragon connections: each turn the top card is turned up and must be placed or set aside."""
    strict_edges: bool


@dataclass(frozen=True, slots=True)
class Placed:
    """A card in the layout."""

    card: int
    x: int
    y: int
    orientation: int
    by: int | None
    """The seat that last placed or moved it (None for the starting card)."""


@dataclass(frozen=True, slots=True)
class GoalSlot:
    """A place in the goal ring: a player's (``seat``) or an imaginary seat (``seat is None``)."""

    seat: int | None
    goal: Colour | None
    """None only until the goals are dealt."""


@dataclass(frozen=True, slots=True)
class SevenDragonsState:
    """A whole game: where every card and goal lies, whose turn it is, and what each seat has seen."""

    table: Table
    phase: Phase
    turn: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    layout: tuple[Placed, ...]
    discard: tuple[int, ...]
    set_aside: tuple[int, ...]
    ring: tuple[GoalSlot, ...]
    targets: tuple[int, ...]
    known: tuple[frozenset[int], ...]
    """Per seat: cards in other hands that it knows the place of (seen in a trade, zapped in public)."""
    seen_goals: tuple[frozenset[Colour], ...]
    """Per seat: the goals it has held. All goal moves are public, so it knows where each of them is."""
    left: tuple[int, ...] = ()
    in_play: int | None = None
    last_placer: int | None = None
    winners: tuple[int, ...] = ()
    end: End | None = None

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def active(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        if not self.left:
            return tuple(range(len(self.hands)))
        return tuple(s for s in range(len(self.hands)) if s not in self.left)

    def silver_mask(self) -> int:
        """The Silver Dragon's colours: wild while the discard pile is empty, else its top card's colour.

        0 when the game has no Silver Dragon.
        """
        if not self.table.silver:
            return 0
        if not self.discard:
            return WILD
        return COLOUR_BIT[self.discard[-1]]

    def slot_of(self, seat: int) -> int:
        """The ring index of ``seat``'s place."""
        for i, slot in enumerate(self.ring):
            if slot.seat == seat:
                return i
        raise LookupError(f"seat {seat} has no place in the goal ring")

    def goal_of(self, seat: int) -> Colour | None:
        for slot in self.ring:
            if slot.seat == seat:
                return slot.goal
        return None

    def unused_slots(self) -> tuple[int, ...]:
        """Ring indices of the unused goals, in ring order: ``TradeGoals(unused=k)`` names the k-th."""
        return tuple(i for i, slot in enumerate(self.ring) if slot.seat is None)
