"""Les Dragons du Mékong in words: its events, moves, result and options as a player reads them.

Planks are named by colour and size ("the white 6 plank"), supports by what they are ("the
blue village", "island 9", "stone 3"), cards by their action ("Place two stones", "the red
dragon"). A programme is secret to all but its seat until each position is turned up: a
viewer who may not see it reads only that cards were programmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel.narration import Audience, Narrator
from domain.kernel.wording import counted, figure, hidden_count, is_hidden, listing, number, ordinal, upper_first

Data = Mapping[str, Any]

CARD_NAMES = {
    "place-stone": "Place a stone",
    "place-2-stones": "Place two stones",
    "place-plank": "Place a plank",
    "place-2-planks": "Place two planks",
    "remove-plank-or-stone": "Remove a plank or a stone",
    "move-1": "Move 1",
    "move-2": "Move 2",
    "jump": "Jump",
}


def card(name: str) -> str:
    """An action card by its action ("Move 2"), a dragon card by its colour ("the red dragon")."""
    if name in CARD_NAMES:
        return CARD_NAMES[name]
    return f"the {str(name).removesuffix('-dragon')} dragon"


def plank(name: str) -> str:
    """``white-6`` → "the white 6 plank"."""
    colour, _, size = str(name).rpartition("-")
    return f"the {colour} {size} plank"


def support(name: str) -> str:
    """Where a plank rests or a pawn stands: a village, an island's stone, a dropped stone, a plank."""
    text = str(name)
    if "-" in text:
        return plank(text)
    if text[:1] == "i" and text[1:].isdigit():
        return f"island {text[1:]}"
    if text[:1] == "s" and text[1:].isdigit():
        return f"stone {text[1:]}"
    return f"the {text} village"


def stone(name: str) -> str:
    """A stone on the board: on an island, or dropped in the water (challenge)."""
    text = str(name)
    return f"the stone on island {text[1:]}" if text[:1] == "i" else f"stone {text[1:]}"


def path(steps: Sequence[str]) -> str:
    return ", then ".join(f"to {support(s)}" if i else f"onto {support(s)}" for i, s in enumerate(steps))


def spot(x: float, y: float) -> str:
    """A point of the water from the board's centre, in whole board units."""
    across = f"{figure(abs(x), 0)} {'right' if x >= 0 else 'left'}"
    down = f"{figure(abs(y), 0)} {'down' if y >= 0 else 'up'}"
    return f"{across} and {down} from the centre"


def programme(cards: Any) -> str:
    if is_hidden(cards):
        return f"{counted(hidden_count(cards) or 5, 'card')} face down"
    return listing(card(c) for c in cards)


# ------------------------------------------------------------------ events


def position_revealed(d: Data, a: Audience) -> str:
    shown = [f"{card(c)} ({a.names.object(s)})" for s, c in enumerate(d["cards"]) if c is not None]
    return f"The cards at position {d['position']} were turned up: {listing(shown)}"


def action_cancelled(d: Data, a: Audience) -> str:
    by = a.names.listed(d["by"], lambda s: a.names.possessive(s))
    dragons = "dragon" if len(d["by"]) == 1 else "dragons"
    return f"{a.names.possessive(d['seat'], start=True)} {card(d['card'])} was cancelled by {by} {dragons}"


def lost(verb: str) -> Any:
    def told(d: Data, a: Audience) -> str:
        return f"{a.names.possessive(d['seat'], start=True)} {card(d['card'])} {verb}: {d['reason']}"

    return told


def stone_placed(d: Data, a: Audience) -> str:
    name = str(d["stone"])
    if name[:1] == "i":
        return f"{a.names(d['seat'])} placed a stone on island {name[1:]}"
    return f"{a.names(d['seat'])} dropped stone {name[1:]} into the water, {spot(d['x'], d['y'])}"


def cards_programmed(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} programmed {programme(d['cards'])}"


