"""Every move the rules accept has an action of its own (issue 33), not only the listed ones: a client
may fly any whole turn within the notches, face any whole heading (or keep the one as placed), lay
traps at a listed layout and drop a stone at any whole point of the water. Over random games, each
such move the engine accepts is the move its action plays, so a server game a client played rebuilds
in the environments decision by decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import mekong
from domain.drachenreiter.commands import Face, LayTraps, Move
from domain.drachenreiter.dimensions import NOTCH
from domain.kernel import Command, Rng, RuleError
from domain.mekong.commands import PlaceStoneAt
from domain.mekong.state import STONES, Phase
from rl import hooks
from rl.pettingzoo_env import env
from rl.specs import codec_for

PROBES = 6
"""Random client moves tried at each decision."""


def _flights(listed: list[Command], pick: random.Random) -> Iterator[Command]:
    for move in listed:
        if isinstance(move, Move):
            notch = int(NOTCH[move.speed])
            for _ in range(PROBES):
                yield Move(move.speed, float(pick.randint(-notch, notch)), float(pick.randint(-notch, notch)))
            return


def _headings(listed: list[Command], pick: random.Random) -> Iterator[Command]:
    faces = [m for m in listed if isinstance(m, Face)]
    if faces:
        yield faces[0]  # as placed
        placed = faces[0].heading
        yield from (Face(float(round(placed) + d)) for d in (-1, 0, 1))  # refused, or its own action
        yield from (Face(float(pick.randint(-360, 360))) for _ in range(PROBES))


def _traps(listed: list[Command], pick: random.Random) -> Iterator[Command]:
    layouts = [m for m in listed if isinstance(m, LayTraps)]
    yield from pick.sample(layouts, min(len(layouts), PROBES))


def _drops(listed: list[Command], pick: random.Random) -> Iterator[Command]:
    if any(isinstance(m, PlaceStoneAt) for m in listed):
        yield from (PlaceStoneAt(float(pick.randint(-97, 97)), float(pick.randint(-97, 97))) for _ in range(PROBES * 4))


def _accepted_have_actions(slug: str, variant: str | None, players: int, seed: int, decisions: int) -> int:
    """Plays a random game; returns how many accepted client moves were checked."""
    pick, environment = random.Random(seed), env(slug, variant=variant, players=players)
    environment.reset(seed=seed)
    ruleset, checked = environment.ruleset, 0
    for _ in range(decisions):
        agent = environment.agent_selection
        if environment.terminations[agent] or environment.truncations[agent]:
            break
        match: Any = environment.match
        seat, state = environment.possible_agents.index(agent), match.state
        legal = hooks.legal(ruleset, state, seat, lambda: ruleset.legal_moves(state, seat))  # noqa: B023
        listed = list(legal.commands().values())
        for probe in (_flights, _headings, _traps, _drops):
            for command in probe(listed, pick):
                try:
                    ruleset.decide(state, seat, command, Rng(b"probe", "v0"))
                except RuleError:
                    continue
                action = legal.action_of(command)
                assert action is not None, f"{command} is accepted but has no action"
                assert legal.playable(action) == command, f"{command}'s action plays {legal.playable(action)}"
                checked += 1
        environment.step(pick.choice(environment.legal_actions(agent)))
    return checked


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_drachenreiter_move_the_rules_accept_is_its_actions_move(seed: int) -> None:
    assert _accepted_have_actions("drachenreiter", None, 3, seed, 40) > 0


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_stone_the_challenge_accepts_is_its_actions_drop(seed: int) -> None:
    assert _accepted_have_actions("mekong", "challenge", 2, seed, 40) > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_move_a_whole_challenge_game_lists_has_an_action(seed: int) -> None:
    """A dropped stone takes the lowest name free (Mekong's engine 2), so however many stones come and
    go in a long 6-seat game, no name passes ``s27`` and every listed drop, removal and plank has its
    action (engine 1 named the 65th stone ``s65``, which no action named)."""
    pick, environment = random.Random(seed), env("mekong", variant="challenge", players=6)
    environment.reset(seed=seed)
    ruleset, codec, drops = environment.ruleset, codec_for(mekong.RULESET), 0
    for agent in environment.agent_iter(max_iter=4000):
        if environment.terminations[agent] or environment.truncations[agent]:
            break
        state = environment.match.state
        if state.phase is not Phase.PROGRAMMING:  # programmes: numbered per hand by the mask hook
            seat = environment.possible_agents.index(agent)
            assert all(codec.exact_action(m) is not None for m in ruleset.legal_moves(state, seat))
            assert all(int(s.name[1:]) <= STONES for s in state.stones)
            drops = len(state.drops)
        environment.step(pick.choice(environment.legal_actions(agent)))
    assert drops > 0
