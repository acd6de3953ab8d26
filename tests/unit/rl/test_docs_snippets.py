"""The environment loop of docs/rl.md runs as written, and plays a whole game (issue 33: the docs'
snippet takes the fast path to the legal actions)."""

from __future__ import annotations

import re
from pathlib import Path

RL_DOC = Path(__file__).resolve().parents[3] / "docs" / "rl.md"


def block(name: str) -> str:
    """The Python code block that follows ``<!-- run: name -->`` in docs/rl.md."""
    found = re.search(rf"<!-- run: {re.escape(name)} -->\n```python\n(.*?)```", RL_DOC.read_text(), re.S)
    assert found, f"docs/rl.md has no block marked run: {name}"
    return found.group(1)


def test_the_pettingzoo_loop_plays_a_whole_game_as_written() -> None:
    code = block("pettingzoo-loop")
    assert 'action_mask"].nonzero' not in code, "the loop lists legal actions without scanning the mask"
    scope: dict[str, object] = {"__name__": "docs"}
    exec(compile(code, "docs/rl.md", "exec"), scope)
    game = scope["e"]
    assert all(game.terminations.values()) or all(game.truncations.values())  # type: ignore[attr-defined]
