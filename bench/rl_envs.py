"""Steps per second of the learning environments, next to their engines' decisions per second.

For each game (its first variant, two players), in one run and one process:

* **engine**: random self-play as ``bench/<game>_selfplay.py`` plays it: list the legal
  moves, ``decide`` one, ``evolve`` the state by its events;
* **PettingZoo**: the AEC loop a learner runs: ``env.last()`` (the observation vector and the
  action mask), a uniform legal action from the mask, ``env.step``;
* **OpenSpiel**: the Python game through ``pyspiel``: ``legal_actions``, ``apply_action``,
  chance outcomes sampled as OpenSpiel samples them, and the current player's observation
  tensor (as a learner reads it).

and OpenSpiel's own ``tic_tac_toe`` and ``kuhn_poker`` (C++) and ``python_tic_tac_toe`` and
``python_kuhn_poker`` through the same OpenSpiel loop, as yardsticks. Rates are per CPU second
of this process (a shared machine moves wall-clock figures). The engine and the environment
are measured in turn over ``--rounds`` rounds (which goes first alternates); the ratio printed is
the median of the rounds' ratios, beside the lowest and highest. Target: each PettingZoo
environment at least half its engine's rate.

Usage: ``.venv/bin/python bench/rl_envs.py [--seconds 3] [--rounds 6] [--games tarasque,mekong]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.games import kuhn_poker, tic_tac_toe  # registers python_kuhn_poker and python_tic_tac_toe

import rl
import rl.openspiel_game  # registers the games
from domain.catalog import GAMES
from domain.kernel import Rng, Ruleset, Viewer
from rl import hooks
from rl.features import featurize
from rl.openspiel_game import game_name
from rl.pettingzoo_env import DragonhallEnv
from rl.specs import codec_for

PLAYERS = 2


def timed(seconds: float, one: Callable[[int], int], first_seed: int = 0) -> tuple[int, float]:
    """Runs ``one(seed)`` (a game; returns its steps) until ``seconds`` of CPU have passed."""
    steps, seed = 0, first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += one(seed)
        seed += 1
    return steps, time.process_time() - start


def engine_game(ruleset: Ruleset[Any]) -> Callable[[int], int]:
    def one(seed: int) -> int:
        chooser = random.Random(seed)
        state, _ = ruleset.new_game(ruleset.configure(None, None, PLAYERS), Rng(seed.to_bytes(8, "big"), "setup"))
        decisions = 0
        while True:
            awaited = ruleset.awaiting(state)
            if not awaited:
                return decisions
            moves = ruleset.legal_moves(state, awaited[0])
            move = moves[chooser.randrange(len(moves))]
            for event in ruleset.decide(state, awaited[0], move, Rng(b"bench", f"v{decisions}")):
                state = ruleset.evolve(state, event)
            decisions += 1

    return one


def pettingzoo_game(ruleset: Ruleset[Any]) -> Callable[[int], int]:
    env = DragonhallEnv(ruleset, players=PLAYERS)

    def one(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps = 0
        for agent in env.agent_iter():
            _observation, _, terminated, truncated, _ = env.last()  # computed, as a learner reads it
            if terminated or truncated:
                env.step(None)
                continue
            with policy:
                legal = env.legal_actions(agent)
                action = legal[rng.integers(len(legal))]
            env.step(action)
            steps += 1
        return steps

    return one


class Excluded:
    """A block whose CPU time is the policy's, not the environment's: subtracted from the rate.

    A learner picks its action from the mask; over the million actions of Mekong a
    ``flatnonzero`` alone takes a millisecond, which says nothing of the environment. The
    random policy here reads the env's own list of legal actions (``legal_actions``) instead,
    and its time is taken off the measurement all the same."""

    def __init__(self) -> None:
        self.spent = 0.0

    def __enter__(self) -> None:
        self._start = time.process_time()

    def __exit__(self, *exc: object) -> None:
        self.spent += time.process_time() - self._start


policy = Excluded()


def openspiel_game(game: pyspiel.Game) -> Callable[[int], int]:
    def one(seed: int) -> int:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return one


def interleaved(ruleset: Ruleset[Any], seconds: float, rounds: int) -> tuple[tuple[float, float], list[float]]:
    """The engine's and the environment's rates over ``rounds`` rounds of ``seconds / rounds`` each,
    the two measured in turn (which goes first alternates), and the ratio of each round: a shared
    machine's speed drifts over seconds, and a ratio taken within one round sees less of it."""
    engine, env = engine_game(ruleset), pettingzoo_game(ruleset)
    totals = [[0, 0.0], [0, 0.0]]
    ratios = []
    for r in range(rounds):
        rates = [0.0, 0.0]
        for which in (0, 1) if r % 2 == 0 else (1, 0):
            policy.spent = 0.0
            n, t = timed(seconds / rounds, (engine, env)[which], first_seed=r * 1000)
            t -= policy.spent if which == 1 else 0.0
            totals[which][0] += n
            totals[which][1] += t
            rates[which] = n / t
        ratios.append(rates[1] / rates[0])
    return (totals[0][0] / totals[0][1], totals[1][0] / totals[1][1]), ratios


