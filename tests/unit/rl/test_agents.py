"""The small learner of the guide: it learns from self-play, and what it learnt survives a file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rl.agents import ActionValues
from rl.pettingzoo_env import env


def test_action_values_learn_from_self_play_and_play_the_same_after_a_round_trip_through_a_file(
    tmp_path: Path,
) -> None:
    learner = ActionValues(epsilon=0.3, seed=2)
    e = env("tarasque")
    learner.train(e, episodes=3)
    assert learner.count and sum(learner.count.values()) > 50
    learner.save(tmp_path / "values.json")
    loaded = ActionValues.load(tmp_path / "values.json")
    assert loaded.total == learner.total and loaded.count == learner.count
    learner.epsilon = 0.0
    e.reset(seed=9)
    obs = e.observe(e.agent_selection)
    assert loaded(obs["observation"], obs["action_mask"]) == learner(obs["observation"], obs["action_mask"])


def test_the_learner_plays_the_legal_action_of_highest_mean_return() -> None:
    learner = ActionValues()
    learner.total, learner.count = {2: 3.0, 5: -1.0, 9: 8.0}, {2: 3, 5: 1, 9: 4}
    mask = np.zeros(12, dtype=np.int8)
    mask[[2, 5]] = 1
    assert learner(np.zeros(1, np.float32), mask) == 2
    mask[9] = 1
    assert learner(np.zeros(1, np.float32), mask) == 9
