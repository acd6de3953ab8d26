"""The bot of docs/bots.md (``docs/examples/random_bot.py``) plays whole games against a real server."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.processes import Server

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "random_bot.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``dragonhall serve`` on the embedded default, in a data directory of its own."""
    tmp = tmp_path_factory.mktemp("bot-guide")
    served = Server({"DRAGONHALL_DATA_DIR": str(tmp / "var"), "DRAGONHALL_STORE": "sqlite"}, tmp)
    yield served
    served.stop()


def test_the_guides_bot_plays_a_new_game_to_its_end_against_the_servers_bot(server: Server) -> None:
    game = example().main(["--new", "tarasque", "--server", server.base, "--poll", "0.05"])
    assert game["status"] == "finished"
    assert len(game["outcome"]["places"]) == 2
    assert [s["kind"] for s in game["seats"]] == ["bot", "bot"]
    assert game["seats"][1]["bot"] == "greedy"


def test_the_guides_bot_plays_a_seat_it_was_given_with_a_token(server: Server) -> None:
    """The second way to run it: a game and a token from elsewhere (here, a seat taken by hand)."""
    status, player = server.call("POST", "/api/v1/players", {"name": "ann", "kind": "bot"})
    token = player["token"]
    status, game = server.call("POST", "/api/v1/games", {"game": "seven-dragons", "players": 2}, token)
    assert status == 201
    server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, token)
    server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "random"}, token)
    ended = example().main([game["id"], token, "--server", server.base, "--poll", "0.05"])
    assert ended["status"] == "finished"
