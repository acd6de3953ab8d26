"""A policy over the environments' actions plays whole games on a real ``dragonhall serve`` through
the bot client: as a ``GamePlayer`` strategy, and through ``dragonhall bot --strategy rl.bridge:choose``."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from dragonhall import Client, GamePlayer
from rl.agents import ActionValues, RandomPolicy
from rl.bridge import PolicyStrategy
from rl.hooks import of_view
from rl.pettingzoo_env import env
from tests.support.processes import BIN, Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("rl-bridge")
    served = Server({"DRAGONHALL_DATA_DIR": str(tmp / "var"), "DRAGONHALL_STORE": "sqlite"}, tmp)
    yield served
    served.stop()


class Watched:
    """A policy that notes what it was given: each observation, and that its mask marked an action."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.calls = 0

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.dtype == np.float32 and mask.any()
        self.calls += 1
        action = int(self.policy(observation, mask))
        assert mask[action]
        return action


def against(server: Server, game: str, bot: str, name: str) -> tuple[Client, str]:
    client = Client.for_new_player(server.base, name, kind="bot")
    game_id = client.create_game(game, players=2)["id"]
    client.take_seat(game_id)
    client.add_bot(game_id, bot)
    return client, game_id


@pytest.mark.parametrize(("game", "bot"), [("tarasque", "greedy"), ("drachenreiter", "random")])
def test_a_policy_trained_offline_plays_a_whole_game_on_the_server(
    server: Server, game: str, bot: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The policy learns in the environment, then plays seat 0 on the server with the same action
    encoding: every move it picks is a legal move of the server's listing, none refused."""
    learner = ActionValues(epsilon=0.2, seed=1)
    learner.train(env(game), episodes=2)
    learner.epsilon = 0.0
    policy = Watched(learner)
    client, game_id = against(server, game, bot, f"learner-{game}")
    strategy = PolicyStrategy(policy)
    sent: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def watched(view: dict[str, Any], legal: list[dict[str, Any]], doc: Any) -> dict[str, Any]:
        move = strategy(view, legal, doc)
        sent.append((move, legal))
        return move

    with caplog.at_level(logging.ERROR, logger="dragonhall.bot"):
        ended = GamePlayer(client, watched).play(game_id)
    assert ended is not None and ended["status"] == "finished"
    assert policy.calls == len(sent) > 0
    assert all(move in legal for move, legal in sent)
    assert not [r for r in caplog.records if "refused" in r.getMessage()]


def test_the_bridge_gives_a_policy_the_vector_of_the_seats_own_view(server: Server) -> None:
    """The vector a policy gets on the server is ``of_view`` of the view the server sent the
    seat (its own: ``you`` is the seat), the function the environment applies to the engine's view."""
    given: list[np.ndarray] = []
    expected: list[np.ndarray] = []

    def first(observation: np.ndarray, mask: np.ndarray) -> int:
        given.append(observation)
        return int(np.flatnonzero(mask)[0])

    strategy = PolicyStrategy(first)

    def watched(view: dict[str, Any], legal: list[dict[str, Any]], doc: Any) -> dict[str, Any]:
        assert view["you"] == doc["seat"]
        expected.append(of_view("seven-dragons", view, doc["seat"]))
        return strategy(view, legal, doc)

    client, game_id = against(server, "seven-dragons", "random", "observer")
    assert GamePlayer(client, watched).play(game_id) is not None
    assert len(given) == len(expected) > 0
    assert all(np.array_equal(g, e) for g, e in zip(given, expected, strict=True))


def test_the_bot_command_plays_the_bridges_policy_to_the_end(server: Server) -> None:
    client, game_id = against(server, "seven-dragons", "random", "command")
    command = [str(BIN), "bot", "--server", server.base, "--token", client.token, "--strategy", "rl.bridge:choose"]
    done = subprocess.run([*command, "--game", game_id], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert client.game(game_id)["status"] == "finished"
    assert "refused" not in done.stderr


def test_a_random_policy_is_repeatable_with_a_seed() -> None:
    mask = np.zeros(50, dtype=np.int8)
    mask[[3, 7, 19, 40]] = 1
    obs = np.zeros(4, dtype=np.float32)
    assert [RandomPolicy(5)(obs, mask) for _ in range(3)] == [RandomPolicy(5)(obs, mask) for _ in range(3)]
    assert {RandomPolicy(s)(obs, mask) for s in range(20)} <= {3, 7, 19, 40}
