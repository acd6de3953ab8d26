"""The rules page ``docs/rules/tarasque.md`` documents every designed rule, and stays true to the code.

Platform decision 3: each designed rule is written up with the rule as played, why, the passage it adapts
and the constant or function that holds it. These tests keep the page and the code from drifting apart.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from domain.kernel import RuleRef
from domain.tarasque import RULESET
from domain.tarasque.rulebook import BOOK

ROOT = Path(__file__).resolve().parents[4]
PAGE = (ROOT / "docs" / "rules" / "tarasque.md").read_text(encoding="utf-8")
TESTS = Path(__file__).parent
CODE = re.compile(r"`([a-z_]+)\.([A-Za-z_][\w.]*)`")
"""A code name on the page, relative to ``domain/tarasque/``: `queries.removal_due`."""
NOT_CODE = {"tarasque", "platform"}
"""Rule ids (`tarasque.six`, `platform.leaving`) look like code names."""
TEST = re.compile(r"`(test_\w+\.py)::(test_\w+)`")


def _ours() -> list[RuleRef]:
    return [rule for rule in RULESET.rules if rule.id.startswith("tarasque.")]


def test_every_designed_rule_has_an_entry_on_the_rules_page() -> None:
    """Platform decision 3: every rule that is not the rulebook's own (book README.md or platform) is
    documented, under its citation id."""
    designed = [rule for rule in _ours() if rule.book != BOOK]
    assert len(designed) >= 8
    missing = [rule.id for rule in designed if f"`{rule.id}`" not in PAGE]
    assert not missing, f"designed rules missing from docs/rules/tarasque.md: {missing}"


def test_a_platform_rule_cites_the_title_of_its_entry() -> None:
    """Platform decision 3: a rule of book ``platform`` points at its entry: its section is an entry's title."""
    for rule in _ours():
        if rule.book == "platform":
            assert f"### {rule.section}\n" in PAGE, f"{rule.id}: no entry titled {rule.section!r}"


def test_every_rule_id_the_page_names_is_a_rule_of_the_game() -> None:
    """Platform decision 3: the page cites rules by the ids that events and refusals carry."""
    ids = {rule.id for rule in RULESET.rules}
    named = set(re.findall(r"`((?:tarasque|platform)\.[a-z.-]+)`", PAGE))
    assert len(named) > 20 and named <= ids, sorted(named - ids)


def test_every_piece_of_code_the_page_names_exists() -> None:
    """Platform decision 3: each entry names the constant or function that holds the rule."""
    named = [(module, path) for module, path in CODE.findall(PAGE) if module not in NOT_CODE and path != "py"]
    assert len(named) > 50
    for module, path in named:
        target = importlib.import_module(f"domain.tarasque.{module}")
        for attribute in path.split("."):
            assert hasattr(target, attribute), f"docs/rules/tarasque.md names {module}.{path}, which is gone"
            target = getattr(target, attribute)


def test_every_test_the_page_names_exists() -> None:
    """Platform decision 3: the entries point at the tests that hold each rule to the code."""
    named = TEST.findall(PAGE)
    assert len(named) > 20
    for module, test in named:
        source = (TESTS / module).read_text(encoding="utf-8")
        assert f"def {test}(" in source, f"docs/rules/tarasque.md names {module}::{test}, which is gone"
