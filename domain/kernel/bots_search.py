"""The searching bot: Monte Carlo tree search over its seat's information sets.

``SearchBot`` is single-observer information-set MCTS (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012). It is handed, like
every bot, the seat's observation; each iteration draws a *determinisation* from it with
``ruleset.observe(state, seat, rng)`` (everything hidden from the seat drawn anew from what
the seat knows), so it never sees the true state, and no two iterations trust the same
guess about the hidden part. Then, in that determinisation:

1. **select**: from the root, while every candidate move of the seat to act has been tried,
   follow the one with the best UCB1 score, where a child's count of *availability* (the
   iterations in which its move was legal) stands for the parent's visits;
2. **expand**: try one untried candidate;
3. **roll out**: play to the end with the rollout policy (the game's random bot unless the
   game gives a better one);
4. **back up**: each node on the path scores the result for the seat that moved into it:
   the share of the other seats it finished ahead of (a tie counts half).

A tree node is a sequence of moves, as the searching seat would tell them apart. Where a
seat has more legal moves than ``width``, a node considers a sample of ``width`` of them
(the root: the prior bot's choice and a fixed sample; deeper: a fresh sample per visit,
which the availability counts account for). Simultaneous phases are searched in seat
order, except that the searching seat moves first at the root (the others then answer a
move they could not have seen: the search is cautious there). The root widens progressively
(the prior's choice and one other first, more as the iterations grow), so a short search does not
spread its few rollouts over many moves. It plays the root move visited most, unless the prior's
move scored about as well or either was tried too few times to tell (``least_visits``): a search
too short to decide plays its prior's move, so the search is never a noisier prior.

**Budget.** With a ``budget`` (seconds; the server passes ``DRAGONHALL_BOT_BUDGET``) it
searches for ``share`` of it, never more than ``max_seconds``, and at most ``iterations``
times. Without one (tests) it runs exactly ``quick_iterations`` short iterations, so that
a seed fixes its choice and a test stays fast; it is then barely more than its prior. Either
way it stops as soon as the iterations it may still run could not change its move (with a
deadline, counted at twice the pace of its iterations so far): a search that cannot give
another move the rollouts its rule asks plays its prior's move at once rather than at the end of
its budget, the same move sooner.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from domain.kernel.outcome import Outcome
from domain.kernel.records import Command
from domain.kernel.rng import Rng
from domain.kernel.ruleset import Bot, Ruleset

S = TypeVar("S")

MAX_SEATS = 16
"""More seats than any game has: the length of a cut-short rollout's rewards."""

Rollout = Callable[[Any, int, random.Random], Command]
"""A rollout policy: ``(state, seat, rng) -> command`` on a determinised state."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The search's knobs; the defaults suit a 2 s budget on one core."""

    iterations: int = 20_000
    """The most iterations with a budget."""
    quick_iterations: int = 4
    """The iterations without a budget (deterministic for a seed): a smoke test of the search,
    for tests and the conformance suite, not a strong player."""
    quick_horizon: int = 40
    """The most decisions of a rollout without a budget."""
    max_seconds: float = 2.0
    """The longest a decision may search, whatever the budget."""
    share: float = 0.8
    """The part of the budget spent searching (the rest is margin for the caller)."""
    width: int = 12
    """The most candidate moves a node considers."""
    exploration: float = 0.7
    """UCB1's exploration constant (rewards lie in [0, 1])."""
    margin: float = 1.5
    """How many standard errors better than the prior's move another must score to be played."""
    least_visits: int = 24
    """The fewest rollouts both the prior's move and another must have had before the other may be
    played instead: below it the search is too short to decide, and the prior's move stands (a
    few rollouts that happen to agree would otherwise overturn a good player on noise)."""
    widening: float = 1.0
    """Progressive widening at the root: after ``v`` iterations the search considers the first
    ``2 + widening * sqrt(v)`` candidates (the prior's choice first), so a short search spends its
    rollouts on few moves rather than one or two on each of many."""
    horizon: int = 2_000
    """The most decisions a rollout plays before it scores the position as a draw."""
    settle_early: bool = True
    """Stop searching as soon as the iterations left could not change the move (``_settled``)."""
    settle_after: int = 3
    """With a deadline, the iterations run before the time left is counted in iterations: enough
    for a fastest one and a mean (Drachenreiter, whose rollouts take 50 to 80 ms on a 2-core
    machine: a median decision of 0.65 s after eight and 0.25 s after three, Level 3's move at 30
    of 30 sampled decisions either way, ``bench/level4_moves.py --game drachenreiter``)."""


