"""Chevaliers des dragons in words: the race's events, moves, result and options as a player reads them.

Magic cards are named as on the card ("Fireball (range 600)", "Forced alliance"), turns in
whole degrees ("15° left"), distances along the track in whole units. A seat's set speed,
laid card, hand and alliance answer are secret until shown: a viewer who may not see them
reads only that something was set, laid or drawn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domain.drachenreiter.track import runs_backwards, track
from domain.kernel.narration import Audience, Narrator
from domain.kernel.wording import (
    counted,
    degrees,
    figure,
    hidden_count,
    is_hidden,
    listing,
    turn_words,
    upper_first,
    words,
)

Data = Mapping[str, Any]

CARD_NAMES = {
    "fireball-400": "Fireball (range 400)",
    "fireball-600": "Fireball (range 600)",
    "fireball-800": "Fireball (range 800)",
    "lasso": "Lasso",
    "alliance": "Forced alliance",
    "magic-trap": "Magic trap",
    "magic-energy": "Magic energy",
    "dragon-force": "Dragon force",
    "counter-wind": "Counter-wind",
    "amulet": "Amulet",
}
CAUSES = {
    "template crash": "the template touched a border",
    "dragon crash": "the dragon touched a border",
}


def card(name: Any) -> str:
    return "a card" if is_hidden(name) else CARD_NAMES.get(str(name), upper_first(words(str(name))))


def cards(names: Any) -> str:
    """Cards by name, or how many when the viewer may not see them."""
    if is_hidden(names):
        return counted(hidden_count(names) or 0, "magic card")
    return listing((card(c) for c in names), empty="no card")


def along(pose: Mapping[str, Any], a: Audience) -> str:
    """A place on the track: "1200 along the track, 1840 short of the finish" where the reader's
    page knows the race's track (``Audience.config``), so that a figure means something."""
    here = f"{figure(pose['progress'], 0)} along the track"
    if a.config is None:
        return here
    layout = a.config.options.track
    to_go = track(layout, runs_backwards(layout, a.config.seats)).finish - float(pose["progress"])
    return f"{here}, past the finish line" if to_go <= 0 else f"{here}, {figure(to_go, 0)} short of the finish"


def flight(speed: Any, turn_in: float, turn_out: float) -> str:
    """A flight: "at speed 600, turning 15° left, then straight on at the tip"; "at speed 600,
    straight on, then 15° left at the tip"; "at speed 600, straight on"."""
    setting_off, at_tip = turn_words(turn_in), turn_words(turn_out)
    if setting_off == at_tip == "straight on":
        return f"at speed {speed}, straight on"
    first = setting_off if setting_off == "straight on" else f"turning {setting_off}"
    return f"at speed {speed}, {first}, then {at_tip} at the tip"


def cause(text: str, a: Audience) -> str:
    """What cost a dragon energy, from the rules' list ("template crash, collision with seat 1")."""
    said = []
    for part in str(text).split(", "):
        seat = re.fullmatch(r"(collision with|fireball of) seat (\d+)", part)
        if seat and seat.group(1) == "collision with":
            said.append(f"a collision with {a.names.possessive(int(seat.group(2)))} dragon")
        elif seat:
            said.append(f"{a.names.possessive(int(seat.group(2)))} fireball")
        elif re.fullmatch(r"trap \d+", part):
            said.append("a trap")
        else:
            said.append(CAUSES.get(part, part))
    return listing(said)


def missed(reason: str) -> str:
    reach = re.fullmatch(r"out of range (\d+)", reason)
    if reach:
        return f"the target was out of range ({reach.group(1)})"
    return {"amulet": "an amulet protected the target"}.get(reason, reason)


REASONS = {
    "finish line crossed": "a dragon crossed the finish line",
    "last dragon flying": "only one dragon was left in the race",
    "round limit": "the round limit was reached",
}


# ------------------------------------------------------------------ events


def start_cards(d: Data, a: Audience) -> str:
    places = [f"{a.names.object(s)} in place {n}" for s, n in enumerate(d["cards"])]
    return f"The start cards set the grid: {listing(places)}"


