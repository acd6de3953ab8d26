"""Building race states for the tests: a fresh race, dragons placed by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Draw, Face
from domain.drachenreiter.placement import pose_at
from domain.drachenreiter.state import Phase, Pose, RaceState, Step, Trap
from domain.drachenreiter.track import Track, track
from domain.kernel import Command, Event, Rng


def new_race(seats: int = 2, layout: str = "ring", seed: bytes = b"test") -> RaceState:
    """A race just set up (round 1, speeds awaited)."""
    config = RULESET.configure(None, {"track": layout}, seats)
    state, _ = RULESET.new_game(config, Rng(seed, "setup"))
    return state


def track_of(state: RaceState) -> Track:
    return track(state.layout, state.backwards)


def pose(state: RaceState, s: float, u: float = 0.0, turn: float = 0.0) -> Pose:
    """A base centred at progress ``s`` and offset ``u``, facing along the track plus ``turn``."""
    tr = track_of(state)
    x, y = tr.point_at(s, u)
    return pose_at(tr, x, y, tr.heading_at(s) + turn, s)


def dragon(state: RaceState, seat: int, **changes: Any) -> RaceState:
    dragons = list(state.dragons)
    dragons[seat] = replace(dragons[seat], **changes)
    return replace(state, dragons=tuple(dragons))


def moving(state: RaceState, seat: int, speed: int, laid: Magic | None = None, **changes: Any) -> RaceState:
    """``state`` in the movement phase with ``seat`` to fly at ``speed`` (the others
    have set their speed too and not moved yet)."""
    dragons = tuple(
        replace(d, set_speed=d.set_speed or d.speed) if s != seat else replace(d, set_speed=speed, laid=laid, **changes)
        for s, d in enumerate(state.dragons)
    )
    return replace(state, dragons=dragons, phase=Phase.MOVE, mover=seat, step=Step.FLY)


def clear(state: RaceState) -> RaceState:
    """Every dragon parked far apart, so that a test sets only the ones it needs."""
    tr = track_of(state)
    out = state
    for seat in range(state.seats):
        out = dragon(out, seat, pose=pose(state, tr.length * (0.45 + 0.08 * seat), 0.0))
    return out


def as_placed(state: RaceState) -> Face:
    """The heading decision that leaves the dragon awaiting it as it was placed."""
    assert state.step is Step.FACE and state.facing is not None
    return Face(state.dragons[state.facing].pose.heading)


def with_traps(state: RaceState, *spots: tuple[float, float, int]) -> RaceState:
    traps = tuple(Trap(100 + i, x, y, v) for i, (x, y, v) in enumerate(spots))
    return replace(state, traps=traps)


def play(state: RaceState, seat: int, command: Command, seed: str = "t") -> tuple[list[Event], RaceState]:
    events = RULESET.decide(state, seat, command, Rng(b"test", seed))
    return events, RULESET.fold(state, events)


def whole_turn(state: RaceState, seat: int, command: Command, seed: str = "t") -> tuple[list[Event], RaceState]:
    """Plays ``command``, then the mover's own follow-ups that a test does not look at: the
    dragon left as placed after a template crash, no card drawn from symbols."""
    events, state = play(state, seat, command, seed)
    while state.mover == seat and state.step in (Step.FACE, Step.DRAW) and seat in RULESET.awaiting(state):
        more, state = play(state, seat, as_placed(state) if state.step is Step.FACE else Draw(0), seed)
        events += more
    return events, state


def of_type(events: list[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def energy_total(state: RaceState) -> int:
    return state.supply + sum(d.energy for d in state.dragons)


def card_total(state: RaceState) -> int:
    return len(state.deck) + len(state.discard) + sum(len(d.hand) + (d.laid is not None) for d in state.dragons)
