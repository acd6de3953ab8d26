"""Mekong's bot ladder, from the weakest: ``random``, ``beginner``, ``planner``, ``search``.

``beginner`` plays as ``planner`` but, two decisions in five, programmes or plays a card
without thinking (a random move): the mistake of a player who does not yet foresee how the
others' cards will resolve with its own.

``search`` is ``planner`` with foresight, searching wider. ``planner`` expects each other seat
to programme as if it played alone; ``search`` expects each to programme as ``planner`` itself
would from that seat (its dragons included, which may cancel ``search``'s own card), and answers
that. What it reads to forecast them is public (the board and every hand; never a face-down
card: ``planner`` programmes the same whatever the others placed), so it is the forecast of a
player who knows how careful players think, not a peek. It keeps ``SEARCH_WIDTH`` partial
programmes at each position of its own beam where ``planner`` keeps ``bots.BEAM_WIDTH``.
Against ``planner`` from random openings it won 78 of 80 games; the wider planner it replaced
(2026-11-30, no foresight) had won 59% (``docs/bots.md``).
"""

from __future__ import annotations

from domain.kernel import BeginnerBot, BotLevel, RandomBot, Ruleset
from domain.mekong.bots import PlannerBot
from domain.mekong.state import MekongState

SLIP = 0.4
"""Designed: how often the beginner plays without thinking."""
SEARCH_WIDTH = 24
"""Measured: the beam of Level 4's own programme, four times ``planner``'s (48 did no better in 220
games). With foresight a programme takes at most about 0.3 s at two seats and 1 s at six on one core."""


def beginner(rules: Ruleset[MekongState]) -> BeginnerBot[MekongState]:
    return BeginnerBot(rules, PlannerBot(rules), RandomBot(rules), SLIP)


def search(rules: Ruleset[MekongState]) -> PlannerBot:
    return PlannerBot(rules, SEARCH_WIDTH, foresight=True)


LADDER = (
    BotLevel("random", "programmes and plays its cards at random"),
    BotLevel("beginner", "plans its crossing but often plays a card without thinking"),
    BotLevel("planner", "plans its five cards against the programmes it expects from the others"),
    BotLevel("search", "foresees the programmes careful players would choose, and plans its own against them"),
)