def speed_set(d: Data, a: Audience) -> str:
    seat = d["seat"]
    if is_hidden(d["speed"]):
        return f"{a.names(seat)} set a secret speed"
    return f"{a.names(seat)} set {a.names.their(seat)} speed to {d['speed']}"


def card_laid(d: Data, a: Audience) -> str:
    what = "a card" if is_hidden(d["card"]) else card(d["card"])
    return f"{a.names(d['seat'])} laid {what} face down"


def verb(a: Audience, seat: int, plain: str, third: str) -> str:
    """The verb that agrees with the seat as the reader names it: ``plain`` after "you" ("you
    fly"), ``third`` after a player's name ("Bruno flies")."""
    return plain if a.names.you(seat) else third


def alliance_window(d: Data, a: Audience) -> str:
    target = d["target"]
    flies = verb(a, target, "fly", "flies")
    return f"Before {a.names.object(target)} {flies}, {a.names.listed(d['seats'])} may turn a laid forced alliance"


def alliance_answered(d: Data, a: Audience) -> str:
    """Every seat with a face-down card is asked, whatever the card: a refusal tells only that the
    laid card stayed face down, never that it was a forced alliance (a turn is one, and is shown)."""
    seat, turn = d["seat"], d["turn"]
    if is_hidden(turn):
        return f"{a.names(seat)} answered in secret"
    if not turn:
        return f"{a.names(seat)} chose not to turn {a.names.their(seat)} laid card"
    return f"{a.names(seat)} chose to turn {a.names.their(seat)} forced alliance"


def dragon_flew(d: Data, a: Audience) -> str:
    template = d["template"]
    flew = flight(template["speed"], d["turn_in"], d["turn_out"])
    return f"{a.names.possessive(d['seat'], start=True)} dragon flew {flew}, and landed {along(d['pose'], a)}"


def energy_lost(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} lost {counted(d['amount'], 'energy token')}: {cause(d['cause'], a)}"


def cards_drawn(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} drew {cards(d['cards'])}"


def draw_chosen(d: Data, a: Audience) -> str:
    if not d["count"]:
        return f"{a.names(d['seat'])} chose to draw no card"
    return f"{a.names(d['seat'])} chose to draw {counted(d['count'], 'magic card')}"


def trap_sprung(d: Data, a: Audience) -> str:
    value = d["value"]
    said = f"{a.names(d['seat'])} sprang a trap worth {counted(value, 'energy token')}"
    return said + ("; an amulet shielded the dragon" if d["shielded"] else "")


def exhausted(d: Data, a: Audience) -> str:
    seat = d["seat"]
    return (
        f"{a.names.possessive(seat, start=True)} dragon could not pay its energy and took a Debilitatus (it is "
        f"weakened: a second one puts it out of the race): it discarded {cards(d['cards'])} "
        f"and went back to {along(d['pose'], a)} with two energy tokens and speed 300"
    )


def traps_laid(d: Data, a: Audience) -> str:
    return f"{a.names(d['seat'])} laid {counted(len(d['spots']), 'trap')} against the template"


def fireball(d: Data, a: Audience) -> str:
    rolled = listing(str(v) for v in d["dice"])
    return f"{a.names(d['seat'])} threw a fireball at {a.names.object(d['target'])} and rolled {rolled}"


