"""legal_moves(): every command the awaited seat may submit now, each accepted as is.

Programming lists every programme of the hand (15,120 with 9 cards, 48,720
with 13) as a lazy sequence: its length and indexing cost nothing, ``in`` checks the rules
directly, and a full iteration is built once per hand and kept. Plank
placements follow the listing rule of ``building``; stone drops in the
challenge variant are sampled on the grid of ``building.DROP_GRID``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import overload

from domain.kernel import Command
from domain.mekong.building import bare_stones, drop_spots, plank_choices, stone_spots, takeable_planks
from domain.mekong.cards import PLANK_CARDS, STONE_CARDS, Card, Programmes
from domain.mekong.commands import Jump, Move, PlacePlank, PlaceStone, PlaceStoneAt, Program, RemovePlank, RemoveStone
from domain.mekong.decide import awaiting
from domain.mekong.pawns import jumps, move_paths
from domain.mekong.state import MekongState, Phase


class ProgramMoves(Sequence[Program]):
    """The ``Program`` commands of one hand (those beginning with ``start``), in the order of
    ``cards.Programmes``."""

    __slots__ = ("_all", "programmes")

    def __init__(self, held: tuple[Card, ...], start: tuple[Card, ...] = ()) -> None:
        self.programmes = Programmes(held, start)
        self._all: tuple[Program, ...] | None = None

    def __len__(self) -> int:
        return len(self.programmes)

    @overload
    def __getitem__(self, i: int) -> Program: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Program]: ...
    def __getitem__(self, i: int | slice) -> Program | Sequence[Program]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return Program(self.programmes[i])

    def __iter__(self) -> Iterator[Program]:
        if self._all is None:
            self._all = tuple(Program(cards) for cards in self.programmes)
        return iter(self._all)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Program) and move.cards in self.programmes


@lru_cache(maxsize=8)
def program_moves(held: tuple[Card, ...]) -> ProgramMoves:
    return ProgramMoves(held)


@lru_cache(maxsize=1024)
def _drop_move(x: float, y: float) -> PlaceStoneAt:
    """The command for a grid point: the same few hundred points are listed again and again, and
    commands are immutable, so one instance per point is shared (``lru_cache`` is thread-safe).
    Only grid points from ``drop_spots`` come here, never a submitted move."""
    return PlaceStoneAt(x, y)


# Commands are immutable values: listing hands out shared instances instead of building the
# same few thousand objects again at every decision (``lru_cache`` is thread-safe).
_place_stone = lru_cache(maxsize=4096)(PlaceStone)
_place_plank = lru_cache(maxsize=4096)(PlacePlank)
_remove_plank = lru_cache(maxsize=4096)(RemovePlank)
_remove_stone = lru_cache(maxsize=4096)(RemoveStone)
_jump = lru_cache(maxsize=4096)(Jump)
_move = lru_cache(maxsize=4096)(Move)


def legal_moves(state: MekongState, seat: int) -> Sequence[Command]:
    """The commands ``seat`` may submit now; empty when it is not awaited."""
    if seat not in awaiting(state):
        return ()
    if state.phase is Phase.PROGRAMMING:
        return program_moves(state.hand(seat))
    card = state.card(seat)
    if card in STONE_CARDS:
        if state.edition.islands:
            return [_place_stone(island) for island in stone_spots(state)]
        return [_drop_move(x, y) for x, y in drop_spots(state)]
    if card in PLANK_CARDS:
        return [_place_plank(plank, ends) for plank, ends in plank_choices(state, seat)]
    if card is Card.REMOVE:
        return [_remove_plank(p) for p in takeable_planks(state, seat)] + [_remove_stone(s) for s in bare_stones(state)]
    if card is Card.JUMP:
        return [_jump(over, to) for over, to in jumps(state, seat)]
    assert card is not None
    return [_move(path) for path in move_paths(state, seat, card)]
