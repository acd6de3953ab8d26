"""Seven Dragons' bot ladder, from the weakest: ``random``, ``beginner``, ``greedy``, ``search``.

``beginner`` plays as ``greedy`` but overlooks the table two moves in five (a random move):
it misses the card that wins, the card that hands the win to another, the goal trade.

``search`` is the kernel's information-set MCTS (``domain.kernel.bots_search``) with
``greedy`` as its prior and random rollouts (``greedy`` is too slow to play thousands of
imagined games within the budget).
"""

from __future__ import annotations

from domain.kernel import BeginnerBot, BotLevel, RandomBot, Ruleset, SearchBot, SearchSettings
from domain.seven_dragons.bots import GreedyBot
from domain.seven_dragons.state import SevenDragonsState

SLIP = 0.4
"""Designed: how often the beginner overlooks the table."""


def beginner(rules: Ruleset[SevenDragonsState]) -> BeginnerBot[SevenDragonsState]:
    return BeginnerBot(rules, GreedyBot(), RandomBot(rules), SLIP)


def search(rules: Ruleset[SevenDragonsState], settings: SearchSettings | None = None) -> SearchBot[SevenDragonsState]:
    return SearchBot(rules, None, GreedyBot(), settings or SearchSettings(width=10))


LADDER = (
    BotLevel("random", "plays any legal card at random"),
    BotLevel("beginner", "plays for its goal but often overlooks what the table offers"),
    BotLevel("greedy", "looks one card ahead, and guesses the others' goals from their plays"),
    BotLevel("search", "tries its cards out in many imagined games, built from what it can see"),
)
