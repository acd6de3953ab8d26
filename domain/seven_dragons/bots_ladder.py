"""Seven Dragons' bot ladder, from the weakest: ``random``, ``beginner``, ``greedy``, ``search``.

``beginner`` plays as ``greedy`` but overlooks the table two moves in five (a random move):
it misses the card that wins, the card that hands the win to another, the goal trade.

``search`` is the kernel's rollout bot (``domain.kernel.bots_rollout``): it plays ``greedy``'s
choice unless one of the three moves ``greedy`` rates next did better in imagined games,
each built from what the seat can see and played out by ``greedy`` at every seat. (The
kernel's information-set tree search, with random players in its imagined games, was no
stronger than ``greedy``: docs/bots.md.)
"""

from __future__ import annotations

from domain.kernel import BeginnerBot, BotLevel, RandomBot, RolloutBot, RolloutSettings, Ruleset
from domain.seven_dragons.bots import GreedyBot
from domain.seven_dragons.state import SevenDragonsState

SLIP = 0.4
"""Designed: how often the beginner overlooks the table."""


def beginner(rules: Ruleset[SevenDragonsState]) -> BeginnerBot[SevenDragonsState]:
    return BeginnerBot(rules, GreedyBot(), RandomBot(rules), SLIP)


def search(rules: Ruleset[SevenDragonsState], settings: RolloutSettings | None = None) -> RolloutBot[SevenDragonsState]:
    greedy = GreedyBot()
    return RolloutBot(rules, greedy, greedy.rank, settings)


LADDER = (
    BotLevel("random", "plays any legal card at random"),
    BotLevel("beginner", "plays for its goal but often overlooks what the table offers"),
    BotLevel("greedy", "looks one card ahead, and guesses the others' goals from their plays"),
    BotLevel("search", "tries its best cards out in many imagined games, built from what it can see"),
)
