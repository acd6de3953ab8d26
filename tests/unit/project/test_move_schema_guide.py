"""The example of docs/bots.md, "Validating a move offline", runs against the served catalogue."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "bots.md"


def _example() -> str:
    section = GUIDE.read_text(encoding="utf-8").split("## Validating a move offline", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    return blocks[0]


def test_the_guides_offline_check_accepts_a_well_formed_move_and_names_what_is_wrong(
    client: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served = client.call("GET", "/api/v1/catalog").body

    def get(url: str, **kwargs: Any) -> httpx.Response:
        assert url.endswith("/api/v1/catalog")
        return httpx.Response(200, json=served)

    monkeypatch.setattr(httpx, "get", get)
    namespace: dict[str, Any] = {}
    exec(compile(_example(), str(GUIDE), "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        """["dice: 'two' is not of type 'integer'"]""",
        """["move: Additional properties are not allowed ('again' was unexpected)"]""",
    ]
    problems = namespace["problems"]
    assert problems({"type": "shout"})[0].startswith("unknown type 'shout'")
    assert problems({"type": "take_tile", "tile": "red-forest"}) == ["move: 'dice' is a required property"]
