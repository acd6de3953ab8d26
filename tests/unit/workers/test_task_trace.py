"""A task's lines carry its game and the request that caused it, Celery's own error line included;
a task sent while a request is served (or a task runs) carries that request's id and account."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from infra import log_lines
from workers.celery_app import make_celery
from workers.tasks import trace_headers

NO_GAME = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level, sys.excepthook, threading.excepthook)
    out = io.StringIO()
    log_lines.configure("INFO", out)
    yield out
    root.handlers[:], level, sys.excepthook, threading.excepthook = saved
    root.setLevel(level)
    logging.captureWarnings(False)


def test_a_failing_task_s_error_line_names_its_game_request_and_account(platform: Any, lines: io.StringIO) -> None:
    celery = make_celery(platform.settings, lambda: platform, lambda actions: None)
    headers = {"dragonhall_request_id": "rq-1", "dragonhall_account": "acc-1"}
    result = celery.tasks["dragonhall.play_bot"].apply(args=(NO_GAME, 0, 3), headers=headers)
    assert result.state == "FAILURE"
    (error,) = [json.loads(line) for line in lines.getvalue().splitlines() if '"level":"ERROR"' in line]
    assert error["logger"] == "celery.app.trace" and "raised unexpected" in error["message"]
    assert (error["game_id"], error["request_id"], error["account"]) == (NO_GAME, "rq-1", "acc-1")
    assert "request_id" not in log_lines.fields()  # unbound once the task is over


def test_a_task_sent_while_a_request_is_served_carries_its_id_and_account(client: Any) -> None:
    from api.app import create_app

    player = client.player("a")
    app = create_app(client.platform)
    headers = {"X-Request-Id": "rq-2", "Authorization": f"Bearer {player['token']}"}
    with app.test_request_context("/api/v1/games", headers=headers):
        app.preprocess_request()  # the request's checks: its caller is known from here
        assert trace_headers() == {"dragonhall_request_id": "rq-2", "dragonhall_account": player["id"]}
    token = log_lines.bind(request_id="rq-3", account="acc-3", game_id="g")  # a task sending a task
    try:
        assert trace_headers() == {"dragonhall_request_id": "rq-3", "dragonhall_account": "acc-3"}
    finally:
        log_lines.CONTEXT.reset(token)
