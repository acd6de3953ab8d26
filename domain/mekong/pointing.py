"""Les Dragons du Mékong's moves on its board (``domain.kernel.pointing``): the refs ``svg.py`` draws.

A seat's cards to programme are ``hand:<seat>:<card>`` (clicked in programme order, one a slot);
a bare island ``island:<name>``; a village or a stone, where planks end, ``spot:<name>``; a plank,
laid on the river or in a seat's reserve, ``plank:<name>``. A plank is laid by clicking its two
ends, in either order, then the plank from the reserve; a pawn moves by clicking the planks and
the village of its path, and jumps by clicking the plank it jumps over, then where it lands.
Without islands (the challenge), a stone may drop on any spot of a grid the rules list: each is
drawn by the page as a disc where it lies (``Pointing.mark``).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Command
from domain.kernel.pointing import NOWHERE, Narrowing, Pointing, Ref, either, point
from domain.mekong.board import STONE_RADIUS
from domain.mekong.cards import PROGRAMME_LENGTH, Programmes
from domain.mekong.commands import Jump, Move, PlacePlank, PlaceStone, PlaceStoneAt, Program, RemovePlank, RemoveStone
from domain.mekong.legal import ProgramMoves
from domain.mekong.state import MekongState

RIVER = "river"
"""The ``data-frame`` of the river's group in ``svg.py`` (board units)."""


def site_ref(state: MekongState, name: str) -> str:
    """A plank (laid or in a reserve) or a spot (a village or a stone) by its name."""
    planks = {b.plank for b in state.bridges}
    return f"plank:{name}" if name in planks else f"spot:{name}"


def pointing(state: MekongState, seat: int, command: Command) -> Pointing:
    """The clicks that make ``command`` for ``seat``."""
    match command:
        case Program(cards=cards):
            return point(*(f"hand:{seat}:{c.value}" for c in cards))
        case PlaceStone(island=island):
            return point(f"island:{island}")
        case PlaceStoneAt(x=x, y=y):
            return Pointing(((f"water:{x:g},{y:g}",),), frame=RIVER, mark=(x, y, STONE_RADIUS))
        case PlacePlank(plank=plank, ends=(a, b)):
            return either((f"spot:{a}", f"spot:{b}", f"plank:{plank}"), (f"spot:{b}", f"spot:{a}", f"plank:{plank}"))
        case RemovePlank(plank=plank):
            return point(f"plank:{plank}")
        case RemoveStone(stone=stone):
            return point(f"spot:{stone}")
        case Move(path=path):
            return point(*(site_ref(state, step) for step in path))
        case Jump(over=over, to=to):
            return point(f"plank:{over}", site_ref(state, to))
    return NOWHERE


def narrow_programme(state: MekongState, seat: int, chosen: Sequence[Ref]) -> Narrowing:
    """The programmes of ``seat`` that begin with the hand's cards ``chosen`` (in click order),
    found from the hand alone: the generic way would point each of up to 48,720 programmes."""
    held = state.hand(seat)
    by_ref = {f"hand:{seat}:{c.value}": c for c in held}
    start = tuple(by_ref.get(ref) for ref in chosen)
    cards = tuple(c for c in start if c is not None)
    if len(cards) != len(start) or len(set(cards)) != len(cards) or len(cards) > PROGRAMME_LENGTH:
        return Narrowing((), ())
    if sum(1 for c in cards if c.dragon is not None) > 1:
        return Narrowing((), ())
    moves = ProgramMoves(held, cards)
    following = Programmes(held, cards)
    nexts = (*following.actions, *following.dragons) if len(cards) < PROGRAMME_LENGTH else ()
    ordered = sorted(nexts, key=held.index)
    return Narrowing(moves, tuple((f"hand:{seat}:{c.value}", ProgramMoves(held, (*cards, c))[0]) for c in ordered))
