"""Mekong's bot ladder, from the weakest: ``random``, ``beginner``, ``planner``, ``search``.

``beginner`` plays as ``planner`` but, two decisions in five, programmes or plays a card
without thinking (a random move): the mistake of a player who does not yet foresee how the
others' cards will resolve with its own.

``search`` is the kernel's information-set MCTS (``domain.kernel.bots_search``) with
``planner`` as its prior and random rollouts; the programmes of a simultaneous phase are
searched in seat order, each from what its seat may know.
"""

from __future__ import annotations

from domain.kernel import BeginnerBot, BotLevel, RandomBot, Ruleset, SearchBot, SearchSettings
from domain.mekong.bots import PlannerBot
from domain.mekong.state import MekongState

SLIP = 0.4
"""Designed: how often the beginner plays without thinking."""


def beginner(rules: Ruleset[MekongState]) -> BeginnerBot[MekongState]:
    return BeginnerBot(rules, PlannerBot(rules), RandomBot(rules), SLIP)


def search(rules: Ruleset[MekongState], settings: SearchSettings | None = None) -> SearchBot[MekongState]:
    return SearchBot(rules, None, PlannerBot(rules), settings or SearchSettings(width=10))


LADDER = (
    BotLevel("random", "programmes and plays its cards at random"),
    BotLevel("beginner", "plans its crossing but often plays a card without thinking"),
    BotLevel("planner", "plans its five cards against the programmes it expects from the others"),
    BotLevel("search", "tries its programmes out in many imagined rounds, built from what it can see"),
)
