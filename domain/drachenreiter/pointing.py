"""Chevaliers des dragons' moves on its board (``domain.kernel.pointing``).

The track draws each dragon as ``dragon:<seat>`` and, around a dragon its player must turn,
handles ``heading:<degrees>``; the other choices have no place on the track and carry their
words (``labels``) for the page to show as the board's buttons: a speed ``speed:<n>``, a magic
card ``magic:<card>``, a template ``fly:<speed>``, the turns ``in:<degrees>`` and
``out:<degrees>``, an alliance's answer, a draw, traps, holding. A magic card laid with a speed is
clicked before the speed, so a speed alone is one click. A flight carries its path (the
dragon's centre, its front point, the template's end, where the dragon ends) in the track's
units and how it ends (``ok``, ``wall``: the template meets the border, ``crash``: the dragon
does), computed by ``flight.fly`` from the track and the dragons' and traps' places, which
every seat sees: nothing hidden goes into it.
"""

from __future__ import annotations

import math
from itertools import permutations

from domain.drachenreiter.commands import Aim, Ally, Discard, Draw, Face, Hold, LayTraps, Move, SetSpeed
from domain.drachenreiter.flight import fly
from domain.drachenreiter.narration import card as narrated_card
from domain.drachenreiter.race import template_speeds
from domain.drachenreiter.shapes import front_point
from domain.drachenreiter.state import RaceState
from domain.kernel import Command
from domain.kernel.pointing import NOWHERE, Pointing, point

TRACK = "track"
"""The ``data-frame`` of the track's group in ``svg.py``."""


def angle(value: float) -> str:
    """Degrees as a ref writes them ("-165", "0", never "-0")."""
    return f"{value + 0.0:g}"


def turn_words(value: float, when: str) -> str:
    if abs(value) < 1e-9:
        return f"{when}: straight on"
    side = "left" if value > 0 else "right"
    return f"{when}: {abs(value):g}° {side}"


def card_words(card: str) -> str:
    """A magic card by the name on it, as the narrator says it ("Fireball (range 800)")."""
    return narrated_card(card)


def labelled(refs: list[tuple[str, str]]) -> Pointing:
    """A move made by clicking buttons that have words of their own."""
    return Pointing((tuple(r for r, _ in refs),), labels=tuple(refs))


def pointing(state: RaceState, seat: int, command: Command) -> Pointing:
    """The clicks that make ``command`` for ``seat``."""
    match command:
        case SetSpeed(speed=speed, card=card):
            refs = [(f"speed:{speed}", f"Speed {speed}")]
            if card is not None:
                refs.insert(0, (f"magic:{card.value}", f"Lay {card_words(card.value)}"))
            return labelled(refs)
        case Move():
            return _flight(state, seat, command)
        case Face(heading=heading):
            ref = f"heading:{angle(round(heading, 1))}"
            return Pointing(((ref,),), labels=((ref, f"Face {heading:.0f}°"),))
        case Ally(turn=turn):
            return labelled([("ally:yes", "Turn the alliance") if turn else ("ally:no", "Keep my card face down")])
        case Draw(count=count):
            return labelled([(f"draw:{count}", f"Draw {count} card{'' if count == 1 else 's'}")])
        case Discard(cards=cards):
            words = tuple((f"magic:{c.value}", f"Discard {card_words(c.value)}") for c in cards)
            ways = tuple(tuple(r for r, _ in order) for order in permutations(words))
            return Pointing(tuple(dict.fromkeys(ways)), labels=words)
        case Aim(target=target):
            return point(f"dragon:{target}")
        case LayTraps(spots=spots):
            ref = "traps:" + ";".join(f"{x:.0f},{y:.0f}" for x, y in spots)
            return Pointing(((ref,),), path=tuple(spots), frame=TRACK, labels=((ref, f"Lay {len(spots)} traps"),))
        case Hold():
            return labelled([("hold", "Play no magic now")])
    return NOWHERE


def _flight(state: RaceState, seat: int, move: Move) -> Pointing:
    me = state.dragons[seat]
    refs: list[tuple[str, str]] = []
    if len(template_speeds(me)) > 1:
        refs.append((f"fly:{move.speed}", f"Template {move.speed}"))
    refs.append((f"in:{angle(move.turn_in)}", turn_words(move.turn_in, "Turn in")))
    refs.append((f"out:{angle(move.turn_out)}", turn_words(move.turn_out, "Turn out")))
    f = fly(state, seat, move.speed, move.turn_in, move.turn_out, counted=False)
    p, t = me.pose, f.template
    fx, fy = front_point(p.x, p.y, p.heading)
    d = math.radians(t.direction)
    tip = (t.x + t.reach * math.cos(d), t.y + t.reach * math.sin(d))
    ends = {"template": "wall", "dragon": "crash"}.get(f.crash, "ok")
    path = ((p.x, p.y), (fx, fy), tip, (f.final.x, f.final.y))
    return Pointing((tuple(r for r, _ in refs),), path=path, ends=ends, frame=TRACK, labels=tuple(refs))