EVENTS = {
    "StartCardsDealt": start_cards,
    "DragonLinedUp": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon lined up with {counted(d['energy'], 'energy token')} "
        f"and its dial at {d['speed']}"
    ),
    "DeckShuffled": lambda d, a: "The magic cards were shuffled into a face-down pile",
    "TrapsShuffled": lambda d, a: "The trap tokens were shuffled face down into the stock",
    "HandDealt": lambda d, a: f"{a.names(d['seat'])} {a.names.was(d['seat'])} dealt {cards(d['cards'])}",
    "RoundStarted": lambda d, a: f"Round {d['round']} began: every player sets a speed in secret",
    "SpeedSet": speed_set,
    "CardLaid": card_laid,
    "SpeedRevealed": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon moves next: it was set to speed {d['speed']}"
    ),
    "CardPlayed": lambda d, a: f"{a.names(d['seat'])} played {card(d['card'])}",
    "AllianceWindowOpened": alliance_window,
    "AllianceAnswered": alliance_answered,
    "AllianceTurned": lambda d, a: (
        f"{a.names(d['seat'])} turned a forced alliance on {a.names.possessive(d['target'])} dragon"
    ),
    "AllianceWindowClosed": lambda d, a: f"Every answer is in: {a.names.possessive(d['target'])} dragon moves",
    "DragonFlew": dragon_flew,
    "TemplateCrashed": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} template touched a border: the dragon stopped at "
        f"{along(d['pose'], a)}"
    ),
    "HeadingAwaited": lambda d, a: (
        f"{a.names(d['seat'])} now {verb(a, d['seat'], 'turn', 'turns')} "
        f"{a.names.their(d['seat'])} dragon to the heading {verb(a, d['seat'], 'you want', 'they want')}"
    ),
    "DragonFaced": lambda d, a: (
        f"{a.names(d['seat'])} turned {a.names.their(d['seat'])} dragon to face {degrees(d['pose']['heading'])}"
    ),
    "DragonCrashed": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon touched a border and was put back inside at "
        f"{along(d['pose'], a)}"
    ),
    "DragonStruck": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon struck {a.names.possessive(d['struck'])} dragon, which "
        f"went back to {along(d['pose'], a)}"
    ),
    "EnergyGained": lambda d, a: f"{a.names(d['seat'])} gained {counted(d['amount'], 'energy token')}",
    "EnergyLost": energy_lost,
    "DrawOffered": lambda d, a: f"{a.names(d['seat'])} may draw up to {counted(d['count'], 'magic card')}",
    "DrawChosen": draw_chosen,
    "CardsDrawn": cards_drawn,
    "DiscardReshuffled": lambda d, a: "The discard pile was shuffled into a new face-down pile",
    "TrapSprung": trap_sprung,
    "SpeedDialled": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} dial now shows {d['speed']}",
    "Exhausted": exhausted,
    "DebilitatusLifted": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} Debilitatus was lifted at an energy field: it is weakened no more"
    ),
    "DragonEliminated": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon could not pay its energy while weakened (a second "
        "Debilitatus) and is out of the race"
    ),
    "DragonLeft": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} dragon left the race",
    "HandOverflowed": lambda d, a: f"{a.names(d['seat'])} must discard {counted(d['excess'], 'card')} down to four",
    "CardsDiscarded": lambda d, a: f"{a.names(d['seat'])} discarded {cards(d['cards'])}",
    "MagicAwaited": lambda d, a: f"{a.names(d['seat'])} may now play {a.names.their(d['seat'])} laid card",
    "MagicHeld": lambda d, a: f"{a.names(d['seat'])} did not play {a.names.their(d['seat'])} laid card",
    "LaidCardDiscarded": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} unplayed {card(d['card'])} went to the discard pile"
    ),
    "TurnEnded": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} move is over",
    "MagicMissed": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} card did nothing to {a.names.object(d['target'])}: "
        f"{missed(d['reason'])}"
    ),
    "AmuletShielded": lambda d, a: (
        f"{a.names(d['seat'])} showed an amulet: {a.names.their(d['seat'])} dragon is protected this round"
    ),
    "FireballRolled": fireball,
    "EnergyDrained": lambda d, a: f"{a.names(d['seat'])} drained an energy token from {a.names.object(d['target'])}",
    "DragonLassoed": lambda d, a: (
        f"{a.names(d['seat'])} lassoed {a.names.possessive(d['target'])} dragon to just in front, "
        f"at {along(d['pose'], a)}"
    ),
    "AllianceJoined": lambda d, a: (
        f"{a.names.possessive(d['seat'], start=True)} dragon joined {a.names.possessive(d['target'])}, just behind it"
    ),
    "TrapsLaid": traps_laid,
    "RaceFinished": lambda d, a: f"The race ended: {REASONS.get(d['reason'], d['reason'])}",
}