def breakdown(ruleset: Ruleset[Any], seconds: float) -> list[float]:
    """CPU microseconds per position of the parts of an observation, over random games'
    positions: the generic way (the engine's ``view`` of the seat, ``featurize`` of it, the action
    mask as ``codec.table`` of the legal listing) and the way the environments take (the game's
    encoder and mask hook where it has them, ``rl.hooks``). The hooks' caches are warm here: the
    positions are measured over and over, so these are the figures of a hit."""
    codec = codec_for(ruleset)
    positions = []
    for seed in range(3):
        state, _ = ruleset.new_game(ruleset.configure(None, None, PLAYERS), Rng(b"breakdown%d" % seed, "setup"))
        chooser = random.Random(seed)
        for n in range(ruleset.max_decisions):
            awaited = ruleset.awaiting(state)
            if not awaited:
                break
            positions.append((state, awaited[0]))
            moves = ruleset.legal_moves(state, awaited[0])
            for e in ruleset.decide(state, awaited[0], moves[chooser.randrange(len(moves))], Rng(b"b", f"v{n}")):
                state = ruleset.evolve(state, e)
    positions = positions[:: max(1, len(positions) // 200)]
    views = {(id(st), seat): ruleset.view(st, Viewer.of(seat)) for st, seat in positions}
    out = []
    for part in (
        lambda st, seat: ruleset.view(st, Viewer.of(seat)),
        lambda st, seat: featurize(views[(id(st), seat)], seat),
        lambda st, seat: codec.table(ruleset.legal_moves(st, seat)),
        lambda st, seat: hooks.observation(ruleset, st, seat),
        lambda st, seat: hooks.legal(ruleset, st, seat, lambda: ruleset.legal_moves(st, seat)),
    ):
        start, rounds = time.process_time(), 0
        while time.process_time() - start < seconds / 6 or not rounds:
            for st, seat in positions:
                part(st, seat)
            rounds += 1
        out.append((time.process_time() - start) / (rounds * len(positions)) * 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--rounds", type=int, default=6, help="rounds the engine and environment alternate in")
    parser.add_argument("--games", default=",".join(g.slug for g in GAMES))
    args = parser.parse_args()
    slugs = args.games.split(",")
    parts: dict[str, tuple[float, ...]] = {}
    print(f"rl environments, random play, {PLAYERS} players, first variant; rates per CPU second")
    columns = f"{'engine dec/s':>13} {'PettingZoo steps/s':>19} {'ratio':>6} {'rounds':>10} {'OpenSpiel steps/s':>18}"
    print(f"{'game':16} {columns}")
    for ruleset in (g for g in GAMES if g.slug in slugs):
        (e, z), ratios = interleaved(ruleset, args.seconds, args.rounds)
        spiel_game = pyspiel.load_game(game_name(ruleset.slug), {"players": PLAYERS})
        n, t = timed(args.seconds, openspiel_game(spiel_game))
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"{ruleset.slug:16} {e:13,.0f} {z:19,.0f} {statistics.median(ratios):6.2f} {spread:>10} {n / t:18,.0f}")
        parts[ruleset.slug] = (1e6 / e, *breakdown(ruleset, args.seconds))
    for name in ("tic_tac_toe", "kuhn_poker", "python_tic_tac_toe", "python_kuhn_poker"):
        n, t = timed(args.seconds, openspiel_game(pyspiel.load_game(name)))
        print(f"{'OpenSpiel ' + name:36} {'':19} {n / t:18,.0f}")
    print("\nwhere a step's time goes, CPU µs per position (a listing mask includes the legal listing):")
    print(f"{'':16} {'':16} {'generic':^28} {'hooks (rl.hooks)':^20}")
    print(
        f"{'game':16} {'engine decision':>16} {'view':>8} {'featurize':>10} {'mask':>8} {'observation':>12} {'mask':>7}"
    )
    for slug, (decision, view, vector, mask, encoded, hooked) in parts.items():
        print(f"{slug:16} {decision:16,.0f} {view:8,.0f} {vector:10,.0f} {mask:8,.0f} {encoded:12,.0f} {hooked:7,.0f}")
    assert rl and kuhn_poker and tic_tac_toe  # imported for their registrations


if __name__ == "__main__":
    main()
