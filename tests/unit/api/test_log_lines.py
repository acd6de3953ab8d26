"""The command's log: JSON lines with the request id, game id and account; readable on a terminal."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from infra import log_lines


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    """What the access log writes while a test runs, as the command's handler formats it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(log_lines.JsonLines())
    access = logging.getLogger("dragonhall.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    yield out
    access.removeHandler(handler)
    access.setLevel(logging.NOTSET)


def test_each_request_is_one_json_line_with_its_request_id_game_and_account(client: Any, lines: io.StringIO) -> None:
    player = client.player("a")
    game = client.new_game(player["token"])
    lines.truncate(0)
    lines.seek(0)
    r = client.http.get(
        f"/api/v1/games/{game['id']}",
        headers={"Authorization": f"Bearer {player['token']}", "X-Request-Id": "req-42"},
    )
    assert r.status_code == 200
    entry = json.loads(lines.getvalue().splitlines()[-1])
    assert entry["request_id"] == "req-42" and entry["game_id"] == game["id"] and entry["account"] == player["id"]
    assert entry["route"] == "/api/v1/games/<game_id>" and entry["status"] == 200 and entry["method"] == "GET"
    assert entry["logger"] == "dragonhall.access" and entry["level"] == "INFO" and entry["seconds"] >= 0


def test_a_request_without_an_id_gets_one_of_its_own(client: Any, lines: io.StringIO) -> None:
    assert client.http.get("/api/v1/catalog").status_code == 200
    entry = json.loads(lines.getvalue().splitlines()[-1])
    assert entry["request_id"] and "account" not in entry and "game_id" not in entry


def test_a_workers_task_binds_its_game_to_its_lines() -> None:
    record = logging.LogRecord("dragonhall.bots", logging.WARNING, __file__, 1, "slow %s", ("bot",), None)
    token = log_lines.bind(game_id="g-1")
    try:
        entry = json.loads(log_lines.JsonLines().format(record))
    finally:
        log_lines.CONTEXT.reset(token)
    assert entry["game_id"] == "g-1" and entry["message"] == "slow bot"
    assert "game_id" not in json.loads(log_lines.JsonLines().format(record))


def test_the_log_is_json_off_a_terminal_and_readable_on_one() -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        for stream, json_lines in ((io.StringIO(), True), (_Terminal(), False)):
            log_lines.configure("WARNING", stream)
            logging.getLogger("dragonhall.test").warning("the %s", "message")
            line = stream.getvalue().splitlines()[-1]
            if json_lines:
                assert json.loads(line)["message"] == "the message"
            else:
                assert line.endswith("WARNING dragonhall.test: the message")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