# ------------------------------------------------------------------ moves


def set_speed(m: Data, a: Audience, seat: int) -> str:
    if is_hidden(m["speed"]):
        return "set a secret speed"
    laid = f"lay {card(m['card'])}" if m.get("card") else "lay no card"
    return f"set speed {m['speed']} and {laid}"


def ally(m: Data, a: Audience, seat: int) -> str:
    """A seat holding any face-down card is asked, so a refusal names the laid card, not what it is:
    only a seat whose card is a forced alliance may turn it."""
    if is_hidden(m["turn"]):
        return "answer the alliance in secret"
    return "turn the forced alliance" if m["turn"] else "do not turn the laid card"


def lay_traps(m: Data, a: Audience, seat: int) -> str:
    spots = listing(f"({figure(x, 0)}, {figure(y, 0)})" for x, y in m["spots"])
    return f"lay {counted(len(m['spots']), 'trap')} at {spots}"


CHOICES = {
    "set_speed": lambda m, a, s: (
        ("Speed", f"speed {m['speed']}"),
        ("Magic card to lay", card(m["card"]) if m.get("card") else "no card"),
    ),
    "move": lambda m, a, s: (
        ("Speed", f"speed {m['speed']}"),
        ("Turn on setting off", turn_words(m["turn_in"])),
        ("Then at the tip", turn_words(m["turn_out"])),
    ),
    "face": lambda m, a, s: (("Face", f"heading {degrees(m['heading'])}"),),
    "draw": lambda m, a, s: (("Draw", counted(m["count"], "magic card") if m["count"] else "no card"),),
    "discard": lambda m, a, s: (("Cards to discard", cards(m["cards"])),),
    "aim": lambda m, a, s: (("Play the laid card at", f"{a.names.possessive(m['target'])} dragon"),),
    "lay_traps": lambda m, a, s: (("Traps", lay_traps(m, a, s).removeprefix("lay ")),),
    "ally": lambda m, a, s: (("The laid card", "turn it as a forced alliance" if m["turn"] else "do not turn it"),),
}
"""Each move type's choices, in the order a player makes them (``Narrator.choices``): a flight by its
speed, then its two turns."""


MOVES = {
    "set_speed": set_speed,
    "ally": ally,
    "move": lambda m, a, s: f"fly {flight(m['speed'], m['turn_in'], m['turn_out'])}",
    "face": lambda m, a, s: f"turn the dragon to face {degrees(m['heading'])}",
    "draw": lambda m, a, s: f"draw {counted(m['count'], 'magic card')}" if m["count"] else "draw no card",
    "discard": lambda m, a, s: f"discard {cards(m['cards'])}",
    "aim": lambda m, a, s: f"play the laid card at {a.names.possessive(m['target'])} dragon",
    "lay_traps": lay_traps,
    "hold": lambda m, a, s: "keep the laid card unplayed",
}


KINDS = {
    "set_speed": "Set your speed",
    "ally": "Turn a laid forced alliance, or not",
    "move": "Fly",
    "face": "Turn your dragon",
    "draw": "Draw magic cards",
    "discard": "Discard magic cards",
    "aim": "Aim the laid card",
    "lay_traps": "Lay traps",
    "hold": "Do not play the laid card",
}
"""Each move type as a heading over its moves (``Narrator.kind``)."""

NARRATOR = Narrator(
    events=EVENTS,
    moves=MOVES,
    choices=CHOICES,
    kinds=KINDS,
    turns={
        "RoundStarted": lambda d, a: f"Round {d['round']}: speeds",
        "SpeedRevealed": lambda d, a: f"{a.names.possessive(d['seat'], start=True)} flight",
    },
    quiet=("TurnEnded", "AllianceWindowClosed", "MagicAwaited", "SpeedDialled", "DrawOffered"),
    reasons=REASONS,
)