@dataclass(slots=True)
class _Node:
    seat: int
    """The seat whose move led here (-1 at the root)."""
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[Command, _Node] = field(default_factory=dict)


def _standing(node: _Node | None) -> tuple[int, float]:
    return (0, 0.0) if node is None else (node.visits, node.reward)


def rewards(outcome: Outcome | None) -> list[float]:
    """Each seat's share of the other seats it finished ahead of (a tie counts half); every
    seat gets 0.5 when there is no outcome (a rollout cut short)."""
    if outcome is None or len(outcome.places) < 2:
        return [0.5] * MAX_SEATS
    places = outcome.places
    out = []
    for i, mine in enumerate(places):
        beaten = sum(1.0 if mine < p else 0.5 if mine == p else 0.0 for j, p in enumerate(places) if j != i)
        out.append(beaten / (len(places) - 1))
    return out


def play_out(
    ruleset: Ruleset[S],
    policy: Rollout,
    state: S,
    chance: Rng,
    rng: random.Random,
    horizon: int,
    deadline: float | None,
) -> list[float] | None:
    """Each seat's reward once ``policy`` has played every seat to the end (or for ``horizon``
    decisions, then a draw); None when the deadline cut the game short."""
    for _ in range(horizon):
        if ruleset.is_over(state):
            break
        if deadline is not None and time.perf_counter() > deadline:
            return None
        actor = ruleset.awaiting(state)[0]
        state = ruleset.fold(state, ruleset.decide(state, actor, policy(state, actor, rng), chance))
    return rewards(ruleset.outcome(state))


