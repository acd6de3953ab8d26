"""Drachenreiter's bot ladder, from the weakest: ``random``, ``beginner``, ``racer``, ``search``.

``beginner`` flies as ``racer`` does, but always sets the fastest speed it may (it never
brakes before a bend, the classic first race), and one decision in five it acts without
looking (a random move).

``search`` is the kernel's information-set MCTS (``domain.kernel.bots_search``) with
``racer`` as its prior and the sampled random moves as its rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.drachenreiter.bots import RacerBot, SampledRandomBot
from domain.drachenreiter.commands import SetSpeed
from domain.drachenreiter.state import RaceState
from domain.kernel import BeginnerBot, BotLevel, Command, Ruleset, SearchBot, SearchSettings

SLIP = 0.2
"""Designed: how often the beginner acts without looking."""


def flat_out(state: RaceState, seat: int, moves: Sequence[Command], rng: random.Random) -> Command | None:
    """The beginner's habit: the fastest speed it may set, without a card."""
    speeds = [m for m in moves if isinstance(m, SetSpeed) and m.card is None]
    return max(speeds, key=lambda m: m.speed) if speeds else None


def beginner(rules: Ruleset[RaceState]) -> BeginnerBot[RaceState]:
    return BeginnerBot(rules, RacerBot(rules), SampledRandomBot(rules), SLIP, flat_out)


def search(rules: Ruleset[RaceState], settings: SearchSettings | None = None) -> SearchBot[RaceState]:
    return SearchBot(rules, None, RacerBot(rules), settings or SearchSettings(width=8))


LADDER = (
    BotLevel("random", "flies any legal move at random"),
    BotLevel("beginner", "flies flat out, never braking before a bend"),
    BotLevel("racer", "looks two moves ahead, braking before the bends"),
    BotLevel("search", "flies as Level 3 unless races it imagines from what it can see show a better move"),
)
