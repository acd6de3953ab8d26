"""One suite every game passes: random games through the plug-in contract.

For every registered game, variant and seat count, hypothesis drives random
games and checks, at every decision, what the platform relies on:

* each awaited seat has legal moves, and every listed move is accepted as is;
* each move and event survives its JSON wire form unchanged;
* every event cites a rule the game declares;
* a seat's view and legal moves do not change when everything hidden from it is
  resampled (``observe``), so views cannot leak what the seat may not know;
* replaying the events from the start rebuilds the same state, and the state
  survives its JSON form (snapshots) with the same hash;
* the game ends within ``max_decisions`` with a ranking of every seat;
* a seat that leaves ranks below the seats that stayed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel import Codec, Rng, Viewer, all_games, choose_move, decode, encode, state_hash
from tests.support.rulebooks import find_rules_dir
from tests.support.runs import count, thorough
from tests.support.toygame import DICE_RACE

GAMES = [DICE_RACE, *all_games()]
CASES = [
    pytest.param(g, v.name, n, id=f"{g.slug}-{v.name}-{n}p")
    for g in GAMES
    for v in g.variants
    for n in sorted({v.min_seats, v.max_seats})
]
SEED = b"conformance-seed"
LEGAL_SAMPLE = count(4, 12)
"""Listed moves decided at each decision (as is, and through their wire form) besides the one played."""


def _check_event(ruleset: Any, event: Any) -> None:
    assert event.rule() in ruleset.rules, f"{event.TYPE} cites a rule the game does not list"
    again = ruleset.load_event(event.TYPE, json.loads(json.dumps(event.data())))
    assert again == event, f"{event.TYPE} does not survive its JSON form"


def _check_views(ruleset: Any, state: Any, seats: int, rng: random.Random) -> None:
    for viewer in [Viewer.spectator(), Viewer.everyone(), *(Viewer.of(s) for s in range(seats))]:
        json.dumps(ruleset.view(state, viewer))
    for seat in range(seats):
        observed = ruleset.observe(state, seat, rng)
        assert ruleset.view(observed, Viewer.of(seat)) == ruleset.view(state, Viewer.of(seat)), (
            f"seat {seat}'s view depends on something hidden from it"
        )
        assert list(ruleset.legal_moves(observed, seat)) == list(ruleset.legal_moves(state, seat))


def _check_state_round_trip(ruleset: Any, state: Any) -> None:
    again = decode(ruleset.state_type, json.loads(json.dumps(encode(state))))
    assert again == state
    assert state_hash(again) == state_hash(state)


def play(ruleset: Any, variant: str, seats: int, seed: int, leave_at: int | None) -> dict[str, Any]:
    """Plays one random game, checking the contract at each decision."""
    rng = random.Random(seed)
    config = ruleset.configure(variant, None, seats)
    initial = ruleset.initial(config)
    state, history = ruleset.new_game(config, Rng(SEED + bytes([seed % 256]), "setup"))
    left: list[int] = []
    for decision in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        if decision % 7 == 0:
            _check_views(ruleset, state, seats, rng)
            _check_state_round_trip(ruleset, state)
        awaited = ruleset.awaiting(state)
        assert awaited, "a running game awaits nobody"
        for seat in range(seats):
            if seat not in awaited:
                assert not ruleset.legal_moves(state, seat), f"seat {seat} has moves out of turn"
        seat = rng.choice(awaited)
        chance = Rng(SEED, f"v{decision}")
        if leave_at is not None and decision == leave_at:
            seat = rng.choice([s for s in range(seats) if s not in left])
            events = ruleset.leave(state, seat, chance)
            left.append(seat)
        else:
            moves = list(ruleset.legal_moves(state, seat))
            assert moves, f"awaited seat {seat} has no legal move"
            for m in rng.sample(moves, min(LEGAL_SAMPLE, len(moves))):
                assert ruleset.parse_move(json.loads(json.dumps(Codec.dump(m)))) == m
                ruleset.decide(state, seat, m, Rng(SEED, f"v{decision}"))
            events = ruleset.decide(state, seat, rng.choice(moves), chance)
        assert events, "a decision produced no event"
        for e in events:
            _check_event(ruleset, e)
            state = ruleset.evolve(state, e)
        history.extend(events)
    else:
        pytest.fail(f"no end after {ruleset.max_decisions} decisions")
    outcome = ruleset.outcome(state)
    assert outcome is not None and len(outcome.places) == seats
    assert sorted(outcome.places)[0] == 1
    for seat in left:
        assert all(outcome.places[seat] > outcome.places[s] for s in range(seats) if s not in left)
    assert ruleset.fold(initial, history) == state, "replaying the events gives another state"
    _check_views(ruleset, state, seats, rng)
    return {"events": len(history), "outcome": outcome}


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
@settings(max_examples=count(2, 6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_random_games_keep_the_contract(ruleset: Any, variant: str, seats: int, seed: int) -> None:
    play(ruleset, variant, seats, seed, leave_at=None)


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
@settings(max_examples=count(1, 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), leave_at=st.integers(0, 30))
def test_a_seat_that_leaves_ranks_below_those_who_stay(
    ruleset: Any, variant: str, seats: int, seed: int, leave_at: int
) -> None:
    play(ruleset, variant, seats, seed, leave_at=leave_at)


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_every_event_type_cites_a_declared_rule(ruleset: Any) -> None:
    for cls in ruleset.events.by_type.values():
        assert getattr(cls, "RULE", None) in ruleset.rules, f"{cls.TYPE} has no declared RULE"


@pytest.mark.parametrize("ruleset", [g for g in GAMES if g is not DICE_RACE], ids=lambda g: g.slug)
def test_every_cited_passage_is_found_verbatim_in_its_rulebook(ruleset: Any) -> None:
    rules_dir = find_rules_dir()
    if rules_dir is None:
        pytest.skip("the rulebooks (shared/rules) are not on this machine; set DRAGONHALL_RULES_DIR")
    for rule in ruleset.rules:
        if rule.book == "platform":
            continue
        text = " ".join((rules_dir / rule.book).read_text(encoding="utf-8").split())
        assert " ".join(rule.section.split()) in text, f"{rule.id}: {rule.section!r} is not in {rule.book}"


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_the_game_has_bots_and_a_default(ruleset: Any) -> None:
    assert "random" in ruleset.bots
    assert ruleset.default_bot in ruleset.bots


def _bot_game(ruleset: Any, seed: int) -> str:
    """A whole game between the game's strongest bots; returns the hash of its final state."""
    rng = random.Random(seed)
    variant = ruleset.variants[0]
    state, _ = ruleset.new_game(ruleset.configure(variant.name, None, variant.min_seats), Rng(SEED, "setup"))
    bot = ruleset.bot(ruleset.default_bot)
    for decision in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        seat = ruleset.awaiting(state)[0]
        move = choose_move(ruleset, bot, state, seat, rng, 0.05)
        state = ruleset.fold(state, ruleset.decide(state, seat, move, Rng(SEED, f"v{decision}")))
    return state_hash(state)


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_games_can_be_played_on_several_threads_at_once(ruleset: Any) -> None:
    """The server runs requests and bots on several threads: shared caches must not corrupt
    (or crash) a game, and threads must not change what a game does."""
    import concurrent.futures

    seeds = [1, 2, 3, 4] if thorough() else [1, 2]  # a Drachenreiter game of bots takes seconds
    alone = [_bot_game(ruleset, s) for s in seeds[:2]]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: _bot_game(ruleset, s), seeds * 2))
    n = len(seeds)
    assert together[:2] == alone and together[n : n + 2] == alone
