"""The bots: the racer beats random bots and plays its cards sensibly; Level 4's prior waits with
its lasso."""

from __future__ import annotations

import random
from dataclasses import replace

from domain.drachenreiter import RULESET
from domain.drachenreiter.bots import TURN_STEP, gaps
from domain.drachenreiter.bots_ladder import LASSO_PATIENCE, PatientRacer
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Aim, Move, SetSpeed
from domain.drachenreiter.state import RaceState, Step
from domain.kernel import Rng, choose_move

from .helpers import clear, dragon, moving, new_race, pose

SAMPLE = 10
THRESHOLD = 8
"""The bench plays 100 races (target 80%); this fixed-seed sample must win at least 8 of 10."""


def race(seed: int, flights: list[Move] | None = None) -> bool:
    """Whether the racer (seat ``seed % 4``, against three random bots) wins; its flights are
    added to ``flights``."""
    racer = seed % 4
    bots = [RULESET.bot("racer" if s == racer else "random") for s in range(4)]
    rng = random.Random(seed)
    config = RULESET.configure(None, None, 4)
    state, _ = RULESET.new_game(config, Rng(f"bots-{seed}".encode(), "setup"))
    decisions = 0
    while not RULESET.is_over(state):
        seat = RULESET.awaiting(state)[0]
        move = choose_move(RULESET, bots[seat], state, seat, rng)
        if flights is not None and seat == racer and isinstance(move, Move):
            flights.append(move)
        state = RULESET.fold(state, RULESET.decide(state, seat, move, Rng(f"bots-{seed}".encode(), f"v{decisions}")))
        decisions += 1
    return RULESET.outcome(state).places[racer] == 1


def racer_wins(seed: int) -> bool:
    return race(seed)


def test_the_racer_flies_its_turns_in_whole_five_degree_steps() -> None:
    """So that every flight it makes can be named in whole steps, and has an action in the
    learning environments (issue 33: every move a server bot makes has an action)."""
    flights: list[Move] = []
    race(1, flights)
    assert len(flights) >= 5
    off = [
        m for m in flights for turn in (m.turn_in, m.turn_out) if abs(turn / TURN_STEP - round(turn / TURN_STEP)) > 1e-6
    ]
    assert not off, off[:3]


def test_the_racer_beats_three_random_bots() -> None:
    """Issue: over 100 races racer against three random bots wins at least 80% (bench); here a sample."""
    assert sum(racer_wins(seed) for seed in range(SAMPLE)) >= THRESHOLD


def test_the_racer_flies_a_clean_line_down_a_straight() -> None:
    """It maximises progress without touching a border."""
    state = moving(dragon(clear(new_race()), 0, pose=pose(new_race(), 50.0)), 0, 300)
    move = RULESET.bot("racer").choose(state, 0, random.Random(1))
    assert isinstance(move, Move)
    seen = RULESET.preview(state, 0, move)
    assert seen["crash"] is None and seen["gain"] > 140


def test_the_racer_brakes_before_a_tight_bend() -> None:
    """From full speed just before the ring's first tight bend, it does not keep 800."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 1380.0), speed=800)
    move = RULESET.bot("racer").choose(state, 0, random.Random(1))
    assert isinstance(move, SetSpeed) and move.speed < 800


def test_the_racer_lays_a_lasso_against_a_dragon_just_ahead_and_aims_it() -> None:
    """It uses its cards: a lasso when a dragon is within reach ahead, aimed at it after the move."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 100.0), hand=(Magic.LASSO,), speed=300)
    state = dragon(state, 1, pose=pose(state, 380.0, 50.0), speed=300)
    move = RULESET.bot("racer").choose(state, 0, random.Random(1))
    assert move == SetSpeed(move.speed, Magic.LASSO)
    cast = replace(moving(state, 0, 300, laid=Magic.LASSO), step=Step.CAST)
    cast = dragon(cast, 1, pose=pose(state, 330.0, 50.0))
    assert RULESET.bot("racer").choose(cast, 0, random.Random(1)) == Aim(1)


def _lasso_race(ahead_at: float, hand: tuple[Magic, ...]) -> RaceState:
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, 100.0), hand=hand, speed=300)
    return dragon(state, 1, pose=pose(state, ahead_at, 50.0), speed=300)


def test_level_4_holds_its_lasso_until_the_dragon_ahead_is_far_enough_to_pull_back() -> None:
    """``racer`` lays its lasso whenever the dragon ahead may be within its reach; Level 4's prior
    waits for a gap of ``LASSO_PATIENCE``, and meanwhile lays what ``racer`` would without it."""
    racer, patient = RULESET.bot("racer"), PatientRacer(RULESET)
    near = _lasso_race(300.0, (Magic.LASSO, Magic.FIREBALL_800))
    laid = racer.choose(near, 0, random.Random(1))
    assert isinstance(laid, SetSpeed) and laid.card is Magic.LASSO
    assert 0 < gaps(near, 0, laid.speed)[1] < LASSO_PATIENCE
    assert patient.choose(near, 0, random.Random(1)) == SetSpeed(laid.speed, Magic.FIREBALL_800)
    far = _lasso_race(400.0, (Magic.LASSO, Magic.FIREBALL_800))
    laid = patient.choose(far, 0, random.Random(1))
    assert isinstance(laid, SetSpeed) and laid.card is Magic.LASSO
    assert gaps(far, 0, laid.speed)[1] >= LASSO_PATIENCE
