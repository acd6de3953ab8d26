"""A policy over an environment's actions, playing on a server through the bot client.

``PolicyStrategy(policy)`` is a strategy of ``dragonhall bot`` (``(view, legal_moves, game)
-> move``, docs/bots.md). It turns what the server sends into what the environments give a
policy, with the same code: the seat's view into the observation vector (``rl.hooks.of_view``),
the legal moves (parsed by the game's own ``Ruleset.parse_move``) into the action mask of
the game's action space (``rl.actions``). It sends back the legal move the chosen action
stands for, in the server's own wire form.

    dragonhall bot --token $TOKEN --strategy rl.bridge:choose      # uniform over the actions
    dragonhall bot --token $TOKEN --strategy mybot.py:choose       # mybot.py: choose = PolicyStrategy(...)
"""

from __future__ import annotations

import logging
import random
from typing import Any

from rl.agents import Policy, RandomPolicy
from rl.features import OBSERVATION_SIZE
from rl.hooks import of_view
from rl.specs import codec_for, game

log = logging.getLogger("dragonhall.rl")

Move = dict[str, Any]


class PolicyStrategy:
    """Plays ``policy`` on a server: the strategy form of a policy trained offline."""

    def __init__(self, policy: Policy, observation_size: int = OBSERVATION_SIZE) -> None:
        self.policy = policy
        self.observation_size = observation_size

    def __call__(self, view: dict[str, Any], legal_moves: list[Move], game_doc: dict[str, Any]) -> Move:
        ruleset = game(game_doc["game"])
        codec = codec_for(ruleset)
        commands = [ruleset.parse_move(m) for m in legal_moves]
        mask, chosen = codec.table(commands)
        if not chosen:
            log.warning("game %s: no legal move has an action; playing a random one", game_doc.get("id"))
            return random.choice(legal_moves)
        seat = int(game_doc["seat"])
        action = self.policy(of_view(ruleset.slug, view, seat, self.observation_size), mask)
        command = chosen[action]
        return legal_moves[commands.index(command)]


choose = PolicyStrategy(RandomPolicy())
"""``--strategy rl.bridge:choose``: a uniform policy over the game's actions."""