EVENTS = {
    "FirstPlayerDrawn": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} drawn to play first",
    "CardsProgrammed": cards_programmed,
    "PositionRevealed": position_revealed,
    "ActionCancelled": action_cancelled,
    "StoneActionLost": lost("was lost"),
    "PlankActionLost": lost("was lost"),
    "RemoveActionLost": lost("was lost"),
    "ActionSkipped": lost("was skipped"),
    "StonePlaced": stone_placed,
    "PlankPlaced": lambda d, a: (
        f"{a.names(d['seat'])} laid {plank(d['plank'])} from {support(d['ends'][0])} to {support(d['ends'][1])}"
    ),
    "PlankFellShort": lambda d, a: (
        f"{upper_first(plank(d['plank']))} fell short between {support(d['ends'][0])} and {support(d['ends'][1])}: "
        f"{a.names.object(d['seat'])} must lay it elsewhere"
    ),
    "PlankLost": lambda d, a: f"{upper_first(plank(d['plank']))} fits nowhere: {a.names.object(d['seat'])} lost it",
    "PlankTaken": lambda d, a: f"{a.names(d['seat'])} took {plank(d['plank'])} into {a.names.their(d['seat'])} reserve",
    "StoneRemoved": lambda d, a: f"{a.names(d['seat'])} removed {stone(d['stone'])}",
    "PawnMoved": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} pawn moved {path(d['path'])}",
    "PawnJumped": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} pawn jumped over the pawn on {support(d['over'])} "
        f"to {support(d['to'])}"
    ),
    "PawnFell": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} pawn fell into the water and went back to its village: "
        f"{d['reason']}"
    ),
    "RoundEnded": lambda d, a: (
        f"Round {d['round']} ended; {a.names.object(d['first'])} now hold{'' if a.names.you(d['first']) else 's'} "
        "the first-player marker"
    ),
    "DestinationReached": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} pawn reached its destination",
    "RoundLimitReached": lambda d, a: f"{upper_first(number(d['rounds']))} rounds were played without a crossing",
    "SeatLeft": lambda d, a: f"{a.names(d['seat'])} left the game; {a.names.their(d['seat'])} pawn left the board",
    "LastSeatStanding": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} the last player left",
}


def next_round(d: Data, a: Audience) -> str:
    """The heading of the round a ``RoundEnded`` opens: none after the last round, where the round
    limit ends the game (known where the reader's page knows the game's options, as the log does)."""
    limit = None if a.config is None else getattr(a.config.options, "round_limit", None)
    if limit is not None and d["round"] >= limit:
        return ""
    return f"Round {d['round'] + 1}: programming"


# ------------------------------------------------------------------ moves


def programme_choices(m: Data, a: Audience, seat: int) -> tuple[tuple[str, str], ...]:
    return tuple((f"{upper_first(ordinal(i + 1))} card", card(c)) for i, c in enumerate(m["cards"]))


CHOICES = {
    "program": programme_choices,
    "place_stone": lambda m, a, s: (("Island for the stone", f"island {str(m['island'])[1:]}"),),
    "place_stone_at": lambda m, a, s: (("Where in the water", spot(m["x"], m["y"])),),
    "place_plank": lambda m, a, s: (
        ("Plank to lay", plank(m["plank"])),
        ("From", support(m["ends"][0])),
        ("To", support(m["ends"][1])),
    ),
    "remove_plank": lambda m, a, s: (("Plank to take from the river", plank(m["plank"])),),
    "remove_stone": lambda m, a, s: (("Stone to remove", stone(m["stone"])),),
    "move": lambda m, a, s: (("Way to move", path(m["path"])),),
    "jump": lambda m, a, s: (("Jump over the pawn on", support(m["over"])), ("Landing on", support(m["to"]))),
}
"""Each move type's choices, in the order a player makes them (``Narrator.choices``): a programme
card by card, a plank by the plank and its two ends."""


MOVES = {
    "program": lambda m, a, s: f"programme {programme(m['cards'])}",
    "place_stone": lambda m, a, s: f"place a stone on island {str(m['island'])[1:]}",
    "place_stone_at": lambda m, a, s: f"drop a stone into the water, {spot(m['x'], m['y'])}",
    "place_plank": lambda m, a, s: f"lay {plank(m['plank'])} from {support(m['ends'][0])} to {support(m['ends'][1])}",
    "remove_plank": lambda m, a, s: f"take {plank(m['plank'])} from the river",
    "remove_stone": lambda m, a, s: f"remove {stone(m['stone'])}",
    "move": lambda m, a, s: f"move {path(m['path'])}",
    "jump": lambda m, a, s: f"jump over the pawn on {support(m['over'])} to {support(m['to'])}",
}

REASONS = {
    "crossing": "their pawn crossed the river",
    "last seat standing": "only one player was left",
    "round limit": "the round limit was reached and the pawn nearest its destination won",
}

KINDS = {
    "program": "Programme five cards",
    "place_stone": "Place a stone",
    "place_stone_at": "Drop a stone into the water",
    "place_plank": "Lay a plank",
    "remove_plank": "Take a plank from the river",
    "remove_stone": "Remove a stone",
    "move": "Move your pawn",
    "jump": "Jump over a pawn",
}
"""Each move type as a heading over its moves (``Narrator.kind``)."""

NARRATOR = Narrator(
    events=EVENTS,
    moves=MOVES,
    choices=CHOICES,
    kinds=KINDS,
    turns={
        "FirstPlayerDrawn": lambda d, a: "Round 1: programming",
        "RoundEnded": next_round,
        "PositionRevealed": lambda d, a: f"Position {d['position']} of 5",
    },
    reasons=REASONS,
)
