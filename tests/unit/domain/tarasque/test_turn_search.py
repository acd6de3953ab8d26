"""The rolling searched whole (``domain.tarasque.turn_search``): its chance model is the rules' own,
its values are exact expectations, and the bot built on it plays only legal moves."""

from __future__ import annotations

import itertools
import random
from math import comb, isclose

import pytest

from domain.kernel import Command
from domain.tarasque.commands import Roll, SetAside, Stop
from domain.tarasque.legal import legal_moves
from domain.tarasque.state import Phase, TarasqueState
from domain.tarasque.strategy import EGG_VALUE
from domain.tarasque.turn_search import Dice, TurnSearch, outcomes, rolling
from tests.unit.domain.tarasque.helpers import FACES, ScriptedRng, aside, make, play


@pytest.mark.parametrize(("dice", "valid"), [(d, v) for d in range(1, 7) for v in range(1, 7)])
def test_a_rolls_outcomes_are_every_count_of_the_valid_symbols_and_their_chances_sum_to_one(
    dice: int, valid: int
) -> None:
    found = outcomes(dice, valid, 6)
    assert len(found) == comb(dice + valid, valid)
    assert isclose(sum(p for _, p in found), 1.0)
    everything = outcomes(dice, 6, 6)  # every face valid: a multiset of faces is one outcome
    assert isclose(dict(everything)[(dice, *(0,) * 5)], (1 / 6) ** dice)


class Fixed(TurnSearch):
    """The search over made-up harvest values, to compare with a brute force over raw faces."""

    def __init__(self, symbols: int, seed: int) -> None:
        self.symbols = tuple(FACES[:symbols])
        self.faces = len(FACES)
        rng = random.Random(seed)
        self.table = {p: rng.uniform(0, 10) for p in itertools.product(range(8), repeat=symbols)}
        self._harvests, self._rolls, self._choices = {}, {}, {}

    def harvest(self, pools: Dice) -> float:
        return self.table[pools]


def _brute_roll(search: Fixed, pools: Dice, dice: int, egg: bool) -> float:
    """Every sequence of faces, each as likely; after each, every subset of the valid dice, with
    the egg on at most one of its symbols, then rolling on or stopping."""
    total = 0.0
    for faces in itertools.product(range(6), repeat=dice):
        shown = tuple(faces.count(i) for i in range(len(search.symbols)))
        total += _brute_choose(search, pools, dice, egg, shown) if any(shown) else search.harvest(pools)
    return total / 6**dice


def _brute_choose(search: Fixed, pools: Dice, dice: int, egg: bool, shown: Dice) -> float:
    best = float("-inf")
    for take in itertools.product(*(range(n + 1) for n in shown)):
        if not any(take):
            continue
        for egg_on in [None, *(i for i, t in enumerate(take) if t and egg)]:
            grown = tuple(p + t + (i == egg_on) for i, (p, t) in enumerate(zip(pools, take, strict=True)))
            left = dice - sum(take)
            value = search.harvest(grown)
            if left:
                value = max(value, _brute_roll(search, grown, left, egg and egg_on is None))
            best = max(best, value - (EGG_VALUE if egg_on is not None else 0.0))
    return best


@pytest.mark.parametrize(("symbols", "dice", "egg", "seed"), [(1, 3, True, 1), (2, 3, False, 2), (3, 3, True, 3)])
def test_the_value_of_rolling_is_the_brute_force_expectation_over_raw_faces(
    symbols: int, dice: int, egg: bool, seed: int
) -> None:
    search = Fixed(symbols, seed)
    pools = (1,) + (0,) * (symbols - 1)
    assert isclose(search.rolling(pools, dice, egg), _brute_roll(search, pools, dice, egg), rel_tol=1e-12)


def _rolling_state() -> TarasqueState:
    """Seat 0 has set aside two red dice and holds three, with an egg: red, blue and green are valid."""
    return make(
        seats=2,
        middle=("red-desert", "blue-sea", "green-forest"),
        phase=Phase.CONTINUE,
        dice=3,
        showing=("red", "black", "black"),
        chosen=("red",),
        aside=aside(red=2),
        eggs=(1, 1),
    )


def _best_from(state: TarasqueState) -> float:
    """The search's value of a state the engine reached: the best legal move's, or, once the
    rolling has ended, the harvest of the dice set aside."""
    search = TurnSearch(state, 0)
    if not rolling(state):
        return search.harvest(search.pools)
    return max(search.score(m) for m in legal_moves(state, 0))


def test_rolling_again_is_worth_the_average_over_the_engines_rolls_of_what_follows() -> None:
    """Each of the 216 rolls of three dice, made by the rules engine, then valued afresh: their
    average is the value the search gave the roll before it was made."""
    state = _rolling_state()
    expected = TurnSearch(state, 0).score(Roll())
    values = []
    for faces in itertools.product(FACES, repeat=3):
        _, after = play(state, 0, Roll(), ScriptedRng(faces))
        values.append(_best_from(after))
    assert isclose(sum(values) / len(values), expected, rel_tol=1e-9)


def test_setting_aside_and_stopping_are_valued_as_the_engine_plays_them() -> None:
    state = _rolling_state()
    search = TurnSearch(state, 0)
    assert search.score(Stop()) == search.harvest(search.pools)
    for move in legal_moves(state, 0):
        if isinstance(move, SetAside):
            _, after = play(state, 0, move)
            egg = EGG_VALUE if move.egg else 0.0
            assert isclose(search.score(move), _best_from(after) - egg, rel_tol=1e-9), move


def _rolling_decisions(games: int) -> list[tuple[TarasqueState, list[Command]]]:
    from domain.kernel import Rng
    from domain.tarasque.bots import GreedyBot
    from tests.unit.domain.tarasque.helpers import RULES

    found = []
    greedy = GreedyBot()
    for game in range(games):
        state, _ = RULES.new_game(RULES.configure(RULES.variants[game % 2].name, None, 2), Rng(b"ts%d" % game, "s"))
        for k in range(RULES.max_decisions):
            if RULES.is_over(state):
                break
            seat = RULES.awaiting(state)[0]
            if rolling(state):
                found.append((state, legal_moves(state, seat)))
            move = greedy.choose(state, seat, random.Random(k))
            state = RULES.fold(state, RULES.decide(state, seat, move, Rng(b"ts%d" % game, f"v{k}")))
    return found


def test_the_level_4_bot_plays_a_legal_move_at_every_rolling_decision_of_both_variants() -> None:
    from domain.tarasque.bots import SearchTarasqueBot

    bot = SearchTarasqueBot()
    decisions = _rolling_decisions(2)
    assert len(decisions) > 50
    for state, moves in decisions:
        assert bot.choose(state, state.turn.seat, random.Random(0)) in moves


def test_level_4_draws_nothing_the_same_position_gives_the_same_move() -> None:
    """Level 4 is never a noisier Level 3: its search is exact, so the dice it is handed (the
    decision's random draws) cannot change its move."""
    from domain.tarasque.bots import SearchTarasqueBot

    bot = SearchTarasqueBot()
    for state, _moves in _rolling_decisions(1)[:40]:
        seat = state.turn.seat
        assert bot.choose(state, seat, random.Random(1)) == bot.choose(state, seat, random.Random(2))