class SearchBot(Generic[S]):
    """Information-set MCTS within a time budget (see the module's documentation)."""

    def __init__(
        self,
        ruleset: Ruleset[S],
        rollout: Rollout | None = None,
        prior: Bot[S] | None = None,
        settings: SearchSettings | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.settings = settings or SearchSettings()
        self.rollout = rollout or self._random_rollout
        self.prior = prior

    def choose(self, state: S, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = list(self.ruleset.legal_moves(state, seat))
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        if len(moves) == 1:
            return moves[0]
        deadline, limit, horizon = self._limits(budget)  # the prior's own time counts too
        root = _Node(-1)
        fixed = self._root_candidates(state, seat, moves, rng)
        done, began, fastest = 0, time.perf_counter(), math.inf
        while done < limit and (deadline is None or time.perf_counter() < deadline):
            start = time.perf_counter()
            self._iterate(root, state, seat, fixed, rng, horizon, deadline)
            done += 1
            fastest = min(fastest, time.perf_counter() - start)
            pace = max(fastest, (time.perf_counter() - began) / done / 2)
            if self._settled(root, fixed, self._left(limit - done, deadline, pace, done)):
                break
        return self._verdict(root, fixed)

    def _left(self, allowed: int, deadline: float | None, pace: float, done: int) -> float:
        """The most iterations the search may still run: ``allowed`` by its limit, and with a
        deadline no more than fit in the time left at ``pace`` seconds each (twice as fast as its
        iterations have gone on average, or its fastest one, if slower: the rollouts' lengths
        vary). Counted after ``settle_after`` iterations, so that a slow start does not end it."""
        if deadline is None:
            return allowed
        if done < self.settings.settle_after:
            return math.inf
        return min(allowed, max(deadline - time.perf_counter(), 0.0) / max(pace, 1e-9))

    def _settled(self, root: _Node, fixed: Sequence[Command], left: float) -> bool:
        """Whether no way the ``left`` iterations could go would change the verdict (each adds at
        most one visit to one root move). With a prior, another move is played only once both it
        and the prior's move have ``least_visits`` and it has at least the prior's: the fewest
        iterations that could bring that about must not fit in ``left``. Without one, no other move
        can catch up with the most visited. The search then stops: its move is decided, and the
        time left would only make people wait."""
        if not self.settings.settle_early:
            return False
        visits = {m: child.visits for m, child in root.children.items()}
        if self.prior is not None:
            held = visits.get(fixed[0], 0)
            bar = max(self.settings.least_visits, held)
            return all(bar - held + max(bar - visits.get(m, 0), 0) > left for m in fixed[1:])
        ranked = sorted((visits.get(m, 0) for m in fixed), reverse=True)
        return len(ranked) < 2 or ranked[1] + left < ranked[0]

    def _verdict(self, root: _Node, fixed: Sequence[Command]) -> Command:
        """The most visited root move; but with a prior, its move stands unless another one
        was tried at least ``least_visits`` times, as was the prior's, and scored better by
        more than ``margin`` standard errors (few rollouts are noisy, and the prior is a good
        player: a search too short to decide plays the prior's move)."""
        best = max(fixed, key=lambda m: _standing(root.children.get(m)))
        if self.prior is None or best == fixed[0]:
            return best
        mine, theirs = root.children.get(best), root.children.get(fixed[0])
        least = self.settings.least_visits
        if mine is None or theirs is None or min(mine.visits, theirs.visits) < least:
            return fixed[0]
        a, b = mine.reward / mine.visits, theirs.reward / theirs.visits
        p = min(max((mine.reward + theirs.reward) / (mine.visits + theirs.visits), 0.05), 0.95)
        error = math.sqrt(p * (1 - p) * (1 / mine.visits + 1 / theirs.visits))
        return best if a - b > self.settings.margin * error else fixed[0]

    # ------------------------------------------------------------ one iteration

    def _iterate(
        self,
        root: _Node,
        observed: S,
        seat: int,
        fixed: Sequence[Command],
        rng: random.Random,
        horizon: int,
        deadline: float | None,
    ) -> None:
        """One iteration; one that the deadline cuts short backs nothing up."""
        ruleset = self.ruleset
        state = ruleset.observe(observed, seat, rng)
        chance = Rng(rng.getrandbits(64).to_bytes(8, "big"), "search")
        node, path = root, [root]
        while not ruleset.is_over(state):
            actor = seat if node is root else ruleset.awaiting(state)[0]
            moves = self._widened(root, fixed) if node is root else self._candidates(state, actor, rng)
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = untried[0] if node is root else untried[rng.randrange(len(untried))]
                node.children[move] = child = _Node(actor, available=1)
                path.append(child)
                state = ruleset.fold(state, ruleset.decide(state, actor, move, chance))
                break
            move = max(moves, key=lambda m: self._ucb(node.children[m]))
            node = node.children[move]
            path.append(node)
            state = ruleset.fold(state, ruleset.decide(state, actor, move, chance))
        score = self._play_out(state, chance, rng, horizon, deadline)
        if score is None:
            return
        for n in path[1:]:
            n.visits += 1
            n.reward += score[n.seat]

    def _ucb(self, child: _Node) -> float:
        return child.reward / child.visits + self.settings.exploration * math.sqrt(
            math.log(max(child.available, 1)) / child.visits
        )

    def _play_out(
        self, state: S, chance: Rng, rng: random.Random, horizon: int, deadline: float | None
    ) -> list[float] | None:
        return play_out(self.ruleset, self.rollout, state, chance, rng, horizon, deadline)

    # ------------------------------------------------------------ candidates and limits

    def _root_candidates(self, state: S, seat: int, moves: list[Command], rng: random.Random) -> list[Command]:
        """All moves when they are few; else the prior's choice and a sample of the rest."""
        width = self.settings.width
        if len(moves) <= width:
            first = [self.prior.choose(state, seat, rng)] if self.prior is not None else []
            return first + [m for m in moves if m not in first]
        picked = [self.prior.choose(state, seat, rng)] if self.prior is not None else []
        rest = [m for m in moves if m not in picked]
        return picked + rng.sample(rest, width - len(picked))

    def _widened(self, root: _Node, fixed: Sequence[Command]) -> Sequence[Command]:
        """The root's candidates considered so far (progressive widening, ``widening``)."""
        done = sum(c.visits for c in root.children.values())
        return fixed[: 2 + int(self.settings.widening * math.sqrt(done))]

    def _candidates(self, state: S, actor: int, rng: random.Random) -> Sequence[Command]:
        moves = self.ruleset.legal_moves(state, actor)
        if len(moves) <= self.settings.width:
            return moves
        return rng.sample(list(moves), self.settings.width)

    def _limits(self, budget: float | None) -> tuple[float | None, int, int]:
        """The deadline, the most iterations and the longest rollout."""
        s = self.settings
        if budget is None:
            return None, s.quick_iterations, s.quick_horizon
        return time.perf_counter() + min(budget * s.share, s.max_seconds), s.iterations, s.horizon

    def _random_rollout(self, state: S, seat: int, rng: random.Random) -> Command:
        moves = self.ruleset.legal_moves(state, seat)
        return moves[rng.randrange(len(moves))]
