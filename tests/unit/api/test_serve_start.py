"""What ``dragonhall serve`` tells its operator when it starts: where it serves (off a terminal too,
at the default WARNING level), and, when its port is taken, how to serve on another in one line
rather than Granian's traceback."""

from __future__ import annotations

import argparse
import io
import json
import logging
import socket
from collections.abc import Iterator

import pytest
from rich.console import Console

from api import operations, serve_command
from infra import log_lines


@pytest.fixture
def logged(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The command's log off a terminal, at the default level (WARNING), as ``main`` configures it."""
    out = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    monkeypatch.setattr(operations, "console", Console(file=io.StringIO()))  # not a terminal
    log_lines.configure("WARNING", out)
    yield out
    root.handlers[:] = handlers
    root.setLevel(level)


def test_the_operator_s_messages_are_written_whatever_the_log_level(logged: io.StringIO) -> None:
    operations.say("Dragonhall on [bold]http://127.0.0.1:8000/[/]")
    logging.getLogger("dragonhall.play").info("not for the operator")
    [line] = [json.loads(x) for x in logged.getvalue().splitlines()]
    assert line["message"] == "Dragonhall on http://127.0.0.1:8000/" and line["level"] == "INFO"


def test_a_port_in_use_is_told_in_one_line_with_the_way_to_another(
    logged: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DRAGONHALL_STORE", "memory")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert not serve_command._port_free("127.0.0.1", port)
        args = argparse.Namespace(host="127.0.0.1", port=port, workers=1, threads=1)
        assert serve_command.serve(args) == 1
    [line] = [json.loads(x) for x in logged.getvalue().splitlines()]
    assert line["level"] == "ERROR" and f"port {port} of 127.0.0.1 is in use" in line["message"]
    assert "--port N" in line["message"] and "Traceback" not in logged.getvalue()
    assert serve_command._port_free("127.0.0.1", port)
