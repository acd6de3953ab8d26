"""A hand-written strategy for Tarasque, from the seat's view and legal moves alone.

Tarasque in a few words: roll six dice, set aside dice of the symbols of tiles on the table, then spend
them to take tiles (a pair for a middle tile, one die more than its side for a tile at another
player's base); a tile waits a round at its base, on the side of the dice it cost, before it enters the
lair, where rows of one colour (or one landscape, or one number), each tile different in the other,
score their length squared. The strategy:

* removes (two players) the middle tile the opponent's lair wants most;
* sets aside as many dice as it can of the symbol that takes the most, using its egg to make a pair;
* always rolls on (a roll never loses the dice set aside, and the dice in hand are otherwise wasted);
* takes the tile worth most to it (more if stolen), spending the most dice the symbol allows, so it
  sits on a high side that is hard to steal;
* stores each tile where it lengthens the longest row; never spends an egg to move a lair tile.

    python examples/tarasque_bot.py --token TOKEN          # every Tarasque game that awaits TOKEN
    dragonhall bot --token TOKEN --strategy examples/tarasque_bot.py:choose
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from dragonhall import BotRunner, Client

STEAL_BONUS = 1.0
"""A stolen tile is also a tile the opponent no longer has."""
SAFETY = 0.4
"""What each die of a take is worth: the side it sits on, which a thief must beat by one."""


def choose(view: dict[str, Any], legal_moves: list[dict[str, Any]], game: dict[str, Any]) -> dict[str, Any]:
    """One of ``legal_moves``: the one this strategy rates best."""
    me = view["active"]
    return max(legal_moves, key=lambda move: _rate(view, me, move))


def _rate(view: dict[str, Any], me: int, move: dict[str, Any]) -> float:
    kind = move["type"]
    if kind == "remove_tile":
        return max(_gain(view, lair, move["tile"]) for seat, lair in enumerate(view["lairs"]) if seat != me)
    if kind == "store_tile":
        rows = view["lairs"][me]
        return -1.0 if move["row"] is None else len(rows[move["row"]])
    if kind == "set_aside":
        return _set_aside(view, move["symbol"], move["count"], move["egg"])
    if kind == "take_tile":
        stolen = _at_a_base(view, move["tile"]) is not None
        value = _gain(view, view["lairs"][me], move["tile"]) + (STEAL_BONUS if stolen else 0)
        return 100 + value + SAFETY * move["dice"]
    return {"roll": 2.0, "stop": 1.0, "end_turn": 0.0}.get(kind, -10.0)  # never move_lair_tile


def _set_aside(view: dict[str, Any], symbol: str, count: int, egg: bool) -> float:
    """As many dice as possible towards a tile; the egg (a point at the end) only to make a pair of a
    lone die. A symbol no tile has must still be set aside when no other is showing: as few as possible."""
    if symbol not in _wanted_symbols(view):
        return -count - 2.0 * egg
    lone = view["turn"]["showing"].count(symbol) == 1
    total = view["turn"]["set_aside"].get(symbol, 0) + count + egg
    return total + (0.4 if egg and lone else -1.2 if egg else 0.0)


def _gain(view: dict[str, Any], lair: list[list[str]], tile: str) -> float:
    """What ``tile`` adds to ``lair``: a row of n grows from n² to (n+1)² points, a new row scores 1."""
    return max([1.0] + [2.0 * len(row) + 1 for row in lair if _fits(view, row, tile)])


def _fits(view: dict[str, Any], row: list[str], tile: str) -> bool:
    """Whether ``tile`` may extend ``row``: the row's tiles share one attribute (colour, landscape or
    number) and differ in the other, and so must the new one."""
    kinds = [k for k in view["tiles"][tile] if k != "symbol"]
    for same, other in (kinds, kinds[::-1]):
        shared = {view["tiles"][t][same] for t in row} == {view["tiles"][tile][same]}
        seen = {view["tiles"][t][other] for t in row}
        if shared and view["tiles"][tile][other] not in seen:
            return True
    return False


def _at_a_base(view: dict[str, Any], tile: str) -> int | None:
    for seat, base in enumerate(view["bases"]):
        if any(tile in tiles for tiles in base.values()):
            return seat
    return None


def _wanted_symbols(view: dict[str, Any]) -> set[str]:
    """The symbols of the tiles this turn could take: in the middle and at the other players' bases."""
    me = view["active"]
    tiles = list(view["middle"])
    tiles += [t for seat, base in enumerate(view["bases"]) if seat != me for side in base.values() for t in side]
    return {view["tiles"][t]["symbol"] for t in tiles}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DRAGONHALL_TOKEN"))
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give the bot's token: --token T (or DRAGONHALL_TOKEN)")
    with Client(args.server, args.token) as client:
        BotRunner(client, choose).run()


if __name__ == "__main__":
    main()
