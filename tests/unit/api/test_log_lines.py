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


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The command's logging, configured at INFO (compose's old default) into a buffer, then undone."""
    import sys
    import threading

    root = logging.getLogger()
    access = logging.getLogger("dragonhall.access")
    saved = (root.handlers[:], root.level, access.level, sys.excepthook, threading.excepthook)
    monkeypatch.delenv("DRAGONHALL_ACCESS_LOG", raising=False)
    out = io.StringIO()
    log_lines.configure("INFO", out)
    yield out
    root.handlers[:], level, access_level, sys.excepthook, threading.excepthook = saved
    root.setLevel(level)
    access.setLevel(access_level)
    logging.captureWarnings(False)


def test_info_does_not_turn_the_access_log_on_unless_it_is_asked_for(
    client: Any, configured: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.http.get("/api/v1/catalog").status_code == 200
    assert "dragonhall.access" not in configured.getvalue()
    monkeypatch.setenv("DRAGONHALL_ACCESS_LOG", "1")
    log_lines.configure("WARNING", configured)  # asked for: at INFO whatever the level
    assert client.http.get("/api/v1/catalog").status_code == 200
    assert json.loads(configured.getvalue().splitlines()[-1])["logger"] == "dragonhall.access"


def test_an_uncaught_error_of_a_thread_is_one_json_line_with_its_traceback(configured: io.StringIO) -> None:
    import threading

    def fail() -> None:
        raise RuntimeError("the worker's thread broke")

    thread = threading.Thread(target=fail, name="doomed")
    thread.start()
    thread.join()
    (line,) = configured.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "ERROR" and "doomed" in entry["message"]
    assert "RuntimeError: the worker's thread broke" in entry["error"]


def test_every_answer_returns_its_request_id(client: Any) -> None:
    given = client.http.get("/api/v1/catalog", headers={"X-Request-Id": "trace-7"})
    assert given.headers["X-Request-Id"] == "trace-7"
    made = client.http.get("/api/v1/nowhere")
    assert made.status_code == 404 and made.headers["X-Request-Id"]
    assert made.headers["X-Request-Id"] != client.http.get("/healthz").headers["X-Request-Id"]


def test_a_record_whose_arguments_do_not_fit_its_message_is_still_one_json_line() -> None:
    """A library's record with one argument too many (or a dict keyed by numbers in its fields)
    must not turn into a "--- Logging error ---" traceback in a log read line by line."""
    record = logging.LogRecord("celery.beat", logging.INFO, __file__, 1, "sending %s", ("a", "b"), None)
    record.fields = {1: "one"}
    entry = json.loads(log_lines.JsonLines().format(record))
    assert entry["message"].startswith("sending %s ('a', 'b')") and "not formatted" in entry["message"]
    assert entry["1"] == "one"
