"""The client library against a real ``dragonhall serve``: the example bots play whole games against the
server's bots, every call reaches its endpoint, a move whose answer is lost is applied once, and the
``dragonhall bot`` command plays until it is stopped."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from dragonhall import Client, Conflict, GamePlayer, NotFound, RandomStrategy, RuleViolation
from tests.support.processes import BIN, Server

pytestmark = pytest.mark.slow
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``dragonhall serve`` on the embedded default, in a data directory of its own."""
    tmp = tmp_path_factory.mktemp("client-live")
    served = Server({"DRAGONHALL_DATA_DIR": str(tmp / "var"), "DRAGONHALL_STORE": "sqlite"}, tmp)
    yield served
    served.stop()


def read_models_caught_up(server: Server, timeout: float = 30) -> None:
    """Waits until the read models have read every stored event (``/healthz``'s lag is 0)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, health = server.call("GET", "/healthz")
        if status == 200 and health["projections"]["lag"] == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"the read models still lag after {timeout} s: {health}")


def against_greedy(server: Server, name: str = "ann") -> tuple[Client, str]:
    """A new player's client, and a Tarasque game where it holds seat 0 and the server's greedy bot seat 1."""
    client = Client.for_new_player(server.base, name, kind="bot")
    game_id = client.create_game("tarasque", players=2)["id"]
    client.take_seat(game_id)
    client.add_bot(game_id, "greedy")
    return client, game_id


@pytest.fixture(scope="module")
def finished(server: Server) -> Iterator[tuple[Client, str]]:
    client, game_id = against_greedy(server, "finisher")
    assert GamePlayer(client, RandomStrategy(seed=7)).play(game_id) is not None
    read_models_caught_up(server)  # the inbox and the lists are read models, a moment behind the end
    yield client, game_id
    client.close()


def test_the_example_random_bot_plays_a_whole_game_against_the_servers_bot(server: Server) -> None:
    finished = example("random_bot").main(["--new", "tarasque", "--server", server.base])
    [(game_id, game)] = finished.items()
    assert game["status"] == "finished" and len(game["outcome"]["places"]) == 2
    assert [s["bot"] for s in game["seats"]] == [None, "greedy"]
    events = Client(server.base).events(game_id)["events"]
    assert {e["data"]["seat"] for e in events if e["type"] == "MoveMade"} == {0, 1}


@pytest.mark.parametrize("game", ["seven-dragons", "mekong", "drachenreiter"])
def test_the_example_random_bot_plays_the_other_games_to_their_end(server: Server, game: str) -> None:
    [ended] = example("random_bot").main(["--new", game, "--server", server.base]).values()
    assert ended["game"] == game and ended["status"] == "finished"


def test_the_example_tarasque_strategy_plays_a_whole_game_through_the_bot_command(server: Server) -> None:
    client, game_id = against_greedy(server, "hand-written")
    strategy = f"{EXAMPLES / 'tarasque_bot.py'}:choose"
    command = [str(BIN), "bot", "--server", server.base, "--token", client.token, "--strategy", strategy]
    done = subprocess.run([*command, "--game", game_id], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert client.game(game_id)["status"] == "finished" and f"{game_id}: finished" in done.stderr.replace("\n", "")


@pytest.mark.parametrize("game", ["drachenreiter", "mekong", "seven-dragons", "tarasque"])
def test_the_bot_command_plays_a_whole_game_as_the_games_default_bot(server: Server, game: str) -> None:
    """``--strategy <a built-in bot>``: the server advises each move its bot would play for the seat."""
    client = Client.for_new_player(server.base, f"advised-{game}", kind="bot")
    bot = next(g["default_bot"] for g in client.catalog() if g["game"] == game)
    game_id = client.create_game(game, players=2)["id"]
    client.take_seat(game_id)
    client.add_bot(game_id, bot)
    command = [str(BIN), "bot", "--server", server.base, "--token", client.token or "", "--strategy", bot]
    done = subprocess.run([*command, "--game", game_id], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ended = client.game(game_id)
    assert ended["status"] == "finished" and f"{game_id}: finished" in done.stderr.replace("\n", "")
    assert "refused" not in done.stderr, "every advised move is legal"
    moved = {e["data"]["seat"] for e in client.events(game_id)["events"] if e["type"] == "MoveMade"}
    assert moved == {0, 1}, "the command played its seat through the streams, the server's bot the other"


def test_the_bot_command_fails_when_it_cannot_play_its_game(server: Server) -> None:
    """``--game`` stops when the game ends: a game it could not play (no such game, a token not
    valid) is a failure the shell sees, and a misspelt bot's name is refused before a move."""
    client = Client.for_new_player(server.base, f"failing-{uuid.uuid4().hex[:6]}", kind="bot")
    game_id = client.create_game("tarasque", players=2)["id"]
    client.take_seat(game_id)
    client.add_bot(game_id, "greedy")
    command = [str(BIN), "bot", "--server", server.base, "--strategy", "random"]
    for token, game in [(client.token or "", "00000000-0000-4000-8000-000000000000"), ("dh_not_a_token", game_id)]:
        done = subprocess.run([*command, "--token", token, "--game", game], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stderr
        assert "not played to its end" in done.stderr.replace("\n", " ") or "401" in done.stderr, done.stderr
    misspelt = [str(BIN), "bot", "--server", server.base, "--token", client.token or "", "--strategy", "greddy"]
    done = subprocess.run([*misspelt, "--game", game_id], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "greddy" in done.stderr, done.stderr
    mine = [e for e in client.events(game_id)["events"] if e["type"] == "MoveMade" and e["data"]["seat"] == 0]
    assert client.game(game_id)["status"] == "active" and mine == [], "nothing was played for its seat"


def test_the_bot_command_plays_the_games_that_await_its_token_until_interrupted(server: Server) -> None:
    player = Client.for_new_player(server.base, "patient", kind="bot")
    command = [str(BIN), "bot", "--server", server.base, "--token", player.token or ""]
    bot = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = Said(bot)
    try:
        game_id = player.create_game("tarasque", players=2)["id"]
        player.take_seat(game_id)
        player.add_bot(game_id, "random")
        ended = server.wait_status(game_id, "finished", timeout=240)
        said.wait_for(f"game {game_id} finished after", timeout=60)  # the bot's own stream may lag the server
        assert bot.poll() is None, "the bot stops only when told"
    finally:
        bot.send_signal(signal.SIGINT)
        err = said.until_exit(timeout=60)
    assert bot.returncode == 0, err
    assert ended["seats"][0]["name"] == "patient" and f"{game_id}: finished" in err.replace("\n", "")


class Said:
    """What a process writes to stderr, read as it comes, so a test can wait for one line."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.text = ""
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._changed:
                self.text += line
                self._changed.notify_all()

    def wait_for(self, text: str, timeout: float) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: text in self.text, timeout):
                raise AssertionError(f"never said {text!r} in {timeout} s:\n{self.text}")

    def until_exit(self, timeout: float) -> str:
        self.process.wait(timeout)
        self._reader.join(timeout)
        return self.text


def test_a_bot_started_after_its_invitations_answers_them_by_its_rules_and_plays(server: Server) -> None:
    """Issue 33: invitations sent while ``dragonhall bot --accept`` was not running reach it when it
    connects (the account stream opens with them); it declines what its rules refuse, with the reason,
    and accepts and plays the rest."""
    host = Client.for_new_player(server.base, "host")
    rusty = Client.for_new_player(server.base, f"rusty-{uuid.uuid4().hex[:6]}", kind="bot")
    name = str(rusty.player["name"]) if rusty.player else ""
    wanted = host.create_game("tarasque", players=2, invite=[name])["id"]
    host.add_bot(wanted, "random")
    refused = host.create_game("mekong", players=3, invite=[name])["id"]
    command = [
        str(BIN),
        "bot",
        "--server",
        server.base,
        "--token",
        rusty.token or "",
        "--accept",
        "--games",
        "tarasque",
    ]
    bot = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ended = server.wait_status(wanted, "finished", timeout=240)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            sent = {i["game_id"]: i for i in host.invitations()["sent"]}
            if sent[refused]["status"] != "pending":
                break
            time.sleep(0.1)
    finally:
        bot.send_signal(signal.SIGINT)
        _, err = bot.communicate(timeout=60)
    assert bot.returncode == 0, err
    assert [s["name"] for s in ended["seats"]].count(name) == 1
    assert (sent[wanted]["status"], sent[refused]["status"]) == ("accepted", "declined"), sent
    assert sent[refused]["reason"] == "generic", sent[refused]


class LosesTheFirstMoveAnswer(httpx.BaseTransport):
    """Sends every request to the server, but loses the answer to the first move, as a connection
    that breaks after the server has saved it."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.moves = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/moves"):
            self.moves += 1
            if self.moves == 1:
                response.read()
                response.close()
                raise httpx.ReadError("the answer was lost", request=request)
        return response


def test_a_move_whose_answer_was_lost_is_applied_once(server: Server) -> None:
    owner, game_id = against_greedy(server, "unlucky")
    transport = LosesTheFirstMoveAnswer()
    client = Client(server.base, owner.token, transport=transport)
    page = client.legal_moves(game_id)
    result = client.move(game_id, page["moves"][0], expected_version=page["version"])
    assert transport.moves == 2 and result["replayed"] is True
    made = [e for e in client.events(game_id, after=page["version"])["events"] if e["type"] == "MoveMade"]
    assert [e["version"] for e in made][:1] == [page["version"] + 1]
    assert sum(e["data"]["seat"] == 0 for e in made if e["version"] <= result["version"]) == 1


def test_refusals_of_the_server_raise_typed_errors(server: Server) -> None:
    client, game_id = against_greedy(server, "clumsy")
    page = client.legal_moves(game_id)
    with pytest.raises(RuleViolation) as illegal:
        client.move(game_id, {"type": "remove_tile", "tile": "no-such-tile"}, expected_version=page["version"])
    assert illegal.value.status == 422 and illegal.value.rule
    with pytest.raises(Conflict) as stale:
        client.move(game_id, page["moves"][0], expected_version=page["version"] - 1)
    assert stale.value.code == "stale_version" and stale.value.current_version == page["version"]
    with pytest.raises(NotFound) as missing:
        client.game("no-such-game")
    assert missing.value.code == "game_not_found"


def test_every_read_of_a_finished_game_reaches_its_endpoint(finished: tuple[Client, str]) -> None:
    client, game_id = finished
    game = client.game(game_id)
    assert game["status"] == "finished" and game["your_seats"] == [0]
    assert client.events(game_id, after=game["version"] - 2)["version"] == game["version"]
    assert client.replay(game_id, 3)["version"] == 3
    assert client.steps(game_id)["steps"] and client.audit(game_id)["verified"] is True
    assert client.record(game_id)["format"].startswith("dragonhall-record/")
    assert client.journal(game_id)["game_id"] == game_id
    assert game_id in [g["id"] for g in client.games(game="tarasque", status="finished", limit=200)]
    assert "<svg" in client.board_svg(game_id)
    with pytest.raises(NotFound) as no_picture:
        client.board_svg(game_id, at=1)  # before the game started: no board yet
    assert no_picture.value.code == "no_picture"


def test_disputes_and_the_account_calls_reach_their_endpoints(finished: tuple[Client, str]) -> None:
    client, game_id = finished
    dispute = client.open_dispute(game_id, 5, "was that move legal?")
    assert client.dispute(dispute["id"])["claim"] == "was that move legal?"
    assert [d["id"] for d in client.disputes(game_id)] == [dispute["id"]]
    assert client.dispute_legal_moves(dispute["id"], limit=1)["version"] == 5
    assert client.resolve_dispute(dispute["id"], "withdrawn")["resolution"]
    me: Any = client.me()
    assert me["name"] == "finisher" and client.set_webhook(None)["webhook_url"] is None
    assert client.inbox()["awaiting"] == [] and "allowance" in client.vacation()
    assert client.keys()[0]["algorithm"] == "Ed25519" and client.health()["status"] == "ok"
    assert "tarasque" in [g["game"] for g in client.catalog()]


def test_legal_moves_page_and_join_into_one_list(server: Server) -> None:
    client, game_id = against_greedy(server, "pager")
    page = client.legal_moves(game_id, limit=1)
    assert page["total"] > 1 and len(page["moves"]) == 1
    assert client.all_legal_moves(game_id, first=page)["moves"] == client.legal_moves(game_id)["moves"]
