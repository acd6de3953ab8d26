"""Tarasque in words: its events, moves and result as a player reads them.

Tiles are named by colour and mark ("the red forest", "the blue 3"), dice by the symbol
they show ("two reds", "a 3"), lair rows and base sides by their number counted from 1.
Only the pile's order is secret, and it is never told.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.narration import Audience, Narrator
from domain.kernel.wording import counted, hidden_count, is_hidden, listing, number, plural, tally, upper_first
from domain.tarasque.advance import LAST_SEAT, LAST_TILE

Data = Mapping[str, Any]


def tile(name: str) -> str:
    """``red-forest`` → "the red forest"."""
    return "the " + str(name).replace("-", " ")


def tiles(names: Any) -> str:
    return listing(tile(t) for t in names)


def dice(symbol: str, count: int) -> str:
    """``("red", 2)`` → "two reds"; one die is "a red"."""
    return tally([symbol] * count) if count == 1 else f"{number(count)} {plural(symbol)}"


def row(index: int | None) -> str:
    """A lair row from its index, counted from 1: "row 2"; None opens "a new row"."""
    return "a new row" if index is None else f"row {index + 1}"


# ------------------------------------------------------------------ events


def pile_shuffled(d: Data, a: Audience) -> str:
    count = hidden_count(d["order"]) if is_hidden(d["order"]) else len(d["order"])
    return f"The {number(count or 36)} tiles were shuffled into a face-down pile"


def turn_started(d: Data, a: Audience) -> str:
    kind = "extra turn" if d["extra"] else "turn"
    return f"{a.names.possessive(d['seat'], start=True)} {kind} began (round {d['round']})"


def middle_refilled(d: Data, a: Audience) -> str:
    if not d["tiles"]:
        return "The pile was empty: no tile was turned up"
    verb = "was" if len(d["tiles"]) == 1 else "were"
    return f"{upper_first(tiles(d['tiles']))} {verb} turned up into the middle"


def tile_stored(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} moved {tile(d['tile'])} into {row(d['row'])} of {a.names.their(d['seat'])} lair"


def dice_rolled(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} rolled {tally(d['values'])}"


def dice_set_aside(d: Data, a: Audience) -> str:
    said = f"{a.names(d['seat'])} set aside {dice(d['symbol'], d['count'])}"
    if d["egg"]:
        said += " on the egg" if d["count"] == 1 else ", one of them on the egg"
    return said


def rolling_ended(d: Data, a: Audience) -> str:
    why = {"no valid die": "no die of the roll could be set aside", "no dice left": "no dice were left to roll"}
    return f"{a.names.possessive(d['seat'], start=True)} rolling ended: {why.get(d['reason'], d['reason'])}"


def tile_taken(d: Data, a: Audience) -> str:
    seat, names = d["seat"], a.names
    where = "from the middle" if d["victim"] is None else f"from {names.possessive(d['victim'])} base"
    said = f"{names(seat)} took {tile(d['tile'])} {where} with {counted(d['dice'], 'die')}"
    if d["side"] is None:
        said += f"; it went straight into {names.their(seat)} lair"
        if d["extra_turn"]:
            said += f" and earned {names.object(seat)} an extra turn"
        return said
    return said + f"; it went to side {d['side']} of {names.their(seat)} base"


def lair_tile_moved(d: Data, a: Audience) -> str:
    seat = d["seat"]
    return f"{a.names(seat)} returned an egg to move {tile(d['tile'])} to {row(d['row'])} of {a.names.their(seat)} lair"


def seat_left(d: Data, a: Audience) -> str:
    seat = d["seat"]
    said = f"{a.names(seat)} left the game"
    if d["removed"]:
        said += f"; the tiles at {a.names.their(seat)} base left with {a.names.object(seat)} ({tiles(d['removed'])})"
    if d["eggs"]:
        said += f"; {counted(d['eggs'], 'egg')} went back to the supply"
    return said


def game_ended(d: Data, a: Audience) -> str:
    scores = listing(f"{a.names.object(s)} {score}" for s, score in enumerate(d["scores"]))
    return f"The game ended: {REASONS.get(d['reason'], d['reason'])}. Scores: {scores}"


EVENTS = {
    "PileShuffled": pile_shuffled,
    "TurnStarted": turn_started,
    "MiddleRefilled": middle_refilled,
    "TileRemoved": lambda d, a: f"{a.names(d['seat'])} removed {tile(d['tile'])} from the game",
    "TileStored": tile_stored,
    "DiceRolled": dice_rolled,
    "DiceSetAside": dice_set_aside,
    "RollingStopped": lambda d, a: f"{a.names(d['seat'])} stopped rolling",
    "RollingEnded": rolling_ended,
    "TileTaken": tile_taken,
    "EggGiven": lambda d, a: f"{a.names(d['seat'])} received an egg from the supply",
    "LairTileMoved": lair_tile_moved,
    "TurnEnded": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} turn ended",
    "SeatLeft": seat_left,
    "GameEnded": game_ended,
}

# ------------------------------------------------------------------ moves


def set_aside(m: Data, a: Audience, seat: int) -> str:
    said = f"set aside {dice(m['symbol'], m['count'])}"
    if m["egg"]:
        said += " on the egg" if m["count"] == 1 else ", one on the egg"
    return said


def egg(m: Data) -> str:
    if not m["egg"]:
        return "not on the egg"
    return "on the egg" if m["count"] == 1 else "one of them on the egg"


CHOICES = {
    "remove_tile": lambda m, a, s: (("Tile to remove from the game", tile(m["tile"])),),
    "store_tile": lambda m, a, s: (("Tile to store", tile(m["tile"])), ("Row of the lair", row(m["row"]))),
    "set_aside": lambda m, a, s: (("Dice to set aside", dice(m["symbol"], m["count"])), ("The egg", egg(m))),
    "take_tile": lambda m, a, s: (("Tile to take", tile(m["tile"])), ("With", counted(m["dice"], "die"))),
    "move_lair_tile": lambda m, a, s: (("Tile to move", tile(m["tile"])), ("To", f"{row(m['row'])} of the lair")),
}
"""Each move type's choices, in the order a player makes them (``Narrator.choices``)."""


