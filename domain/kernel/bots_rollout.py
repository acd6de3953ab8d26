"""The rollout bot: its base player's move, checked against the next best in imagined games.

``RolloutBot`` is the rollout algorithm (Tesauro and Galperin, "On-line Policy Improvement
using Monte-Carlo Search", NIPS 1996; Bertsekas, *Rollout, Policy Iteration, and Distributed
Reinforcement Learning*, 2020) over the seat's information sets. Its base player (the game's
Level 3 bot) names its choice and, where it can rank its moves, the few it would play next;
then, round after round until the budget is spent:

1. draw a *determinisation* from the seat's observation with ``ruleset.observe`` (never the
   true state), a seed for the dice and cards, and one for the players' own randomness;
2. play each candidate in it, then the game out with every seat played by the base player,
   each candidate on the **same** determinisation and seeds (common random numbers: the
   candidates' results then differ only where the move made a difference);
3. note each candidate's result, the share of the other seats the searching seat finished
   ahead of.

It plays the candidate whose results beat the base player's choice by more than ``margin``
standard errors of the paired differences, after at least ``least_rounds`` rounds; else the
base player's choice. Playing the base player's games out is what makes the rollout algorithm
improve on its base player (a move is judged by how the game goes on *as the base player
would play it*), where random rollouts judge a move by how two random players would finish
from it, which says little of a game between good ones; the pairing is what lets a few
dozen rounds tell moves apart that a few hundred unpaired ones could not.

**Budget.** With a ``budget`` (seconds) it searches for ``share`` of it, never more than
``max_seconds``, and drops a round the deadline cuts short. Without one (tests) it plays
``quick_rounds`` rounds of at most ``quick_horizon`` decisions, so a seed fixes its choice;
that is too few to overturn the base player's move.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from domain.kernel.bots_search import play_out
from domain.kernel.records import Command
from domain.kernel.rng import Rng
from domain.kernel.ruleset import Bot, Ruleset

S = TypeVar("S")

Ranking = Callable[[S, int, random.Random], Sequence[Command]]
"""The base player's moves worth comparing, from the best down: ``(state, seat, rng) -> moves``
(none where every move is as good as another: the base player's choice is then played at once)."""


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """The rollout bot's knobs; the defaults suit a 2 s budget on one core."""

    candidates: int = 4
    """How many moves are tried: the base player's choice and the next best."""
    max_seconds: float = 2.0
    """The longest a decision may search, whatever the budget."""
    share: float = 0.8
    """The part of the budget spent searching (the rest is margin for the caller)."""
    margin: float = 1.0
    """How many standard errors of the paired differences another move must beat the base
    player's choice by (measured in Seven Dragons: with none, it left the base player's move at
    half its decisions and did no better; see docs/bots.md)."""
    least_rounds: int = 8
    """The fewest rounds before another move may be played."""
    quick_rounds: int = 2
    """The rounds without a budget (deterministic for a seed): a smoke test, not a player."""
    quick_horizon: int = 30
    """The most decisions of a rollout without a budget."""
    horizon: int = 2_000
    """The most decisions of a rollout: past it the game counts as a draw."""


class RolloutBot(Generic[S]):
    """The rollout algorithm over the seat's information sets (see the module's documentation)."""

    def __init__(
        self,
        ruleset: Ruleset[S],
        base: Bot[S],
        ranking: Ranking[S] | None = None,
        settings: RolloutSettings | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.base = base
        self.ranking = ranking
        self.settings = settings or RolloutSettings()

    def choose(self, state: S, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = self.ruleset.legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        if len(moves) == 1:
            return moves[0]
        candidates = self._candidates(state, seat, moves, rng)
        if len(candidates) == 1:
            return candidates[0]
        deadline, rounds, horizon = self._limits(budget)
        diffs: list[list[float]] = [[] for _ in candidates]
        while len(diffs[0]) < rounds and (deadline is None or time.perf_counter() < deadline):
            results = self._round(state, seat, candidates, rng, horizon, deadline)
            if results is None:
                break
            for i, r in enumerate(results):
                diffs[i].append(r - results[0])
        return candidates[self._verdict(diffs)]

    def _verdict(self, diffs: list[list[float]]) -> int:
        """The candidate whose paired gain over the base player's choice is largest and beyond
        ``margin`` standard errors; else 0, the base player's choice."""
        n = len(diffs[0])
        if n < max(self.settings.least_rounds, 2):
            return 0
        best, best_gain = 0, 0.0
        for i in range(1, len(diffs)):
            mean = statistics.fmean(diffs[i])
            error = max(statistics.stdev(diffs[i], mean), 1e-9) / math.sqrt(n)
            if mean > self.settings.margin * error and mean > best_gain:
                best, best_gain = i, mean
        return best

    def _round(
        self,
        observed: S,
        seat: int,
        candidates: Sequence[Command],
        rng: random.Random,
        horizon: int,
        deadline: float | None,
    ) -> list[float] | None:
        """Each candidate's result in one determinisation, all on the same seeds; None when
        the deadline cut the round short."""
        ruleset = self.ruleset
        world = ruleset.observe(observed, seat, rng)
        chance_seed = rng.getrandbits(64).to_bytes(8, "big")
        players_seed = rng.getrandbits(64)
        results = []
        for move in candidates:
            chance = Rng(chance_seed, "rollout")
            state = ruleset.fold(world, ruleset.decide(world, seat, move, chance))
            score = play_out(ruleset, self.base.choose, state, chance, random.Random(players_seed), horizon, deadline)
            if score is None:
                return None
            results.append(score[seat])
        return results

    def _candidates(self, state: S, seat: int, moves: Sequence[Command], rng: random.Random) -> list[Command]:
        """The base player's choice first, then its next best (or, without a ranking, a sample)."""
        first = self.base.choose(state, seat, rng)
        want = self.settings.candidates
        if self.ranking is not None:
            rest = [m for m in self.ranking(state, seat, rng) if m != first]
        else:
            others = [m for m in moves if m != first]
            rest = rng.sample(others, min(len(others), want - 1))
        return [first, *rest[: want - 1]]

    def _limits(self, budget: float | None) -> tuple[float | None, int, int]:
        """The deadline, the most rounds and the longest rollout."""
        s = self.settings
        if budget is None:
            return None, s.quick_rounds, s.quick_horizon
        return time.perf_counter() + min(budget * s.share, s.max_seconds), 1_000_000, s.horizon
