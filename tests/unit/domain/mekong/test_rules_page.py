"""The rules page docs/rules/mekong.md: every designed rule is there, and what it names exists in the code.

Platform decision 3: designed rules are documented in ``docs/rules/<slug>.md``,
each with the constant or function that holds it. These tests keep the page and
the code from drifting apart: a renamed function, a changed constant or a new
designed rule without its entry fails here.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from domain.mekong import RULESET
from domain.mekong.board import BOARD_RADIUS, ISLAND_RADIUS, REACH, STONE_RADIUS, VILLAGE_DISTANCE, VILLAGE_RADIUS
from domain.mekong.building import DROP_GRID
from domain.mekong.layout import MAX_LOAD
from domain.mekong.variants import MAX_ROUND_LIMIT, ROUND_LIMIT

PAGE = Path(__file__).resolve().parents[4] / "docs" / "rules" / "mekong.md"
MODULES = {p.stem for p in (Path(__file__).resolve().parents[4] / "domain" / "mekong").glob("*.py")} - {"__init__"}
CODE_NAME = re.compile(r"`([a-z_]+)\.([A-Za-z_][\w.]*)`")
"""A code name relative to ``domain/mekong/``: ``board.REACH``, ``layout.Layout.span_fault``."""
RULE_ID = re.compile(r"`(mekong\.[\w.-]+)`")


def _page() -> str:
    assert PAGE.exists(), f"{PAGE} is missing"
    return PAGE.read_text(encoding="utf-8")


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_every_designed_rule_of_the_game_has_an_entry_on_the_rules_page() -> None:
    """Platform decision 3: every rule not plainly in a rulebook (cited from the README, from no book, or marked
    designed) is documented; platform-wide rules are the lead's page."""
    page = _page()
    designed = [
        r
        for r in RULESET.rules
        if not r.id.startswith("platform.") and (r.book in ("platform", "README.md") or r.text.startswith("Designed"))
    ]
    assert len(designed) >= 4
    missing = [r.id for r in designed if f"`{r.id}`" not in page]
    assert not missing, f"designed rules without an entry: {missing}"


def test_every_code_name_and_rule_id_the_rules_page_cites_exists() -> None:
    """Platform decision 3: each entry names the constant or function that holds it; the name must resolve."""
    page = _page()
    names = [(m, rest) for m, rest in CODE_NAME.findall(page) if m in MODULES and rest != "py"]
    rule_ids = RULE_ID.findall(page)
    assert len(names) >= 40 and len(rule_ids) >= 15
    unknown = []
    for module, rest in names:
        target: object = importlib.import_module(f"domain.mekong.{module}")
        for part in rest.split("."):
            target = getattr(target, part, None)
        if target is None:
            unknown.append(f"{module}.{rest}")
    unknown += sorted(set(rule_ids) - {r.id for r in RULESET.rules})
    assert not unknown, f"the page cites names the code does not have: {unknown}"


@pytest.mark.parametrize(
    "stated",
    [
        ", ".join(f"{r:g}" for r in REACH.values()),
        f"radius {BOARD_RADIUS:g} board units",
        f"{VILLAGE_DISTANCE:g} units from the centre",
        f"a disc of radius {VILLAGE_RADIUS:g}",
        f"discs of radius {ISLAND_RADIUS:g}",
        f"the stone (radius {STONE_RADIUS:g})",
        f"a {DROP_GRID:g}-unit grid",
        f"at most {MAX_LOAD} planks",
        f"after round {ROUND_LIMIT}",
        f"1 to {MAX_ROUND_LIMIT} with the `round_limit` option",
    ],
)
def test_the_rules_page_states_the_designed_values_the_code_holds(stated: str) -> None:
    """README "Board (designed)" and the round limit: the values on the page are those of the code."""
    assert stated in _flat(_page())