MOVES = {
    "remove_tile": lambda m, a, s: f"remove {tile(m['tile'])} from the game",
    "store_tile": lambda m, a, s: f"store {tile(m['tile'])} in {row(m['row'])} of the lair",
    "set_aside": set_aside,
    "roll": lambda m, a, s: "roll again",
    "stop": lambda m, a, s: "stop rolling",
    "take_tile": lambda m, a, s: f"take {tile(m['tile'])} with {counted(m['dice'], 'die')}",
    "move_lair_tile": lambda m, a, s: f"return an egg to move {tile(m['tile'])} to {row(m['row'])} of the lair",
    "end_turn": lambda m, a, s: "end the turn",
}


def turn_heading(d: Data, a: Audience) -> str:
    kind = "extra turn" if d["extra"] else "turn"
    return f"Round {d['round']}: {a.names.possessive(d['seat'], start=True)} {kind}"


REASONS = {LAST_TILE: "the last tile entered a lair", LAST_SEAT: "only one player was left"}

KINDS = {
    "remove_tile": "Remove a tile from the game",
    "store_tile": "Store a tile in your lair",
    "set_aside": "Set dice aside",
    "roll": "Roll",
    "stop": "Stop rolling",
    "take_tile": "Take a tile",
    "move_lair_tile": "Move a tile of your lair",
    "end_turn": "End the turn",
}
"""Each move type as a heading over its moves (``Narrator.kind``)."""

NARRATOR = Narrator(
    events=EVENTS,
    moves=MOVES,
    choices=CHOICES,
    kinds=KINDS,
    turns={"TurnStarted": turn_heading},
    quiet=("TurnEnded", "TurnStarted"),
    reasons=REASONS,
    score=lambda score, a: f"{score:g} point{'' if score == 1 else 's'}",  # figures: "45 points ... 5 points"
)
