"""The code of docs/bots.md runs as written against a real server, in every game (issue 33: the
library loop crashed with 409 ``stale_version`` in the simultaneous phases of Mekong and Drachenreiter).

A block marked ``<!-- run: NAME -->`` is run with the environment it reads (``DRAGONHALL_URL``,
``DRAGONHALL_TOKEN``, ``GAME``); the reference docs/client.md is what
``python -m dragonhall.reference`` prints."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dragonhall.reference import render
from tests.support.processes import Server

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES = ("tarasque", "seven-dragons", "mekong", "drachenreiter")


def block(name: str) -> str:
    """The Python code block that follows ``<!-- run: name -->`` in docs/bots.md."""
    text = (DOCS / "bots.md").read_text()
    found = re.search(rf"<!-- run: {re.escape(name)} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"docs/bots.md has no block marked run: {name}"
    return found.group(1)


def test_the_reference_is_rendered_from_the_docstrings() -> None:
    assert (DOCS / "client.md").read_text() == render(), "run: python -m dragonhall.reference > docs/client.md"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("docs-code")
    served = Server({"DRAGONHALL_DATA_DIR": str(tmp / "var"), "DRAGONHALL_STORE": "sqlite"}, tmp)
    yield served
    served.stop()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_library_loop_plays_a_whole_game_as_written(
    server: Server, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, player = server.call("POST", "/api/v1/players", {"name": f"docs-{game}", "kind": "bot"})
    assert status == 201, player
    for variable, value in (
        ("DRAGONHALL_URL", server.base),
        ("DRAGONHALL_TOKEN", player["token"]),
        ("GAME", game),
    ):
        monkeypatch.setenv(variable, value)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block("library-loop"), "docs/bots.md", "exec"), {"__name__": "docs"})
    outcome = printed.getvalue().strip().splitlines()[-1]
    assert "'places': [" in outcome, printed.getvalue()
