"""view: the only code that decides what a viewer sees of a race.

Hidden while the race runs: the speed each dragon set this round, its laid card
and its answer in an open alliance window (its owner's), each hand (its
owner's), the order of the pile, and the values of the traps in the stock and on
the track (nobody's). Counts, whether a card lies face down, who has answered and
which dragon a turned alliance holds are public. ``Viewer.everyone()`` sees all.
"""

from __future__ import annotations

from typing import Any

from domain.drachenreiter.race import race_order
from domain.drachenreiter.state import Phase, RaceState
from domain.drachenreiter.track import track
from domain.kernel import Viewer

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
"""Designed: the dragons' colours by seat."""


def view(state: RaceState, viewer: Viewer) -> dict[str, Any]:
    tr = track(state.layout, state.backwards)
    over = state.phase is Phase.OVER
    dragons = []
    for seat, d in enumerate(state.dragons):
        mine = viewer.sees(seat)
        dragons.append(
            {
                "seat": seat,
                "colour": COLOURS[seat],
                "place": d.place,
                "x": d.pose.x,
                "y": d.pose.y,
                "heading": d.pose.heading,
                "progress": d.pose.progress,
                "energy": d.energy,
                "speed": d.speed,
                "set_speed": d.set_speed if mine else None,
                "speed_set": d.set_speed is not None,
                "hand": [c.value for c in d.hand] if mine else None,
                "hand_size": len(d.hand),
                "laid": (d.laid.value if d.laid is not None and (mine or d.shown) else None),
                "card_laid": d.laid is not None,
                "debilitatus": d.exhausted,
                "out": d.out,
                "moved": d.moved,
                "answered": d.answer is not None,
                "answer": d.answer if mine else None,
                "ally_of": d.ally_of,
            }
        )
    t = state.template
    return {
        "track": state.layout,
        "backwards": state.backwards,
        "finish": tr.finish,
        "lap": tr.length if tr.closed else None,
        "round": state.round,
        "phase": state.phase.value,
        "mover": state.mover,
        "step": state.step.value if state.step else None,
        "window": list(state.window),
        "facing": state.facing,
        "face_cause": state.face_cause.value if state.face_cause else None,
        "draws": state.draws,
        "order": list(race_order(state)) if state.phase is not Phase.SETUP else [],
        "dragons": dragons,
        "deck": len(state.deck),
        "discard": [c.value for c in state.discard],
        "stock": len(state.stock),
        "traps": [
            {"id": p.id, "x": p.x, "y": p.y, "value": p.value if viewer.omniscient else None} for p in state.traps
        ],
        "supply": state.supply,
        "template": None
        if t is None
        else {
            "seat": t.seat,
            "speed": t.speed,
            "x": t.x,
            "y": t.y,
            "direction": t.direction,
            "length": t.length,
            "reach": t.reach,
        },
        "left": list(state.left),
        "out": list(state.out_order),
        "result": state.result if over else None,
    }
