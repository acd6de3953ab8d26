"""Questions the rules ask of a state: valid dice, dice pools, takeable tiles, the end.

Pure functions shared by ``decide``, ``legal`` and the bots, so that what is
listed and what is accepted are computed by the same code.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.tarasque import lair
from domain.tarasque.state import Phase, TarasqueState, Tiles
from domain.tarasque.tiles import LAIR_DICE, MIDDLE_SIZE, SIDES, TWO_PLAYER_MIDDLE_SIZE

MIDDLE_NEED = 2
"""Dice of its symbol needed for a middle tile ("au moins deux dés")."""


def middle_size(state: TarasqueState) -> int:
    """The middle is refilled to 3 tiles, or to 4 in a game started with 2 players."""
    return TWO_PLAYER_MIDDLE_SIZE if state.seats == 2 else MIDDLE_SIZE


def removal_due(state: TarasqueState, middle: Tiles) -> bool:
    """2 players: whether the active player must remove one of the ``middle`` tiles now.

    Designed (docs/rules/tarasque.md): the removal is the choice of "l'une des 4 tuiles",
    which leaves 3 in the middle as in the game of 3 or more. Once the pile can no longer
    fill the middle to 4, nothing is removed, and the tiles left stay to be won, as in the
    game of 3 or more ("il est possible qu'il reste moins de tuiles").
    """
    return state.seats == 2 and len(middle) >= TWO_PLAYER_MIDDLE_SIZE


def staying(state: TarasqueState) -> tuple[int, ...]:
    """The seats still playing, in seat order."""
    return tuple(s for s in range(state.seats) if s not in state.left)


def may_set_aside(state: TarasqueState) -> bool:
    """Whether the active seat may set dice aside now: a die in hand shows a valid symbol (``targets``)
    not yet set aside from this roll."""
    turn = state.turn
    if turn.phase is not Phase.SELECT and turn.phase is not Phase.CONTINUE:
        return False
    valid = targets(state)
    return any(face in valid and face not in turn.chosen for face in turn.showing)


def targets(state: TarasqueState) -> frozenset[str]:
    """The symbols of valid dice: those on a middle tile or at another player's base.

    "on ne peut sélectionner que des dés qui indiquent des dragons présents
    également sur les tuiles du milieu de la table ou ... des bases des autres
    joueurs". The active player's own base does not count.
    """
    symbol = state.deck.symbol
    me = state.turn.seat
    out = {symbol[t] for t in state.board.middle}
    for seat, base in enumerate(state.board.bases):
        if seat != me:
            for side in base:
                for t in side:
                    out.add(symbol[t])
    return frozenset(out)


def has_valid_die(state: TarasqueState) -> bool:
    """Whether the current roll shows a valid die not yet set aside from it."""
    valid = targets(state)
    chosen = state.turn.chosen
    return any(v in valid and v not in chosen for v in state.turn.showing)


def egg_available(state: TarasqueState) -> bool:
    """One egg per turn may double a die, if the player has one."""
    turn = state.turn
    return turn.egg is None and state.board.eggs[turn.seat] > 0


def pool(state: TarasqueState, symbol: str) -> int:
    """Dice of ``symbol`` set aside and not yet spent, the die on the egg counting 2."""
    turn = state.turn
    i = state.deck.face_index[symbol]
    return turn.aside[i] + (turn.egg == symbol) - turn.spent[i]


def need(side: int | None) -> int:
    """Dice needed for a tile: 2 in the middle (``side`` None), one more than the side at a base."""
    return MIDDLE_NEED if side is None else side + 1


def destination(dice: int) -> int | None:
    """The base side a tile taken with ``dice`` dice goes to; None for the lair (6 or more)."""
    return None if dice >= LAIR_DICE else dice


def locate(state: TarasqueState, tile: str) -> tuple[int | None, int | None] | None:
    """Where the active player could take ``tile`` from: (None, None) for the middle,
    (seat, side) for another player's base, or None if it is not takeable."""
    board = state.board
    if tile in board.middle:
        return None, None
    for seat, base in enumerate(board.bases):
        if seat == state.turn.seat:
            continue
        for side, tiles in zip(SIDES, base, strict=True):
            if tile in tiles:
                return seat, side
    return None


def take_options(state: TarasqueState) -> Iterator[tuple[str, int, int]]:
    """Each takeable tile with the dice it needs and the dice available for it:
    the middle first, then the other bases in seat order, sides 2 to 5."""
    symbol = state.deck.symbol
    pools: dict[str, int] = {}
    for tile in state.board.middle:
        yield from _option(state, pools, tile, symbol[tile], MIDDLE_NEED)
    for seat, base in enumerate(state.board.bases):
        if seat != state.turn.seat:
            for side, tiles in zip(SIDES, base, strict=True):
                for tile in tiles:
                    yield from _option(state, pools, tile, symbol[tile], side + 1)


def _option(
    state: TarasqueState, pools: dict[str, int], tile: str, sym: str, needed: int
) -> Iterator[tuple[str, int, int]]:
    n = pools.get(sym)
    if n is None:
        n = pools[sym] = pool(state, sym)
    if n >= needed:
        yield tile, needed, n


def can_take(state: TarasqueState) -> bool:
    return next(take_options(state), None) is not None


def can_move_in_lair(state: TarasqueState) -> bool:
    """The end-of-turn egg move: an egg in hand and a lair tile that fits another row."""
    seat = state.turn.seat
    return state.board.eggs[seat] > 0 and lair.has_move(state.board.lairs[seat], state.deck)


def next_base_tile(state: TarasqueState) -> str | None:
    """The next of the active player's base tiles to enter the lair: side 2 first, oldest first."""
    for side in state.board.bases[state.turn.seat]:
        if side:
            return side[0]
    return None


def tile_to_store(state: TarasqueState) -> str | None:
    """The tile awaiting a lair row now, if any."""
    if state.turn.phase is Phase.PLACE:
        return state.turn.pending
    if state.turn.phase is Phase.STORE:
        return next_base_tile(state)
    return None


def settled(state: TarasqueState) -> bool:
    """Every tile is in a lair or removed: the game is over."""
    board = state.board
    if board.pile or board.middle or state.turn.pending is not None:
        return False
    return not any(side for base in board.bases for side in base)


def scores(state: TarasqueState) -> tuple[int, ...]:
    """Each seat's points: its lair's rows plus its unused eggs."""
    board = state.board
    return tuple(lair.score(board.lairs[s]) + board.eggs[s] for s in range(state.seats))
