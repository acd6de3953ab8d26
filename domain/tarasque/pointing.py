"""Tarasque's moves on its board (``domain.kernel.pointing``): the refs ``svg.py`` draws.

Tiles are ``tile:<id>`` wherever they lie; a seat's base sides ``side:<seat>:<dice>`` (six dice
go straight to the lair, ``lair:<seat>``), its lair rows ``row:<seat>:<index>`` and
``row:<seat>:new``; the dice in hand ``face:<symbol>`` (a click sets every die of that face
aside; fewer is ``count:<n>``, a choice in words), the egg ``egg``; the turn's buttons ``roll``,
``stop`` and ``end-turn``.
"""

from __future__ import annotations

from domain.kernel import Command
from domain.kernel.pointing import NOWHERE, Pointing, point
from domain.tarasque.commands import EndTurn, MoveLairTile, RemoveTile, Roll, SetAside, Stop, StoreTile, TakeTile
from domain.tarasque.state import TarasqueState

SIX = 6
"""Dice that win a tile straight into the lair."""


def row_ref(seat: int, row: int | None) -> str:
    return f"row:{seat}:{'new' if row is None else row}"


def side_ref(seat: int, dice: int) -> str:
    return f"lair:{seat}" if dice >= SIX else f"side:{seat}:{dice}"


def pointing(state: TarasqueState, seat: int, command: Command) -> Pointing:
    """The clicks that make ``command`` for ``seat``."""
    match command:
        case RemoveTile(tile=tile):
            return point(f"tile:{tile}")
        case StoreTile(tile=tile, row=row) | MoveLairTile(tile=tile, row=row):
            return point(f"tile:{tile}", row_ref(seat, row))
        case TakeTile(tile=tile, dice=dice):
            return point(f"tile:{tile}", side_ref(seat, dice))
        case SetAside(symbol=symbol, count=count, egg=egg):
            return _set_aside(state, symbol, count, egg)
        case Roll():
            return point("roll")
        case Stop():
            return point("stop")
        case EndTurn():
            return point("end-turn")
    return NOWHERE


NUMBERS = ("none", "one", "two", "three", "four", "five", "six")


def _set_aside(state: TarasqueState, symbol: str, count: int, egg: bool) -> Pointing:
    """A die of the face, then (when not all of them) how many, then the egg if one goes on it:
    the common choice, every die of a face, takes a click and a confirmation or the egg."""
    refs: list[tuple[str, str]] = [(f"face:{symbol}", "")]
    if count < state.turn.showing.count(symbol):
        refs.append((f"count:{count}", f"Only {NUMBERS[count] if count < len(NUMBERS) else count} of them"))
    if egg:
        refs.append(("egg", ""))
    return Pointing((tuple(r for r, _ in refs),), labels=tuple((r, w) for r, w in refs if w))
