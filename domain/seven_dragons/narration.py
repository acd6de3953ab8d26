"""Seven Dragons in words: its events, moves, result and options as a player reads them.

A card is named by what it shows, never by its number: "the red dragon card", "the red and
gold card (red on top)", "Zap a Card", "the Silver Dragon". A cell of the layout is named
from the centre, where the Silver Dragon (or the first card turned up) lies: "right of the
centre", "2 left and 1 up from the centre". Hands, goals and the deck's order are secret:
what a viewer may not see reaches a sentence only as a count ("Bruno drew a card").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.narration import Audience, Narrator
from domain.kernel.wording import counted, hidden_count, is_hidden, listing, number, ordinal, upper_first
from domain.seven_dragons.cards import CARDS, RAINBOW_CODE, Action, Kind
from domain.seven_dragons.state import End

Data = Mapping[str, Any]

COLOUR_WORDS = {"R": "red", "Y": "gold", "B": "blue", "G": "green", "K": "black"}
ACTION_NAMES = {
    Action.ZAP_A_CARD: "Zap a Card",
    Action.TRADE_GOALS: "Trade Goals",
    Action.ROTATE_GOALS: "Rotate Goals",
    Action.MOVE_A_CARD: "Move a Card",
    Action.TRADE_HANDS: "Trade Hands",
}


def card(number_: int) -> str:
    """A card by what it shows, with its article: "the red and gold card (red on top)"."""
    c = CARDS[number_]
    if c.kind is Kind.SILVER:
        return "the Silver Dragon"
    if c.action is not None:
        return ACTION_NAMES[c.action]
    return "the " + dragon(c.name)


def dragon(code: str) -> str:
    """A dragon card's panels (TL TR BL BR) in words, its colours in panel order."""
    if code == RAINBOW_CODE:
        return "Rainbow Dragon"
    tl, tr, bl, br = (COLOUR_WORDS[p] for p in code)
    colours = list(dict.fromkeys((tl, tr, bl, br)))
    if len(colours) == 1:
        return f"{tl} dragon card"
    named = listing(colours)
    if tl == tr:
        return f"{named} card ({tl} on top)"
    if tl == bl:
        return f"{named} card ({tl} on the left)"
    return f"{named} card (in quarters)"


def cards(numbers: Any) -> str:
    return listing(card(n) for n in numbers)


def cell(x: int, y: int) -> str:
    """A cell of the layout from the centre: "right of the centre", "2 places above the centre",
    "2 left and 1 up from the centre"."""
    if (x, y) == (0, 0):
        return "at the centre"
    near = {(1, 0): "right of", (-1, 0): "left of", (0, -1): "above", (0, 1): "below"}
    if (x, y) in near:
        return f"{near[(x, y)]} the centre"
    if not y:
        return f"{abs(x)} places {'right' if x > 0 else 'left'} of the centre"
    if not x:
        return f"{abs(y)} places {'below' if y > 0 else 'above'} the centre"
    return f"{abs(x)} {'right' if x > 0 else 'left'} and {abs(y)} {'down' if y > 0 else 'up'} from the centre"


def turned(orientation: int) -> str:
    return ", turned round" if orientation == 180 else ""


def goal(colour: Any) -> str:
    return "a secret goal" if is_hidden(colour) else f"the {colour} goal"


def hand(d: Data, key: str, a: Audience, seat: int) -> str:
    """A list of cards, or how many when the viewer may not see them."""
    if is_hidden(d[key]):
        return counted(hidden_count(d[key]) or 0, "card")
    return cards(d[key])


def one_card(value: Any) -> str:
    return "a card" if is_hidden(value) else card(value)


# ------------------------------------------------------------------ events


def goals_traded(d: Data, a: Audience) -> str:
    seat, names = d["seat"], a.names
    other = names.object(d["other"]) if d["other"] is not None else f"the {ordinal((d['unused'] or 0) + 1)} unused goal"
    said = f"{names(seat)} traded goals with {other}"
    if not is_hidden(d["received"]):
        said += f": {names.object(seat)} took {goal(d['received'])} and gave {goal(d['given'])}"
    return said


def hands_traded(d: Data, a: Audience) -> str:
    seat, other, names = d["seat"], d["other"], a.names
    said = f"{names(seat)} traded hands with {names.object(other)}"
    if not is_hidden(d["received"]):
        said += f": {names.object(seat)} got {cards(d['received']) or 'no card'}"
        said += f" and {names.object(other)} got {cards(d['given']) or 'no card'}"
    return said


