"""Invariants of whole races, driven by hypothesis: conservation, clean landings,
listed moves accepted, racer races finishing."""

from __future__ import annotations

import random

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import DECK_SIZE, ENERGY_TOKENS
from domain.drachenreiter.shapes import base
from domain.drachenreiter.state import RaceState
from domain.kernel import Rng, canonical_json, choose_move
from tests.support.runs import count

from .helpers import card_total, energy_total, new_race, track_of

SETTINGS = settings(max_examples=count(3, 8), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def landed_cleanly(state: RaceState) -> bool:
    """Every dragon in the race lies inside the borders, touching no other dragon."""
    tr = track_of(state)
    shapes = [base(d.pose.x, d.pose.y, d.pose.heading) for d in state.dragons if not d.out]
    if not all(shapely.contains_properly(tr.area, s) for s in shapes):
        return False
    return not any(a.intersects(b) for i, a in enumerate(shapes) for b in shapes[i + 1 :])


def race(seed: int, seats: int, layout: str, bots: list[str], check: bool) -> RaceState:
    rng = random.Random(seed)
    state = new_race(seats, layout, seed.to_bytes(4, "big"))
    players = [RULESET.bot(b) for b in bots]
    for decision in range(RULESET.max_decisions):
        if RULESET.is_over(state):
            return state
        seat = rng.choice(RULESET.awaiting(state))
        command = choose_move(RULESET, players[seat], state, seat, rng)
        state = RULESET.fold(state, RULESET.decide(state, seat, command, Rng(b"p", f"v{decision}")))
        if check:
            assert energy_total(state) == ENERGY_TOKENS
            assert card_total(state) == DECK_SIZE
            assert len(state.stock) + len(state.traps) <= 12
            assert landed_cleanly(state), f"after {command}"
    raise AssertionError("the race did not end")


@SETTINGS
@given(seed=st.integers(0, 2**16), seats=st.integers(2, 6), layout=st.sampled_from(["ring", "hook", "flight"]))
def test_energy_and_cards_are_conserved_and_landings_are_clean(seed: int, seats: int, layout: str) -> None:
    """26 energy tokens and 38 cards are always somewhere (supply, dragons; pile, discard, hands, laid);
    no dragon ends a move overlapping a border or another dragon (rulebook: "le dragon ne doit plus toucher
    les bordures"; struck dragons go where "il ne touche aucun autre élément")."""
    bots = ["racer" if k % 2 == 0 else "random" for k in range(seats)]
    race(seed, seats, layout, bots, check=True)


@SETTINGS
@given(seed=st.integers(0, 2**16), layout=st.sampled_from(["ring", "hook", "flight"]))
def test_every_listed_move_is_accepted(seed: int, layout: str) -> None:
    """The listing's commands are complete: ``decide`` accepts each as is."""
    rng = random.Random(seed)
    state = new_race(3, layout, seed.to_bytes(4, "big"))
    player = RULESET.bot("random")
    for decision in range(60):
        if RULESET.is_over(state):
            break
        seat = rng.choice(RULESET.awaiting(state))
        moves = RULESET.legal_moves(state, seat)
        for m in rng.sample(moves, min(15, len(moves))):
            RULESET.decide(state, seat, m, Rng(b"l", f"v{decision}"))
        command = choose_move(RULESET, player, state, seat, rng)
        state = RULESET.fold(state, RULESET.decide(state, seat, command, Rng(b"l", f"v{decision}")))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), layout=st.sampled_from(["ring", "hook", "flight"]))
def test_races_between_racers_finish(seed: int, layout: str) -> None:
    """Racer bots cross the finish line in a sensible number of rounds (10 to 20 by design)."""
    state = race(seed, 2, layout, ["racer", "racer"], check=False)
    assert state.result == "finish line crossed"
    assert 8 <= state.round <= 22


def test_the_same_seeds_give_the_same_events() -> None:
    """Determinism: a race replayed from its seeds emits the same events, byte for byte."""

    def events(seed: int) -> str:
        rng = random.Random(seed)
        state = new_race(4, "hook", b"same")
        bots = [RULESET.bot("racer"), RULESET.bot("random")] * 2
        out = []
        for decision in range(120):
            if RULESET.is_over(state):
                break
            seat = RULESET.awaiting(state)[0]
            command = choose_move(RULESET, bots[seat], state, seat, rng)
            new = RULESET.decide(state, seat, command, Rng(b"same", f"v{decision}"))
            out += [RULESET.events.dump(e) for e in new]
            state = RULESET.fold(state, new)
        return canonical_json(out)

    assert events(7) == events(7)
