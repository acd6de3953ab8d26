"""Two small policies over a game's action space: uniform, and a learnt value per action.

A policy is any callable ``(observation, action_mask) -> action``, the form both the
PettingZoo environment and the server bridge (``rl.bridge``) hand it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from rl.pettingzoo_env import DragonhallEnv

Policy = Callable[[np.ndarray, np.ndarray], int]


class RandomPolicy:
    """Uniform among the legal actions; ``seed`` makes it repeatable."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


class ActionValues:
    """The mean final return of each action, learnt by Monte Carlo from self-play; plays the
    legal action of highest mean (untried actions count as ``optimism``), or with probability
    ``epsilon`` a random one.

    The simplest learner that gets better than random at a game whose good moves are good in
    most positions (taking a tile, placing a card): it ignores the observation. It is here to
    show the loop, and that what it learns plays on a server unchanged."""

    def __init__(self, epsilon: float = 0.0, optimism: float = 0.0, seed: int | None = None) -> None:
        self.total: dict[int, float] = {}
        self.count: dict[int, int] = {}
        self.epsilon, self.optimism = epsilon, optimism
        self.rng = random.Random(seed)

    def value(self, action: int) -> float:
        n = self.count.get(action, 0)
        return self.total[action] / n if n else self.optimism

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask).tolist()
        if self.epsilon and self.rng.random() < self.epsilon:
            return int(self.rng.choice(legal))
        return int(max(legal, key=lambda a: (self.value(a), -a)))

    def train(self, env: DragonhallEnv, episodes: int, seed: int = 0) -> None:
        """Play ``episodes`` games of ``env`` with every seat on this policy, crediting each
        action a seat took with that seat's final return."""
        for episode in range(episodes):
            env.reset(seed=seed + episode)
            taken: dict[str, list[int]] = {a: [] for a in env.agents}
            for agent in env.agent_iter():
                observation, reward, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    for a in taken[agent]:
                        self.total[a] = self.total.get(a, 0.0) + reward
                        self.count[a] = self.count.get(a, 0) + 1
                    env.step(None)
                    continue
                action = self(observation["observation"], observation["action_mask"])
                taken[agent].append(action)
                env.step(action)

    def save(self, path: str | Path) -> None:
        data: dict[str, Any] = {"total": self.total, "count": self.count, "optimism": self.optimism}
        Path(path).write_text(json.dumps(data))

    @classmethod
    def load(cls, path: str | Path) -> ActionValues:
        data = json.loads(Path(path).read_text())
        out = cls(optimism=data["optimism"])
        out.total = {int(k): float(v) for k, v in data["total"].items()}
        out.count = {int(k): int(v) for k, v in data["count"].items()}
        return out