def action_discarded(d: Data, a: Audience) -> str:
    name = card(d["card"])
    if not d["effect"]:
        return f"{a.names(d['seat'])} discarded {name} without its effect: {silver_after(d['card'])}"
    if d["discard"] == "top":
        return f"{name} went on top of the discard pile: {silver_after(d['card'])}"
    return f"{name} went to the bottom of the discard pile"


def silver_after(number_: int) -> str:
    colour = CARDS[number_].colour
    return f"the Silver Dragon is now {colour.value}" if colour else "the Silver Dragon keeps its colour"


def all_cards_played(d: Data, a: Audience) -> str:
    winners = d["winners"]
    verb = "comes" if len(winners) == 1 and not a.names.you(winners[0]) else "come"
    return f"Every card has been played: {a.names.listed(winners)} {verb} closest to the goal"


def last_card_placed(d: Data, a: Audience) -> str:
    if d["seat"] is None:
        return "The deck is through and nobody placed a card"
    return f"The deck is through: {a.names(d['seat'])} placed the last card"


def seat_joined(d: Data, a: Audience) -> str:
    said = f"{a.names(d['seat'])} joined the game"
    if d["unused"] is not None:
        said += f", taking the {ordinal(d['unused'] + 1)} unused goal"
        if not is_hidden(d["goal"]) and d["goal"]:
            said += f" ({goal(d['goal'])})"
    return said


def unused_goals(d: Data, a: Audience) -> str:
    if is_hidden(d["goals"]):
        return f"{upper_first(number(hidden_count(d['goals']) or 0))} unused goals were laid aside face down"
    return f"The unused goals were laid aside: {listing(goal(g) for g in d['goals']) or 'none'}"


EVENTS = {
    "GoalDealt": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} dealt {goal(d['goal'])}",
    "UnusedGoalsLaidAside": unused_goals,
    "SilverDragonPlaced": lambda d, a: "The Silver Dragon was laid at the centre of the table",
    "FirstCardTurnedUp": lambda d, a: f"{upper_first(card(d['card']))} was turned up at the centre",
    "DeckShuffled": lambda d, a: "The deck was shuffled",
    "CardsDealt": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} dealt {hand(d, 'cards', a, d['seat'])}",
    "TurnStarted": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} turn began",
    "CardDrawn": lambda d, a: f"{a.names(d['seat'])} drew {one_card(d['card'])}",
    "CardTurnedUp": lambda d, a: f"{a.names(d['seat'])} turned up {card(d['card'])}",
    "DragonPlaced": lambda d, a: (
        f"{a.names(d['seat'])} placed {card(d['card'])} {cell(d['x'], d['y'])}{turned(d['orientation'])}"
    ),
    "BonusDrawn": lambda d, a: f"{a.names(d['seat'])} drew {hand(d, 'cards', a, d['seat'])} as a bonus",
    "CardSetAside": lambda d, a: f"{a.names(d['seat'])} set {card(d['card'])} aside, out of the game",
    # an action played may still be discarded without its effect: the line after it says which
    "ActionPlayed": lambda d, a: f"{a.names(d['seat'])} chose {card(d['card'])}",
    "HandsTraded": hands_traded,
    "GoalsTraded": goals_traded,
    "GoalsRotated": lambda d, a: f"{a.names(d['seat'])} passed every goal one place to the {d['direction']}",
    "CardMoved": lambda d, a: (
        f"{a.names(d['seat'])} moved {card(d['target'])} {cell(d['x'], d['y'])}{turned(d['orientation'])}"
    ),
    "CardZapped": lambda d, a: (
        f"{a.names(d['seat'])} took {card(d['target'])} from the layout into {a.names.their(d['seat'])} hand"
    ),
    "ActionDiscarded": action_discarded,
    "SeatJoined": seat_joined,
    "HandSetAside": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} hand was laid aside face up: {cards(d['cards']) or 'no card'}"
    ),
    "SeatLeft": lambda d, a: f"{a.names(d['seat'])} left the game",
    "GameWon": lambda d, a: f"{a.names(d['seat'])} connected {number(d['group'])} {d['goal']} dragons and won",
    "AllCardsPlayed": all_cards_played,
    "LastCardPlaced": last_card_placed,
    "LastSeatStanding": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} the last player left",
}

# ------------------------------------------------------------------ moves


def discard(m: Data, then: bool = True) -> str:
    """Where an action card goes once played (``then``) or discarded without its effect."""
    joint = ", then " if then else ", "
    if m.get("discard", "top") == "top":
        colour = CARDS[m["card"]].colour
        return f"{joint}on top of the discard pile (the Silver Dragon turns {colour.value if colour else 'wild'})"
    return f"{joint}at the bottom of the discard pile"


