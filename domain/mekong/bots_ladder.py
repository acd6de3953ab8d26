"""Mekong's bot ladder, from the weakest: ``random``, ``beginner``, ``planner``, ``search``.

``beginner`` plays as ``planner`` but, two decisions in five, programmes or plays a card
without thinking (a random move): the mistake of a player who does not yet foresee how the
others' cards will resolve with its own.

``search`` is ``planner`` searching wider: it keeps ``SEARCH_WIDTH`` partial programmes at each
position of its beam, for its own programme and for each programme it expects from the others,
where ``planner`` keeps ``bots.BEAM_WIDTH``. It replaced the kernel's information-set MCTS here on
2026-11-30: that search, with ``planner`` as prior and random rollouts, ran 16 to 45 iterations in
its 1.6 s and played ``planner``'s move at every decision measured; this one, from random openings,
won 59% of its games against ``planner`` (``docs/bots.md``).
"""

from __future__ import annotations

from domain.kernel import BeginnerBot, BotLevel, RandomBot, Ruleset
from domain.mekong.bots import PlannerBot
from domain.mekong.state import MekongState

SLIP = 0.4
"""Designed: how often the beginner plays without thinking."""
SEARCH_WIDTH = 24
"""Measured: the beam of Level 4, four times ``planner``'s: about 0.5 s a programme at six seats on
a loaded core (48 did no better in 220 games, and takes twice the time)."""


def beginner(rules: Ruleset[MekongState]) -> BeginnerBot[MekongState]:
    return BeginnerBot(rules, PlannerBot(rules), RandomBot(rules), SLIP)


def search(rules: Ruleset[MekongState]) -> PlannerBot:
    return PlannerBot(rules, SEARCH_WIDTH)


LADDER = (
    BotLevel("random", "programmes and plays its cards at random"),
    BotLevel("beginner", "plans its crossing but often plays a card without thinking"),
    BotLevel("planner", "plans its five cards against the programmes it expects from the others"),
    BotLevel("search", "plans like Level 3 but weighs four times as many programmes, its own and the others'"),
)
