"""Drachenreiter's bot ladder, from the weakest: ``random``, ``beginner``, ``racer``, ``search``.

``beginner`` flies as ``racer`` does, but always sets the fastest speed it may (it never
brakes before a bend, the classic first race), and one decision in five it acts without
looking (a random move).

``search`` is the kernel's information-set MCTS (``domain.kernel.bots_search``) with the sampled
random moves as its rollouts and, as its prior, ``racer`` with a patient lasso (``PatientRacer``).
Two ``racer`` dragons fly alike, so the dragon the start places ahead wins nearly nine races in
ten, and the one from the back gets past mostly with a lasso (``bench/drachenreiter_start.py``): ``racer``
lays its lasso as soon as the dragon ahead may be within its reach; held until the gap is
``LASSO_PATIENCE``, it won from the back about twice as often (docs/bots.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from domain.drachenreiter.bots import RacerBot, SampledRandomBot, gaps
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import SetSpeed
from domain.drachenreiter.state import Dragon, RaceState
from domain.drachenreiter.survey import Scene
from domain.kernel import BeginnerBot, BotLevel, Command, Ruleset, SearchBot, SearchSettings

SLIP = 0.2
"""Designed: how often the beginner acts without looking."""
LASSO_PATIENCE = 160.0
"""Measured: the least gap to a dragon ahead (``gaps``, once all have moved) at which Level 4
lays its lasso. Held from 155 to 190 it won the same races from the back against ``racer`` (a lasso
laid at a gap nearer its reach of 215 came too seldom, at 145 as early as ``racer``'s)."""


class PatientRacer(RacerBot):
    """``racer``, holding its lasso until the dragon ahead is ``LASSO_PATIENCE`` away; meanwhile
    it lays its other cards as ``racer`` would without the lasso."""

    def _card_to_lay(
        self, sc: Scene, state: RaceState, seat: int, me: Dragon, speed: int, values: dict[int, float]
    ) -> Magic | None:
        if Magic.LASSO in me.hand and not any(g >= LASSO_PATIENCE for g in gaps(state, seat, speed).values()):
            me = replace(me, hand=tuple(c for c in me.hand if c is not Magic.LASSO))
        return super()._card_to_lay(sc, state, seat, me, speed, values)


def flat_out(state: RaceState, seat: int, moves: Sequence[Command], rng: random.Random) -> Command | None:
    """The beginner's habit: the fastest speed it may set, without a card."""
    speeds = [m for m in moves if isinstance(m, SetSpeed) and m.card is None]
    return max(speeds, key=lambda m: m.speed) if speeds else None


def beginner(rules: Ruleset[RaceState]) -> BeginnerBot[RaceState]:
    return BeginnerBot(rules, RacerBot(rules), SampledRandomBot(rules), SLIP, flat_out)


def search(rules: Ruleset[RaceState], settings: SearchSettings | None = None) -> SearchBot[RaceState]:
    return SearchBot(rules, None, PatientRacer(rules), settings or SearchSettings(width=8))


LADDER = (
    BotLevel("random", "flies any legal move at random"),
    BotLevel("beginner", "flies flat out, never braking before a bend"),
    BotLevel("racer", "looks two moves ahead, braking before the bends"),
    BotLevel("search", "flies as Level 3, holds its lasso until the leader is far enough to pull back"),
)