def trade_goals(m: Data, a: Audience, seat: int) -> str:
    unused = f"the {ordinal((m['unused'] or 0) + 1)} unused goal"
    other = a.names.object(m["seat"]) if m.get("seat") is not None else unused
    return f"play Trade Goals with {other}{discard(m)}"


MOVES = {
    "place_dragon": lambda m, a, s: f"place {card(m['card'])} {cell(m['x'], m['y'])}{turned(m['orientation'])}",
    "trade_hands": lambda m, a, s: f"play Trade Hands with {a.names.object(m['seat'])}{discard(m)}",
    "trade_goals": trade_goals,
    "rotate_goals": lambda m, a, s: f"play Rotate Goals to the {m['direction']}{discard(m)}",
    "move_card": lambda m, a, s: (
        f"play Move a Card: {card(m['target'])} {cell(m['x'], m['y'])}{turned(m['orientation'])}{discard(m)}"
    ),
    "zap_card": lambda m, a, s: f"play Zap a Card on {card(m['target'])}{discard(m)}",
    "discard_action": lambda m, a, s: f"discard {card(m['card'])} without its effect{discard(m, then=False)}",
    "set_aside": lambda m, a, s: f"set {card(m['card'])} aside, out of the game",
}

# ------------------------------------------------------------------ choices (the move controls)


def then(m: Data) -> tuple[str, str]:
    """Where a played action card goes, as a choice."""
    if m.get("discard", "top") == "top":
        colour = CARDS[m["card"]].colour
        return (
            "Then the card goes",
            f"on top of the discard pile (the Silver Dragon turns {colour.value if colour else 'wild'})",
        )
    return ("Then the card goes", "to the bottom of the discard pile")


def where(m: Data) -> tuple[str, str]:
    return ("Where", cell(m["x"], m["y"]))


def turn(m: Data) -> tuple[str, str]:
    return ("Which way up", "turned round" if m.get("orientation") == 180 else "upright")


def trade_goals_with(m: Data, a: Audience) -> str:
    if m.get("seat") is not None:
        return a.names.object(m["seat"])
    return f"the {ordinal((m['unused'] or 0) + 1)} unused goal"


CHOICES = {
    "place_dragon": lambda m, a, s: (("Card to lay", card(m["card"])), where(m), turn(m)),
    "trade_hands": lambda m, a, s: (
        ("Action card to play", card(m["card"])),
        ("Trade hands with", a.names.object(m["seat"])),
        then(m),
    ),
    "trade_goals": lambda m, a, s: (
        ("Action card to play", card(m["card"])),
        ("Trade goals with", trade_goals_with(m, a)),
        then(m),
    ),
    "rotate_goals": lambda m, a, s: (
        ("Action card to play", card(m["card"])),
        ("Pass every goal", f"to the {m['direction']}"),
        then(m),
    ),
    "move_card": lambda m, a, s: (
        ("Action card to play", card(m["card"])),
        ("Card to move", card(m["target"])),
        where(m),
        turn(m),
        then(m),
    ),
    "zap_card": lambda m, a, s: (
        ("Action card to play", card(m["card"])),
        ("Card to take into your hand", card(m["target"])),
        then(m),
    ),
    "discard_action": lambda m, a, s: (("Card to discard without its effect", card(m["card"])),),
    "set_aside": lambda m, a, s: (("Card to set aside", card(m["card"])),),
}
"""Each move type's choices, in the order a player makes them (``Narrator.choices``)."""

REASONS = {
    End.GOAL.value: "enough dragons of the winning goal's colour were connected",
    End.ALL_CARDS_PLAYED.value: "every card was played",
    End.LAST_CARD.value: "they placed the last card",
    End.LAST_SEAT.value: "only one player was left",
}

KINDS = {
    "place_dragon": "Lay a dragon card",
    "trade_hands": "Play Trade Hands",
    "trade_goals": "Play Trade Goals",
    "rotate_goals": "Play Rotate Goals",
    "move_card": "Play Move a Card",
    "zap_card": "Play Zap a Card",
    "discard_action": "Discard an action card without its effect",
    "set_aside": "Set a card aside",
}
"""Each move type as a heading over its moves (``Narrator.kind``)."""

NARRATOR = Narrator(
    events=EVENTS,
    moves=MOVES,
    turns={"TurnStarted": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} turn"},
    quiet=("TurnStarted", "DeckShuffled"),
    reasons=REASONS,
    choices=CHOICES,
    kinds=KINDS,
)
