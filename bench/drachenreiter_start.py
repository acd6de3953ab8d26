"""Chevaliers des dragons: how much of a two-seat race its start decides (issue 33).

Plays two bots head to head in two-seat races, as ``bench/ladder.py --versus`` does (same seeds,
same decision generators, A in seat 1 in the even races and seat 2 in the odd ones), and splits
the results by which dragon the start placed ahead (the start cards are dealt at random). It
prints each bot's wins from the front and from the back, and what the ladder's target asks of a
bot against ``racer``: a score of 0.76 (200 points on the Elo scale) needs, even with every race
from the front won, a win in 52% of the races from the back.

    .venv/bin/python bench/drachenreiter_start.py --bots racer racer --races 60
    .venv/bin/python bench/drachenreiter_start.py --bots search racer --races 40 --budget 2.0
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.drachenreiter import RULESET
from domain.drachenreiter.magic_events import DragonLassoed
from domain.kernel import Rng, choose_move
from workers.bot_turns import decision_rng

TARGET_SCORE = 1 / (1 + 10 ** (-200 / 400))
"""A score of 200 points on the Elo scale: about 0.76."""


def race(seed: int, n: int, bots: list[str], budget: float) -> tuple[int, int, int, bool]:
    """One race, A in seat ``n % 2``: the seat placed ahead at the start, the winner's seat, a
    hash of the moves played (bots that decide alike replay a race from alike deals), and whether
    the dragon from the back lassoed the other."""
    chance = f"{seed}:drachenreiter:{n}".encode()
    state, _ = RULESET.new_game(RULESET.configure(None, None, 2), Rng(chance, "setup"))
    seats = bots if n % 2 == 0 else bots[::-1]
    front = max(range(2), key=lambda s: state.dragons[s].pose.progress)
    played = []
    lassoed = False
    for k in range(RULESET.max_decisions):
        if RULESET.is_over(state):
            break
        seat = RULESET.awaiting(state)[0]
        command = choose_move(RULESET, RULESET.bot(seats[seat]), state, seat, decision_rng(chance, k, seat), budget)
        played.append(repr(command))
        events = RULESET.decide(state, seat, command, Rng(chance, f"v{k}"))
        lassoed |= any(isinstance(e, DragonLassoed) and e.seat != front for e in events)
        state = RULESET.fold(state, events)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    return front, outcome.places.index(min(outcome.places)), hash((n % 2, *played)), lassoed


@dataclass
class Split:
    """The races of A against B, split by which dragon the start placed ahead."""

    races: int = 0
    a_front: int = 0
    a_front_won: int = 0
    a_back_won: int = 0
    lasso_won: int = 0
    """Races won from the back in which the dragon from the back lassoed the leader."""
    lasso_lost: int = 0
    """Races lost from the back although its dragon lassoed the leader."""
    distinct: set[int] = field(default_factory=set)

    @property
    def a_back(self) -> int:
        return self.races - self.a_front

    @property
    def front_won(self) -> int:
        """Races won by the dragon placed ahead at the start, whichever bot flew it."""
        return self.a_front_won + self.a_back - self.a_back_won


def split(bots: list[str], races: int, seed: int, budget: float) -> Split:
    out = Split()
    for n in range(races):
        front, winner, moves, lassoed = race(seed, n, bots, budget)
        a_seat = n % 2
        out.races += 1
        out.a_front += front == a_seat
        out.a_front_won += front == a_seat == winner
        out.a_back_won += front != a_seat == winner
        out.lasso_won += lassoed and winner != front
        out.lasso_lost += lassoed and winner == front
        out.distinct.add(moves)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs=2, default=["racer", "racer"], metavar=("A", "B"))
    parser.add_argument("--races", type=int, default=60)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    got = split(args.bots, args.races, args.seed, args.budget)
    a, b = args.bots
    print(
        f"{a} (A) against {b} (B), {got.races} two-seat races ({len(got.distinct)} distinct), "
        f"seed {args.seed}, budget {args.budget} s"
    )
    print(f"the dragon placed ahead at the start won {got.front_won} of {got.races} ({got.front_won / got.races:.0%})")
    b_back, b_front = got.a_front - got.a_front_won, got.a_back - got.a_back_won
    print(f"  A from the front: won {got.a_front_won} of {got.a_front}; B from the back: won {b_back}")
    print(f"  A from the back: won {got.a_back_won} of {got.a_back}; B from the front: won {b_front}")
    print(
        f"races won from the back: {got.races - got.front_won}, {got.lasso_won} of them with a lasso on the leader; "
        f"races lost from the back after a lasso: {got.lasso_lost}"
    )
    need = 2 * TARGET_SCORE - 1
    print(f"a score of {TARGET_SCORE:.2f} (+200) needs at least {need:.0%} of the races from the back won")


if __name__ == "__main__":
    main()
